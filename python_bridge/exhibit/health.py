"""What ``/health`` checks besides the game loop: the emulator's process, the log, the disk.

Why these: a kiosk left alone for weeks fails quietly in these ways (a
``pdp1`` stopped but not dead, a ``state_dir`` replaced or read-only, a disk
filled by something else).  Each check answers None when all is well or one
line saying what is wrong, which ``/health`` lists under ``problems`` and
which turns it to 503.  All are cheap (a few system calls): health may be
polled every second.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def process_state(pid: int) -> str | None:
    """The kernel's one-letter state of ``pid`` (R, S, T for stopped, Z...), None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()[0]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not: it has only to be reaped)."""
    return process_state(pid) not in (None, "Z", "X")


def emulator_problem(pid: int | None, asleep: bool = False) -> str | None:
    """A pdp1 that is stopped (SIGSTOP, a debugger) or a zombie cannot answer the visitor -- unless it was
    put to sleep on purpose (``asleep``: suspended while it waits for its visitor, woken before a key)."""
    if pid is None:
        return None
    state = process_state(pid)
    if state is None or state in ("Z", "X"):
        return f"the pdp1 process {pid} has exited"
    if state in ("T", "t") and not asleep:
        return f"the pdp1 process {pid} is stopped (SIGSTOP or a debugger)"
    return None


def log_problem(path: Path | None) -> str | None:
    """The log file must be appendable where the configuration says it is."""
    if path is None:
        return "no log file: state_dir was unusable at start (the log goes to stderr only)"
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        return f"the log {path} is not writable: {exc.strerror or exc}"
    return None


def disk_problem(folder: Path, min_free_mb: int) -> str | None:
    """Less than ``min_free_mb`` free where ``folder`` (or its nearest existing parent) lives."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        free_mb = shutil.disk_usage(probe).free // (1024 * 1024)
    except OSError as exc:
        return f"cannot see the free space under {folder}: {exc.strerror or exc}"
    if free_mb < min_free_mb:
        return f"the disk is nearly full: {free_mb} MB free under {probe} (min_free_mb = {min_free_mb})"
    return None


def state_dir_problem(folder: Path) -> str | None:
    """Whether the kiosk can keep its game, counters and log in ``folder``: made if missing, written to."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".kiosk-write-test"
        probe.write_text("ok\n", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        return f"state_dir {folder} is unusable: {exc.strerror or exc}"
    return None


def open_fds(pid: int | None = None) -> int:
    """Open file descriptors of ``pid`` (this process by default): a leak shows here first."""
    try:
        return len(os.listdir(f"/proc/{pid or os.getpid()}/fd"))
    except OSError:
        return 0
