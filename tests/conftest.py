"""Shared fixtures: the Kalah tape, the bridge's commands as a user runs them, and a guard that no test
leaves a simulator running."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from python_bridge.machine.simh import live_simulators

pytest_plugins = ["python_bridge.machine.pytest_plugin"]  # the pdp1 fixture (tests/machine/)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def kalah_tape():
    """build/kalah.rim, assembled from pdp1_src/ by the project's own assembler."""
    from python_bridge.machine.kalah_program import ensure_tape

    return ensure_tape()


@pytest.fixture
def bridge() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``bridge("play", "--pits", "3", stdin=...)``: ``python -m python_bridge`` as a process, from the project's
    root, its output captured as text; a timeout, so a command that hangs fails its test instead of the run."""

    def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, input=stdin,
                              capture_output=True, text=True, timeout=timeout)

    return run


@pytest.fixture(autouse=True)
def no_simulator_left_behind():
    """Every Simh a test opens must be closed by the end of the test."""
    yield
    left = list(live_simulators())
    for sim in left:
        sim.close()
    assert not left, f"a test left {len(left)} pdp1 simulator(s) running"
