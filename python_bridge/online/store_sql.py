"""The games' schema and SQL, the same on SQLite and on PostgreSQL: one table, versioned, made or upgraded
when a server starts; and the store built on it (``SqlStore``), which a backend completes with its
connection, its clock and its errors.

Why one SQL for both: the tests run the same storage tests on each, and a behaviour (a lease, a refused
save) that differed between them would be found only past one host.  The SQL is written with ``?``
parameters and ``{now}`` for the database's clock in seconds since 1970; a backend spells them its way.
Leases run on the database's clock, never a server's: servers on several hosts agree on it.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from .store import LeaseLost, StoreError

SCHEMA_VERSION = 3
# what each version adds to the one before: 1, the games by ID (the first online release); 2, who
# drives a game and until when (one owner a game, past one host); 3, the servers and their room (one
# waiting line for the whole site)
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("create table games (id text primary key, created double precision not null, "
        "updated double precision not null, finished integer not null default 0, record text not null)",),
    2: ("alter table games add column owner text",
        "alter table games add column lease_until double precision not null default 0"),
    3: ("create table servers (name text primary key, label text not null, free integer not null, "
        "waiting integer not null, seen double precision not null)",),
}
VERSION_TABLE = "create table if not exists kalah_schema (version integer not null)"
NOT_YET_PLAYED = ""  # the record of a game taken before its first move is kept


class SqlStore:
    """Games by ID, safe from every game's thread (one connection, a lock).  A backend gives ``_connect``
    (a connection in autocommit mode), ``NOW`` (its clock's SQL), ``ERRORS`` (what its driver raises),
    ``_has_games_table`` and ``_placeholders``; the rest is here."""

    NOW = ""
    BEGIN = "begin"
    ERRORS: tuple[type[BaseException], ...] = ()
    where = ""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._db: Any = None
        with self._lock:
            self._open()

    # -- what a backend gives ---------------------------------------------------------------------------
    def _connect(self) -> Any:
        raise NotImplementedError

    def _has_games_table(self) -> bool:
        raise NotImplementedError

    def _placeholders(self, sql: str) -> str:
        return sql

    def _lock_schema(self) -> None:
        """Hold off other servers starting at once until this transaction ends."""

    # -- the connection ----------------------------------------------------------------------------
    def _open(self) -> None:
        """Connect and make or upgrade the schema (under the lock), StoreError when it cannot."""
        try:
            self._db = self._connect()
            self._upgrade()
        except self.ERRORS as exc:
            self._forget()
            raise StoreError(f"the games database {self.where} cannot be opened: {_one_line(exc)}") from None

    def _forget(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except self.ERRORS:
                pass
        self._db = None

    def _sql(self, sql: str, args: tuple = ()) -> Any:
        return self._db.execute(self._placeholders(sql.format(now=self.NOW)), args)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._sql(self.BEGIN)
        try:
            yield
        except BaseException:
            self._sql("rollback")
            raise
        self._sql("commit")

    def _upgrade(self) -> None:
        with self._transaction():
            self._lock_schema()
            self._sql(VERSION_TABLE)
            row = self._sql("select version from kalah_schema").fetchone()
            version = row[0] if row else (1 if self._has_games_table() else 0)
            if version > SCHEMA_VERSION:
                raise StoreError(f"the games database {self.where} is of schema version {version}, newer than "
                                 f"this server's {SCHEMA_VERSION}: upgrade the server")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[step]:
                    self._sql(statement)
            if row is None:
                self._sql("insert into kalah_schema (version) values (?)", (SCHEMA_VERSION,))
            elif version != SCHEMA_VERSION:
                self._sql("update kalah_schema set version = ?", (SCHEMA_VERSION,))

    def _run(self, what: str, body):
        """``body()`` under the lock, on a connection; StoreError saying ``what`` failed when the database
        does not answer.  A connection found lost (the database restarted) is made again and ``body`` tried
        once more at once: every call here may be repeated (a save writes the whole record; a lease taken or
        renewed twice is the same lease)."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    if self._db is None:
                        self._open()
                    return body()
                except StoreError:
                    raise
                except self.ERRORS as exc:
                    lost = self._lost(exc)
                    if lost:
                        self._forget()  # connected again on the next try
                    if not lost or attempt == 2:
                        raise StoreError(f"{what}: {_one_line(exc)}") from None

    def _lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` means the connection is gone (the next call connects again)."""
        return False

    # -- the store ---------------------------------------------------------------------------------
    def schema_version(self) -> int:
        return self._run("the games database cannot be read",
                         lambda: self._sql("select version from kalah_schema").fetchone()[0])

    def save(self, game_id: str, record: str, finished: bool = False, owner: str | None = None) -> None:
        def body() -> None:
            with self._transaction():
                if owner is None:
                    self._sql("insert into games (id, created, updated, finished, record) "
                              "values (?, {now}, {now}, ?, ?) on conflict (id) do update set "
                              "updated = excluded.updated, finished = excluded.finished, record = excluded.record",
                              (game_id, int(finished), record))
                    return
                kept = self._sql("update games set updated = {now}, finished = ?, record = ? "
                                 "where id = ? and owner = ? and lease_until >= {now} returning id",
                                 (int(finished), record, game_id, owner)).fetchone()
                if kept is None and not self._take(game_id, owner, 0.0):
                    raise LeaseLost(f"game {game_id[:8]}...: another server drives it now")
                if kept is None:  # its lease had run out, and nobody had taken it: taken again, and saved
                    self._sql("update games set updated = {now}, finished = ?, record = ? where id = ?",
                              (int(finished), record, game_id))

        self._run("the game could not be saved", body)

    def load(self, game_id: str) -> tuple[str, bool] | None:
        row = self._run("the games database cannot be read", lambda: self._sql(
            "select record, finished from games where id = ?", (game_id,)).fetchone())
        return (row[0], bool(row[1])) if row and row[0] != NOT_YET_PLAYED else None

    def _take(self, game_id: str, owner: str, lease_s: float, replacing: str | None = None) -> bool:
        taken = self._sql("update games set owner = ?, lease_until = {now} + ? where id = ? and "
                          "(owner is null or owner = ? or owner = ? or lease_until < {now}) returning id",
                          (owner, lease_s, game_id, owner, replacing or owner)).fetchone()
        if taken is not None:
            return True
        made = self._sql("insert into games (id, created, updated, finished, record, owner, lease_until) "
                         "values (?, {now}, {now}, 0, ?, ?, {now} + ?) on conflict (id) do nothing returning id",
                         (game_id, NOT_YET_PLAYED, owner, lease_s)).fetchone()
        return made is not None

    def take(self, game_id: str, owner: str, lease_s: float, replacing: str | None = None) -> bool:
        def body() -> bool:
            with self._transaction():
                return self._take(game_id, owner, lease_s, replacing)

        return self._run("the game could not be taken", body)

    def owner_of(self, game_id: str) -> str | None:
        row = self._run("the games database cannot be read", lambda: self._sql(
            "select owner from games where id = ?", (game_id,)).fetchone())
        return row[0] if row else None

    def renew(self, owner: str, lease_s: float, game_ids: list[str]) -> set[str]:
        if not game_ids:
            return set()

        def body() -> set[str]:
            marks = ", ".join("?" * len(game_ids))
            with self._transaction():
                rows = self._sql(f"update games set lease_until = {{now}} + ? where owner = ? and id in ({marks}) "
                                 "returning id", (lease_s, owner, *game_ids)).fetchall()
            return {row[0] for row in rows}

        return self._run("the leases could not be renewed", body)

    def release(self, game_id: str, owner: str) -> None:
        self._run("the game could not be released", lambda: self._sql(
            "update games set owner = null, lease_until = 0 where id = ? and owner = ?", (game_id, owner)))

    def lease_left(self, game_id: str) -> float | None:
        row = self._run("the games database cannot be read", lambda: self._sql(
            "select owner, lease_until - {now} from games where id = ?", (game_id,)).fetchone())
        if row is None:
            return None
        return max(0.0, float(row[1])) if row[0] is not None else 0.0

    def exists(self, game_id: str) -> bool:
        row = self._run("the games database cannot be read", lambda: self._sql(
            "select 1 from games where id = ?", (game_id,)).fetchone())
        return row is not None

    def begin(self, game_id: str) -> None:
        """A game made, not yet played (kept so that its ID is known on every server)."""
        self._run("the game could not be saved", lambda: self._sql(
            "insert into games (id, created, updated, finished, record) values (?, {now}, {now}, 0, ?) "
            "on conflict (id) do nothing", (game_id, NOT_YET_PLAYED)))

    def report(self, name: str, label: str, free: int, waiting: int) -> None:
        self._run("the server could not be reported", lambda: self._sql(
            "insert into servers (name, label, free, waiting, seen) values (?, ?, ?, ?, {now}) on conflict (name) "
            "do update set label = excluded.label, free = excluded.free, waiting = excluded.waiting, "
            "seen = excluded.seen", (name, label, free, waiting)))

    def room_elsewhere(self, name: str, within_s: float) -> str | None:
        row = self._run("the games database cannot be read", lambda: self._sql(
            "select label from servers where name <> ? and label <> '' and free > waiting "
            "and seen > {now} - ? order by free - waiting desc, name limit 1", (name, within_s)).fetchone())
        return row[0] if row else None

    def games_made(self, start_s: float, end_s: float) -> list[tuple[float, float, bool, str]]:
        rows = self._run("the games database cannot be read", lambda: self._sql(
            "select created, updated, finished, record from games where created >= ? and created < ? "
            "and record <> ? order by created", (start_s, min(end_s, 1e15), NOT_YET_PLAYED)).fetchall())
        return [(float(c), float(u), bool(f), r) for c, u, f, r in rows]

    def servers_seen(self, within_s: float) -> list[str]:
        rows = self._run("the games database cannot be read", lambda: self._sql(
            "select name from servers where seen > {now} - ? order by name", (within_s,)).fetchall())
        return [row[0] for row in rows]

    def forget_server(self, name: str) -> None:
        self._run("the server could not be forgotten", lambda: self._sql(
            "delete from servers where name = ?", (name,)))

    def prune(self, keep_s: float, dry_run: bool = False) -> tuple[int, int]:
        """The finished games last saved more than ``keep_s`` ago, and the unfinished ones left alone that long
        (no server's lease on them), removed (or only counted, ``dry_run``): how many of each."""
        stale = ("updated < {now} - ? and (finished = 1 or owner is null or lease_until < {now})")

        def body() -> tuple[int, int]:
            with self._transaction():
                counts = self._sql(f"select finished, count(*) from games where {stale} group by finished",
                                   (keep_s,)).fetchall()
                if not dry_run:
                    self._sql(f"delete from games where {stale}", (keep_s,))
            found = {int(finished): int(n) for finished, n in counts}
            return found.get(1, 0), found.get(0, 0)

        return self._run("the games could not be pruned", body)

    def problem(self) -> str | None:
        """Why the games cannot be read, or None: one row looked at, whatever the table holds (health asks at
        every check and every new game; counting a year's games each time would grow with the museum's)."""
        try:
            self._run("the games database cannot be read", lambda: self._sql("select 1 from games limit 1").fetchone())
        except StoreError as failure:
            return str(failure)
        return None

    def close(self) -> None:
        with self._lock:
            self._forget()


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
