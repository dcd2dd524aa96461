"""The online games, kept by ID: each game's record in the one record format, saved as it goes.

Why SQLite, in WAL mode, one transaction a move: a host's games must survive the server's
``kill -9``, and a page that comes back with its ID must find its game where it was; WAL lets the
record downloads read while games write, and a transaction a move loses at most the move being
written.  Past one host the same interface is PostgreSQL's (a later step changes the storage, not
the game).  The record is the text ``replay`` checks (``driver.game_records``): what
``/games/ID/record.txt`` serves is what is stored.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

SCHEMA = """
create table if not exists games (
    id text primary key,
    created real not null,
    updated real not null,
    finished integer not null default 0,
    record text not null
)
"""
BUSY_TIMEOUT_S = 5.0  # a writer waits this long for another's transaction before it fails


class StoreError(Exception):
    """The database cannot be read or written (a full disk, a broken file): one line saying why."""


class GameStore:
    """Games by ID in one SQLite file; safe to call from every game's thread (one connection, a lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("pragma journal_mode=wal")
            self._db.execute("pragma synchronous=normal")  # WAL: a commit survives a crash of the server
            self._db.execute(SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"the games database {path} cannot be opened: {exc}") from None

    def save(self, game_id: str, record: str, finished: bool = False) -> None:
        """The game's record now (one transaction); StoreError when it cannot be written."""
        now = time.time()
        try:
            with self._lock:
                self._db.execute("begin immediate")
                try:
                    self._db.execute(
                        "insert into games (id, created, updated, finished, record) values (?, ?, ?, ?, ?) "
                        "on conflict(id) do update set updated = excluded.updated, finished = excluded.finished, "
                        "record = excluded.record", (game_id, now, now, int(finished), record))
                except BaseException:
                    self._db.execute("rollback")
                    raise
                self._db.execute("commit")
        except sqlite3.Error as exc:
            raise StoreError(f"the game could not be saved: {exc}") from None

    def load(self, game_id: str) -> tuple[str, bool] | None:
        """The game's record and whether it finished, or None when there is no such game."""
        try:
            with self._lock:
                row = self._db.execute("select record, finished from games where id = ?", (game_id,)).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"the games database cannot be read: {exc}") from None
        return (row[0], bool(row[1])) if row else None

    def problem(self) -> str | None:
        """Why the database cannot be used now, or None (health asks; it writes nothing)."""
        try:
            with self._lock:
                self._db.execute("select count(*) from games").fetchone()
        except sqlite3.Error as exc:
            return f"the games database cannot be read: {exc}"
        return None

    def close(self) -> None:
        with self._lock:
            self._db.close()
