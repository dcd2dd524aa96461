"""The server's memory and processes, from /proc: for the health endpoint and the soak run.

Why: a kiosk runs for weeks; a leak of memory or of emulator processes shows
first as growth in these two numbers, which the soak run compares at its
start and end.
"""

from __future__ import annotations

import os
from pathlib import Path


def rss_kb(pid: int | None = None) -> int:
    """Resident memory of ``pid`` (this process by default) in KiB; 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid or os.getpid()}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """The host CPU time ``pid`` has used (user and system), in seconds."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()  # the name in parentheses may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _parents() -> dict[int, int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces: the ppid is the second field after it
        parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
    return parents


def descendants(pid: int | None = None) -> list[int]:
    """Every live process below ``pid`` (this process by default)."""
    root = pid or os.getpid()
    parents = _parents()
    found: list[int] = []
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found += children
        frontier += children
    return found


def process_count(pid: int | None = None) -> int:
    """The process itself and everything below it."""
    return 1 + len(descendants(pid))
