"""The games' database a setting names, opened: ``""`` is SQLite under the state folder (the embedded
default), ``postgresql://...`` PostgreSQL (past one host).  The backends are imported only when named:
PostgreSQL's driver is needed only where PostgreSQL is used."""

from __future__ import annotations

from pathlib import Path

from .store import GameStore

SQLITE_NAME = "games.sqlite3"


def open_store(database: str, state_dir: Path) -> GameStore:
    """The store ``database`` names; StoreError (one line) when it cannot be opened: an unreachable server,
    a folder that refuses a file, a schema newer than this server's."""
    if database.startswith(("postgresql://", "postgres://")):
        from .store_postgres import PostgresStore

        return PostgresStore(database)
    from .store_sqlite import SqliteStore

    return SqliteStore(state_dir / SQLITE_NAME)
