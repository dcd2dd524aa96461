"""Shared fixtures: the Kalah tape, the bridge's commands as a user runs them, a wall clock for paced
runs that does not wait, and guards that no test leaves a simulator running.

``make test`` runs the tests in pytest-xdist workers, each a process with emulators of its own; the
guards hold in each: after every test no Simh of the process is open, and at the end of its session
no pdp1 process started below it (by a Simh, a command run as a process, a kiosk server) is left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from python_bridge.machine.simh import live_simulators
from tests.processes import pdp1_below

pytest_plugins = [
    "python_bridge.machine.pytest_plugin",  # the pdp1 fixture (tests/machine/)
    "tests.browser",  # chromium, browser_context, browser_page (tests/kiosk/, tests/online/)
]

ROOT = Path(__file__).resolve().parent.parent


# The files that take longest (seconds of a worker's time in a run of four workers on two cores; the share of a
# core each kept busy), longest first but alternating: a file that mostly waits (on the 1960 pace, a watchdog, a
# killed server: "waits") beside one that keeps a core busy (a browser's pages, a search: "busy").  ``make test``
# hands its workers a file at a time in this order (``--no-loadscope-reorder``); in the length order alone the
# waiting files came together a minute in, and both cores idled a third of that minute
# (pytest's time in one trial: 251 s that way, 238 s this way; 245 s with three busy files first).  Named without their
# folder: a file moved keeps its place.
LONG_FILES = (
    "test_online_load.py",  # 55, waits (0.3 of a core): bench-online's ramps, two servers, kills
    "test_page_vision.py",  # 51, busy (0.6): the page spaced (the kiosk in every state), contrast, motion, text
    "test_cluster.py",  # 41, waits (0.3): PostgreSQL and HAProxy, servers killed and stopped
    "test_online_layout_screens.py",  # 32, busy (0.7): three screens, four states, four languages, axe at each
    "test_runner.py",  # 38, waits (0.2): the kiosk's idle countdown, watchdog, killed emulators
    "test_online_layout.py",  # 29, busy (0.7): the same on phones and a tablet
    "test_online_waiting.py",  # 32, waits (0.1): a game left idle, a 1960-pace game stopped
    "test_page_zoom.py",  # 20, busy (0.8): the page zoomed at four steps and reflowed at 320 px
    "test_browser.py",  # 52, both (0.4): a whole game at the kiosk, the PDP-1 thinking paced
    "test_page_states.py",  # 42, busy (0.55): every kiosk state in two languages, axe at each
    "test_hostile.py",  # 25, waits (0.2)
    "test_page_defects.py",  # 38, busy (0.6)
    "test_axe.py",  # 26, both (0.45): a game and a server's loss at two sizes
    "test_axe_screens.py",  # 25, both (0.5): the same at two more
    "test_soak.py",  # 16
    "test_level_contract.py",  # 15
    "test_pdp1_test_kit.py",  # 8
    "test_diagnostic_mode.py",  # 9
    "test_prove_command.py",  # 11
    "test_cluster_page.py",  # 12
    "test_announcements.py",  # 13
    "test_online_backup.py",  # 14
    "test_keyboard_and_dialogs.py",  # 13
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files first, the rest in their collected order (a file's tests keep theirs)."""
    rank = {name: place for place, name in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session")
def kalah_tape():
    """build/kalah.rim, assembled from pdp1_src/ by the project's own assembler."""
    from python_bridge.machine.kalah_program import ensure_tape

    return ensure_tape()


@pytest.fixture
def bridge() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``bridge("play", "--pits", "3", stdin=...)``: ``python -m python_bridge`` as a process, from the project's
    root, its output captured as text; a timeout, so a command that hangs fails its test instead of the run."""

    def run(*args: str, stdin: str = "", timeout: float = 120,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, input=stdin,
                              capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})

    return run


class FakeClock:
    """Wall time for a paced show without waiting for it: sleeping moves the clock on, and is counted."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def no_simulator_left_behind():
    """Every Simh a test opens must be closed by the end of the test."""
    yield
    left = list(live_simulators())
    for sim in left:
        sim.close()
    assert not left, f"a test left {len(left)} pdp1 simulator(s) running"


@pytest.fixture(scope="session", autouse=True)
def no_pdp1_left_at_the_end():
    """At the end of this process's session (each pytest-xdist worker has its own) no pdp1 it started
    still runs.  One that is still going after a few seconds (time for a stopped server's emulator
    to exit) is killed, being ours, and fails the run by name."""
    yield
    deadline = time.monotonic() + 5
    while (left := pdp1_below(os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):  # it went meanwhile
            os.kill(pid, signal.SIGKILL)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "the test run")
    assert not left, f"{worker} left {len(left)} pdp1 process(es) running: {left} (killed now)"
