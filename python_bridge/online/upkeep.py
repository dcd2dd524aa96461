"""Keeping the games only as long as the museum says: ``keep_days``.

Why here and in the server both: a museum's records policy is a number of days; the server prunes once a
day by itself (a site left alone for a year stays within it), and ``online prune`` does it on demand, or
only counts what it would remove (``--dry-run``), for the technician who wants to see before deleting.
A finished game is pruned ``keep_days`` after it ended; an unfinished one once nobody has touched it for
as long and no server drives it (a game in play is never removed under its visitor).
"""

from __future__ import annotations

import asyncio
import logging

from .store import GameStore, StoreError

DAY_S = 86_400.0
PRUNE_EVERY_S = DAY_S


def prune_games(store: GameStore, keep_days: int, dry_run: bool = False) -> str:
    """Prune (or count, ``dry_run``) the games past ``keep_days``; one line saying what was done."""
    finished, unfinished = store.prune(keep_days * DAY_S, dry_run)
    verb = "would remove" if dry_run else "removed"
    return (f"{verb} {finished} finished game{'s' * (finished != 1)} older than {keep_days} days and "
            f"{unfinished} unfinished game{'s' * (unfinished != 1)} left alone as long")


async def prune_daily(store: GameStore, keep_days: int, log: logging.Logger) -> None:
    """At start, then once a day: the games past ``keep_days`` pruned, a line in the log each time (a database
    that does not answer is tried again the next day, and said in the log)."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            log.info("online: kept for %d days: %s", keep_days,
                     await loop.run_in_executor(None, prune_games, store, keep_days))
        except StoreError as failure:
            log.error("online: the games could not be pruned: %s", failure)
        await asyncio.sleep(PRUNE_EVERY_S)
