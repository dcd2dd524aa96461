"""The one game driver plays whole games on SIMH as WebAssembly as on Debian's pdp1: the same records.

Why: the browser's exhibit runs the same driver over the WebAssembly machine; a game that differed
in a move, a line typed or a counted cycle would be a different exhibit."""

from __future__ import annotations

import dataclasses
import random

import pytest

from python_bridge.driver.driver import FrontEnd, GameDriver, GameOutcome
from python_bridge.driver.pacing import Pacer
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.simh import Simh
from python_bridge.machine.wasm_simh import WasmSimh
from python_bridge.reference.rules import Variants
from tests.programs import need


def _without_host_time(outcome: GameOutcome) -> GameOutcome:
    """The record, less what the host's clock measured (the seconds each choice took here)."""
    return dataclasses.replace(outcome, thoughts=[dataclasses.replace(t, host_seconds=0.0) for t in outcome.thoughts])


@pytest.mark.parametrize("panel, counted", [
    (PanelSettings(pits=6, seeds=4, depth=3), False),
    (PanelSettings(pits=4, seeds=3, depth=3, pdp1_first=True, brief=True,
                   variants=Variants(empty_capture=True, pie_rule=True)), True),
], ids=["plain", "counted-brief-pie-rule"])
def test_a_driven_game_is_the_same_on_both(panel: PanelSettings, counted: bool) -> None:
    need("node")
    outcomes = []
    for transport in (Simh, WasmSimh):
        with GameDriver(panel, FrontEnd(), RandomVisitor(random.Random(7)), Pacer(counted=counted),
                        transport=transport) as driver:
            outcomes.append(_without_host_time(driver.play_game()))
    native, wasm = outcomes
    assert wasm.record and wasm.transcript and (wasm.thoughts or not counted)
    assert all(t.cycles for t in wasm.thoughts)
    assert wasm == native
