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
from python_bridge.machine.transcript import Move
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


class Killing(FrontEnd):
    """Ends the machine when the PDP-1 has typed a chosen move: the driver must restore the game on a fresh one."""

    def __init__(self, at_moves: set[int]) -> None:
        self.at_moves, self.moves = at_moves, 0
        self.driver: GameDriver | None = None

    def event(self, event, checker) -> None:
        if isinstance(event, Move):
            self.moves += 1
            if self.moves in self.at_moves and self.driver is not None:
                self.driver.sim.kill()


def test_a_lost_wasm_machine_is_restored_and_the_game_ends_as_on_native() -> None:
    need("node")
    panel = PanelSettings(pits=5, seeds=3, depth=3, variants=Variants(pie_rule=True), pdp1_first=True)
    with GameDriver(panel, FrontEnd(), RandomVisitor(random.Random(11))) as driver:
        native = driver.play_game()
    front = Killing({3, 8})
    with GameDriver(panel, front, RandomVisitor(random.Random(11)), silence_timeout=5, transport=WasmSimh) as driver:
        front.driver = driver
        restored = driver.play_game()
        assert driver.restarts == 2 and restored.restarts == 2
    assert restored.end is not None and restored.record == native.record
