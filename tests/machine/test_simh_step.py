"""``Simh.step`` and ``Simh.unread`` on the Kalah program: exactly the instructions asked, the output given back."""

from __future__ import annotations

import pytest

from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import KalahMachine
from python_bridge.machine.simh import SimhError


def test_step_runs_exactly_the_instructions_asked_and_returns_the_output(kalah_tape) -> None:
    panel = PanelSettings(pits=4, seeds=3, depth=2, pdp1_first=True)
    # stopped where the program starts: read in whole (a stop during the read-in would leave the
    # loader waiting on the reader), nothing typed yet
    with KalahMachine(panel, breakpoints=(0o100,)) as machine:
        sim = machine.sim
        with pytest.raises(SimhError):
            sim.step(10)  # the machine is running
        stop = sim.wait_for_stop(30)
        assert stop.pc == 0o100, stop
        sim.clear_breakpoint(0o100)
        before = sim.instructions()
        typed = ""
        for _ in range(200):
            out, pc = sim.step(5000)
            assert pc is not None and 0 <= pc < 0o10000
            typed += out
            if "plays" in typed:
                break
        assert sim.instructions() - before == 5000 * (_ + 1)
        assert "kalah for the pdp-1" in typed and "pdp-1 plays" in typed
        sim.unread(typed)  # given back, the output is read first after the machine goes on
        sim.cont()
        assert sim.read_some(2).startswith(typed)
