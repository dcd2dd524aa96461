"""Shared fixtures: the Kalah tape, and a guard that no test leaves a simulator running."""

from __future__ import annotations

import pytest

from python_bridge.machine.simh import live_simulators

pytest_plugins = ["python_bridge.machine.pytest_plugin"]  # the pdp1 fixture (tests/machine/)


@pytest.fixture(scope="session")
def kalah_tape():
    """build/kalah.rim, assembled from pdp1_src/ by the project's own assembler."""
    from python_bridge.machine.kalah_program import ensure_tape

    return ensure_tape()


@pytest.fixture(autouse=True)
def no_simulator_left_behind():
    """Every Simh a test opens must be closed by the end of the test."""
    yield
    left = list(live_simulators())
    for sim in left:
        sim.close()
    assert not left, f"a test left {len(left)} pdp1 simulator(s) running"
