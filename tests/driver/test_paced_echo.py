"""A front end that types the paper at the typewriter's pace has the PDP-1 asleep meanwhile.

Why: SIMH types a line in microseconds and the program then waits for its typewriter or its keyboard
flat out; a page typing that line at 10 characters a second took seconds of it.  Two hundred games at
the 1960 pace spent 34 % of a two-core host spinning so, and visitors' connections were lost to the
starved server.  Asleep (SIGSTOP) it takes nothing; the next exchange with SIMH wakes it.
"""

from __future__ import annotations

import random
import time

import pytest

from python_bridge.driver.driver import FrontEnd, GameDriver
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from tests.processes import name_and_state

STOPPED_WITHIN_S = 2.0  # SIGSTOP is delivered at once; /proc shows it a moment later on a busy host


class Typewriter(FrontEnd):
    """Echoes each line, noting whether the pdp1 process was stopped while it did (a paced one waits for that)."""

    def __init__(self, paced: bool) -> None:
        self.paced = paced
        self.driver: GameDriver | None = None
        self.while_running: list[bool] = []  # for each line read from a running machine: stopped while echoed

    @property
    def paces_echo(self) -> bool:
        return self.paced

    def echo(self, text: str) -> None:
        assert self.driver is not None and self.driver.machine is not None
        sim = self.driver.machine.sim
        if not sim.running:
            return
        pid = sim.child.pid
        until = time.monotonic() + (STOPPED_WITHIN_S if self.paced else 0.02)
        while name_and_state(pid)[1] != "T" and time.monotonic() < until:
            time.sleep(0.001)
        self.while_running.append(name_and_state(pid)[1] == "T")


@pytest.mark.parametrize("paced", [True, False], ids=["paced", "at-once"])
def test_the_pdp1_sleeps_while_a_paced_front_end_types_and_the_game_goes_on(paced: bool, kalah_tape) -> None:
    front = Typewriter(paced)
    with GameDriver(PanelSettings(pits=4, seeds=3, depth=2), front, RandomVisitor(random.Random(3))) as driver:
        front.driver = driver
        outcome = driver.play_game()
    assert outcome.end is not None and outcome.moves_checked == len(outcome.record) > 0
    assert len(front.while_running) > 10
    assert all(front.while_running) if paced else not any(front.while_running)
