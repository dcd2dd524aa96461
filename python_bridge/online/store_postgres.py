"""The games in PostgreSQL: past one host, every server behind the load balancer shares one database.

Why psycopg 3: the well-kept driver of PostgreSQL's own community, with async and sync connections alike;
each game's thread saves its moves, so the store uses its plain connections, one a server behind a lock
(a move every few seconds a game is a few dozen small transactions a second for a host's hundred games).

A database lost while running: every call says so in one line (``StoreError``) and the next call connects
again, so the server holds its moves meanwhile and goes on when the database is back.  A statement that
takes over ``STATEMENT_TIMEOUT_S`` (a database stopped, not closed) fails rather than hang a game; a
connection is given up after ``CONNECT_TIMEOUT_S``.
"""

from __future__ import annotations

import re

import psycopg

from .store_sql import SqlStore

CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_S = 10
SCHEMA_LOCK = 8361  # the advisory lock servers starting at once take in turn to make or upgrade the schema
_PASSWORD = re.compile(r"(://[^:/@]*):[^@]*@")


def without_password(url: str) -> str:
    """The URL as a log may show it."""
    return _PASSWORD.sub(r"\1:***@", url)


class PostgresStore(SqlStore):
    NOW = "extract(epoch from clock_timestamp())::double precision"
    ERRORS = (psycopg.Error, OSError)

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = without_password(url)
        super().__init__()

    def _connect(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                               options=f"-c statement_timeout={STATEMENT_TIMEOUT_S * 1000}",
                               application_name="kalah-online")

    def _placeholders(self, sql: str) -> str:
        return sql.replace("?", "%s")

    def _lock_schema(self) -> None:
        self._sql(f"select pg_advisory_xact_lock({SCHEMA_LOCK})")

    def _has_games_table(self) -> bool:
        return self._sql("select to_regclass('games') is not null").fetchone()[0]

    def _lost(self, exc: BaseException) -> bool:
        return isinstance(exc, (psycopg.OperationalError, OSError)) or self._db is None or self._db.closed \
            or self._db.broken
