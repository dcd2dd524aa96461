"""Backups of the online games that restore them: taken while games are played, restored only while no
server uses the database.

Why each database's own way: SQLite's online backup copies a consistent database while the server writes
(a page at a time, its WAL included), and PostgreSQL's ``pg_dump`` is the SQL dump every PostgreSQL operator
knows and restores with ``psql``.  A backup is written beside its name and renamed into place, so a failed
backup never leaves half a file under the name.  A restore is refused while a server has said in the last
``SERVER_SEEN_S`` seconds that it uses the database (each says so every second): a server would go on
writing the games the restore replaces.  A restored database of an older schema is upgraded as a server
starting on it would do.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from .database import SQLITE_NAME, open_store
from .settings import OnlineSettings
from .store import StoreError
from .store_sql import SCHEMA_VERSION

SERVER_SEEN_S = 5.0
DUMP_HEADER = "-- PostgreSQL database dump"
SQLITE_HEADER = b"SQLite format 3\x00"
TOOL_TIMEOUT_S = 600  # a dump or a restore of a large database


class BackupError(Exception):
    """The backup or the restore cannot be made: one line saying why."""


def _tool(name: str) -> str:
    """``pg_dump`` or ``psql``, as Debian's PostgreSQL client installs them."""
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is missing: install Debian's postgresql-client (make setup MODE=cluster)")
    return found


def backup(settings: OnlineSettings, target: Path) -> str:
    """The games' database, as it is now, into ``target`` (a SQLite file, or a PostgreSQL SQL dump); one line."""
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise BackupError(f"cannot write the backup in {str(folder)[:160]!r}: not a folder this user may write")
    partial = target.with_name(target.name + ".partial")
    try:
        if settings.database:
            _dump(settings.database, partial)
        else:
            _copy_sqlite(settings.state_dir / SQLITE_NAME, partial)
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    kind = "SQL dump" if settings.database else "SQLite backup"
    return f"backed up: {target} ({kind}, {target.stat().st_size:,} bytes)"


def _copy_sqlite(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"no games database at {str(source)[:160]!r} (--state-dir, or --database)")
    try:
        with sqlite3.connect(source) as live, sqlite3.connect(target) as copy:
            live.backup(copy)  # SQLite's online backup: consistent while the server writes
    except sqlite3.Error as exc:
        raise BackupError(f"the SQLite backup failed: {exc}") from None


def _dump(url: str, target: Path) -> None:
    done = subprocess.run([_tool("pg_dump"), f"--dbname={url}", "--clean", "--if-exists", "--no-owner",
                           "--no-privileges", f"--file={target}"], capture_output=True, text=True,
                          timeout=TOOL_TIMEOUT_S, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise BackupError(f"pg_dump failed: {_first_line(done.stderr)}")


def restore(settings: OnlineSettings, source: Path) -> str:
    """The games' database replaced by the backup ``source``, unless a server uses it; one line."""
    head = _head(source)
    if settings.database and DUMP_HEADER.encode() not in head:
        raise BackupError(f"{source} is not a PostgreSQL dump made by online backup"
                          + (" (it is a SQLite backup: restore it without --database)"
                             if head.startswith(SQLITE_HEADER) else ""))
    if not settings.database and not head.startswith(SQLITE_HEADER):
        raise BackupError(f"{source} is not a SQLite backup made by online backup"
                          + (" (it is a PostgreSQL dump: restore it with --database)"
                             if DUMP_HEADER.encode() in head else ""))
    _refuse_while_used(settings)
    if settings.database:
        done = subprocess.run([_tool("psql"), f"--dbname={settings.database}", "--quiet", "--single-transaction",
                               "-v", "ON_ERROR_STOP=1", f"--file={source}"], capture_output=True, text=True,
                              timeout=TOOL_TIMEOUT_S, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise BackupError(f"psql could not restore {source}: {_first_line(done.stderr)}")
    else:
        _restore_sqlite(source, settings.state_dir / SQLITE_NAME)
    store = open_store(settings.database, settings.state_dir)  # made current, as a starting server would
    try:
        return f"restored: {source} into {store.where} (schema version {store.schema_version()})"
    finally:
        store.close()


def _restore_sqlite(source: Path, target: Path) -> None:
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as backup_db:
            version = backup_db.execute("select version from kalah_schema").fetchone()
            if version is None or version[0] > SCHEMA_VERSION:
                raise BackupError(f"{source} holds schema version {version and version[0]}, not one this "
                                  f"server reads (up to {SCHEMA_VERSION})")
            target.parent.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(target) as live:
                backup_db.backup(live)
    except sqlite3.Error as exc:
        raise BackupError(f"{source} could not be restored: {exc}") from None


def _refuse_while_used(settings: OnlineSettings) -> None:
    if not settings.database and not (settings.state_dir / SQLITE_NAME).exists():
        return  # a new database: nobody uses it
    try:
        store = open_store(settings.database, settings.state_dir)
    except StoreError as failure:
        raise BackupError(str(failure)) from None
    try:
        using = store.servers_seen(SERVER_SEEN_S)
    finally:
        store.close()
    if using:
        them = "them" if len(using) > 1 else "it"
        raise BackupError(f"refused: {len(using)} server{'s' * (len(using) != 1)} use{'s' * (len(using) == 1)} "
                          f"the games database now ({', '.join(using)[:200]}): stop {them} first")


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as file:
            return file.read(64)
    except OSError as exc:
        raise BackupError(f"cannot read {str(path)[:160]!r}: {exc.strerror or exc}") from None


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0][:300] if lines else "(no message)"
