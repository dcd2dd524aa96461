"""The processes below one process, from /proc: what the guards look at so that no test leaves a pdp1
running (tests/conftest.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path
from typing import Iterator

from python_bridge.exhibit.health import alive as pid_alive  # a zombie is dead: reaping an orphan is init's
from python_bridge.exhibit.procinfo import descendants


def name_and_state(pid: int) -> tuple[str, str]:
    """A process's command name and its state letter (R running, S sleeping, T stopped, Z zombie), from
    /proc; OSError once it is gone."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2]


def pdp1_below(pid: int) -> list[int]:
    """The pdp1 processes running below ``pid`` (children, or further down), zombies left out."""
    found = []
    for below in descendants(pid):
        try:
            name, state = name_and_state(below)
        except OSError:
            continue  # gone meanwhile
        if name == "pdp1" and state != "Z":
            found.append(below)
    return found


HUNG_EVERY_S = 0.02


@contextlib.contextmanager
def kept_hung(pid: int) -> Iterator[None]:
    """``pid`` hung for as long as the block runs: SIGSTOP, sent again every ``HUNG_EVERY_S``, so that a
    machine the exhibit suspended and wakes (SIGCONT) for a key stays hung, as a hung process would."""
    done = threading.Event()

    def stop_again() -> None:
        while not done.is_set():
            try:
                os.kill(pid, signal.SIGSTOP)
            except ProcessLookupError:
                return
            done.wait(HUNG_EVERY_S)

    thread = threading.Thread(target=stop_again, name=f"hung-{pid}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(5)


def still_running(pids: list[int], within: float = 5.0) -> list[int]:
    """Those of ``pids`` still running after up to ``within`` seconds (a killed process takes a moment to die)."""
    deadline = time.monotonic() + within
    while any(pid_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if pid_alive(p)]


def as_at_a_terminal() -> None:
    """In a child before exec: Ctrl-C raises, as at a terminal, even when the test runs in a shell's
    background job (which starts every program with SIGINT ignored, and Python then never turns it
    into KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
