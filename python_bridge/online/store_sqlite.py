"""The games in SQLite: the online exhibit's embedded default, one file under the state folder.

Why WAL and ``synchronous=normal``: in WAL mode a committed move survives the server's ``kill -9`` (only a
power cut may take the last commits back), record downloads read while games write, and a commit is one
append, not two syncs.  A writer waits ``BUSY_TIMEOUT_S`` for another's transaction; ``begin immediate``
takes the write lock at once, so two writers never deadlock upgrading their locks.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .store_sql import SqlStore

BUSY_TIMEOUT_S = 5.0


class SqliteStore(SqlStore):
    NOW = "((julianday('now') - 2440587.5) * 86400.0)"  # seconds since 1970, SQLite's clock (the host's)
    BEGIN = "begin immediate"
    ERRORS = (sqlite3.Error, OSError)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        super().__init__()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None)
        db.execute("pragma journal_mode=wal")
        db.execute("pragma synchronous=normal")
        return db

    def _has_games_table(self) -> bool:
        return self._sql("select 1 from sqlite_master where type = 'table' and name = 'games'").fetchone() is not None
