"""The processes below one process, from /proc: what the guards look at so that no test leaves a pdp1
running (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from python_bridge.kiosk.procinfo import descendants


def pdp1_below(pid: int) -> list[int]:
    """The pdp1 processes running below ``pid`` (children, or further down), zombies left out."""
    found = []
    for below in descendants(pid):
        try:
            stat = Path(f"/proc/{below}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        if stat[stat.index("(") + 1:stat.rindex(")")] == "pdp1" and stat[stat.rindex(")") + 2:].split()[0] != "Z":
            found.append(below)
    return found

