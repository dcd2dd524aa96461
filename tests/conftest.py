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
    "python_bridge.machine.pytest_plugin",  # the pdp1 fixture (tests/machine/; its entry point loads it too)
    "tests.browser",  # chromium, browser_context, browser_page (tests/kiosk/, tests/online/)
]

ROOT = Path(__file__).resolve().parent.parent


# The files that take longest (seconds of a worker's time in a run of four or five workers on two cores; the share of a
# core each kept busy), longest first but spread: a file that mostly waits (on the 1960 pace, a watchdog, a killed
# server: "waits") comes between ones that keep a core busy (a browser's pages, a search).  ``make test`` hands its
# workers a file at a time in this order (``--no-loadscope-reorder``).  In the length order alone the waiting files
# came together a minute in, and both cores idled a third of that minute; with three of them at the start, a fifth of
# the first eighty seconds.  The list runs on to files of ten seconds, so that the run ends with short files on
# every worker (a file of ten seconds last, alone, was ten seconds with one core idle).  Named without their folder:
# a file moved keeps its place.
LONG_FILES = (
    "test_online_load.py",  # 57, waits (0.25 of a core): bench-online's ramps, two servers, kills
    "test_page_vision.py",  # 37, busy (0.6): the page spaced (the kiosk in every state), contrast, motion, text
    "test_page_states.py",  # 42, busy (0.55): every kiosk state in two languages, axe at each
    "test_words_follow_the_board.py",  # 30, busy: two whole games sampled every 100 ms, on both front ends
    "test_online_layout_screens.py",  # 21, busy (0.7): three screens, four states, four languages, axe at each
    "test_cluster.py",  # 61, waits (0.25): PostgreSQL and HAProxy, servers killed, stopped and hung
    "test_online_layout.py",  # 14, busy (0.7): the same on phones and a tablet
    "test_page_defects.py",  # 38, busy (0.6)
    "test_page_zoom.py",  # 15, busy (0.8): the page zoomed at four steps and reflowed at 320 px, both editions
    "test_runner.py",  # 37, waits (0.2): the kiosk's idle countdown, watchdog, killed emulators
    "test_axe_screens.py",  # 22, both (0.5): a game and a server's loss on two more screens
    "test_browser.py",  # 56, both (0.4): a whole game at the kiosk, the PDP-1 thinking paced
    "test_axe.py",  # 33, both (0.5): a game and a server's loss at two sizes; the browser edition's states
    "test_browser_edition.py",  # 32, busy: Pyodide and SIMH as WebAssembly in Chromium, a whole game, a mismatch
    "test_online_waiting.py",  # 35, waits (0.1): a game left idle, a 1960-pace game stopped
    "test_deploy_online.py",  # 30, waits: online-cluster stopped as make stops it, after faults
    "test_level_contract.py",  # 14, busy
    "test_macro_generative.py",  # 10, busy (1.2: macro1 beside it)
    "test_announcements.py",  # 24: the kiosk's game, the line, the browser edition's game
    "test_hostile.py",  # 21, waits (0.25)
    "test_keyboard_and_dialogs.py",  # 21
    "test_browser_records.py",  # 16, busy: the browser edition's page sending its records to a server
    "test_fast_prove.py",  # 13, busy
    "test_soak.py",  # 22, waits
    "test_online_backup.py",  # 16
    "test_cluster_page.py",  # 15
    "test_long_runs_announced.py",  # 12
    "test_waiting_machine.py",  # 10, waits
    "test_diagnostic_mode.py",  # 12
    "test_prove_command.py",  # 11
    "test_recovery.py",  # 10, waits
    "test_session_records.py",  # 11
    "test_pdp1_test_kit.py",  # 9
    "test_lights.py",  # 9, waits
    "test_typewriter_keys.py",  # 10
    "test_solver.py",  # 9
    "test_security_headers.py",  # 8
    "test_wasm_driver.py",  # 8: whole games on both machines
    "test_online_protocol.py",  # 9
    "test_demonstration.py",  # 9
    "test_proof_show.py",  # 8, waits (the 1960 pace)
    "test_online_page.py",  # 12
    "test_online_mismatch.py",  # 10, both: a changed tape's mismatch on a server, in Chromium, axe at two sizes
    "test_screen_session.py",  # 7, waits
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
