"""The kiosk's counters (games, restarts, mismatches, errors, uptime), kept across server restarts.

Why a file of their own: a kiosk restarted by systemd (or by a power cut)
must not forget that it has had forty emulator restarts this month; the
operator reads the totals on ``/health``.  The file is small JSON in
``state_dir``, written atomically after every change (a temporary file
renamed over the old one), so a killed server loses at most the uptime since
the last change.  When it cannot be read or written the counters live in
memory and health says so.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from tools.atomic_file import write_atomically

FORMAT = 1


@dataclass
class KioskStats:
    """What ``/health`` counts.  All but ``started`` are totals over every run of the server."""

    started: float = field(default_factory=time.time)  # this run's start (wall clock)
    games_played: int = 0
    visitor_games: int = 0
    attract_games: int = 0
    aborted_games: int = 0
    restarts: int = 0  # emulators replaced mid-game
    mismatches: int = 0
    errors: int = 0
    restored_after_server_restart: int = 0
    server_starts: int = 0
    earlier_uptime_seconds: float = 0.0  # the uptime of the server's earlier runs

    COUNTS = ("games_played", "visitor_games", "attract_games", "aborted_games", "restarts", "mismatches",
              "errors", "restored_after_server_restart", "server_starts")

    @property
    def total_uptime_seconds(self) -> float:
        return self.earlier_uptime_seconds + (time.time() - self.started)

    def counts(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.COUNTS}


def load_counters(path: Path, stats: KioskStats) -> None:
    """Add the totals saved in ``path`` to ``stats``; no file is a first start.

    Raises OSError when the file cannot be read and ValueError when it is not
    a counters file: the caller starts from zero and says why.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError("not a kiosk counters file")
        values = {name: int(data[name]) for name in KioskStats.COUNTS}
        uptime = float(data["total_uptime_seconds"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"unreadable counters {path}: {exc}") from None
    for name, value in values.items():
        setattr(stats, name, max(0, value))
    stats.earlier_uptime_seconds = max(0.0, uptime)


def save_counters(path: Path, stats: KioskStats) -> None:
    """Write the totals now (raises OSError when ``state_dir`` is unusable)."""
    write_atomically(path, json.dumps({"format": FORMAT, **stats.counts(),
                                       "total_uptime_seconds": round(stats.total_uptime_seconds, 1)}))
