"""``python -m python_bridge online prune|backup|restore|stats``: the online exhibit's database looked after,
no server started -- argument parsing only; the work is ``online.upkeep``, ``online.backup`` and
``online.stats``.

The database is the server's: ``--config FILE``'s ``[online]``, then ``--state-dir`` and ``--database`` (or
``KALAH_DATABASE_URL``), as ``online`` reads them.  Every value is bounded: a bad one is one line and exit 2;
a database or a tool that fails is one line and exit 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
from pathlib import Path

from ..exhibit.settings import ConfigError
from ..online.backup import BackupError, backup, restore
from ..online.database import SQLITE_NAME, open_store
from ..online.settings import DATABASE_VARIABLE, RANGES, OnlineSettings, checked, load_settings
from ..online.stats import chart, played, report, rows_between
from ..online.store import StoreError
from ..online.upkeep import prune_games
from .validators import EXIT_FAILURE, EXIT_OK, bounded_int, fail, folder_name, new_parser, readable_file

KEEP_DAYS = bounded_int(*(int(n) for n in RANGES["keep_days"]))
WORDS = ("prune", "backup", "restore", "stats")
FIRST_DAY, LAST_DAY = dt.date(2000, 1, 1), dt.date(2199, 12, 31)


def day(text: str) -> dt.date:
    """An argparse ``type``: a day, YYYY-MM-DD, from 2000 to 2199."""
    try:
        value = dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a day as YYYY-MM-DD") from None
    if not FIRST_DAY <= value <= LAST_DAY:
        raise argparse.ArgumentTypeError(f"{value} is out of range ({FIRST_DAY} to {LAST_DAY})")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge online", "Look after the online exhibit's games database.")
    jobs = parser.add_subparsers(dest="job", required=True, metavar="{" + ",".join(WORDS) + "}")
    prune = _job(jobs, "prune", "remove the games kept longer than keep_days (finished ones since they ended, "
                                "unfinished ones left alone as long)")
    prune.add_argument("--keep-days", type=KEEP_DAYS, help="days to keep (default: the settings', 365)")
    prune.add_argument("--dry-run", action="store_true", help="only count what would be removed")
    _job(jobs, "backup", "copy the database as it is now, while games are played (SQLite's online backup, or "
                         "PostgreSQL's pg_dump)").add_argument("file", type=Path, metavar="FILE")
    _job(jobs, "restore", "replace the database by a backup (refused while a server uses it)").add_argument(
        "file", type=readable_file, metavar="FILE")
    stats = _job(jobs, "stats", "the games played: by day and week, language, board, strength and result, "
                                "and the median game")
    stats.add_argument("--since", type=day, metavar="YYYY-MM-DD", help="from this day (UTC; default: the first)")
    stats.add_argument("--until", type=day, metavar="YYYY-MM-DD", help="to this day, included (default: today)")
    stats.add_argument("--svg", type=Path, metavar="FILE", help="also draw games a day, by result, as an SVG chart")
    return parser


def _job(jobs, name: str, summary: str) -> argparse.ArgumentParser:
    job = jobs.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")
    job.add_argument("--config", type=readable_file, metavar="FILE", help="the server's settings (TOML)")
    job.add_argument("--state-dir", type=folder_name, metavar="DIR", help="SQLite's folder (default records/online)")
    job.add_argument("--database", metavar="URL", help=f"postgresql://... (or ${DATABASE_VARIABLE})")
    return job


def _settings(args: argparse.Namespace) -> OnlineSettings:
    """The server's settings as ``online`` would read them, with this command's options (ConfigError)."""
    settings = load_settings(args.config)
    database = args.database if args.database is not None else os.environ.get(DATABASE_VARIABLE)
    given = {"database": database, "keep_days": getattr(args, "keep_days", None)}
    changes: dict[str, object] = {key: checked(key, value) for key, value in given.items() if value is not None}
    if args.state_dir is not None:
        changes["state_dir"] = Path(args.state_dir)
    return dataclasses.replace(settings, **changes)  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = _settings(args)
    except ConfigError as bad:
        return fail(f"{args.config or 'online ' + args.job}: {bad}")
    if args.job == "stats" and (problem := _stats_problem(args)):
        return fail(problem)
    sqlite_missing = not settings.database and not (settings.state_dir / SQLITE_NAME).is_file()
    if args.job != "restore" and sqlite_missing:
        return fail(f"no games database in {str(settings.state_dir)[:160]!r} (--state-dir, or --database)")
    try:
        if args.job == "prune":
            store = open_store(settings.database, settings.state_dir)
            try:
                print(prune_games(store, settings.keep_days, args.dry_run))
            finally:
                store.close()
        elif args.job == "backup":
            print(backup(settings, args.file))
        elif args.job == "stats":
            _stats(settings, args)
        else:
            print(restore(settings, args.file))
    except (StoreError, BackupError) as failure:
        return fail(str(failure).splitlines()[0], EXIT_FAILURE)
    return EXIT_OK


def _stats_problem(args: argparse.Namespace) -> str | None:
    """Why the stats cannot be made as asked (checked before the database is read)."""
    if args.since and args.until and args.since > args.until:
        return f"--since {args.since} is after --until {args.until}"
    if args.svg is not None:
        folder = args.svg.parent if str(args.svg.parent) else Path(".")
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            return f"--svg: cannot write in {str(folder)[:160]!r}: not a folder this user may write"
    return None


def _stats(settings: OnlineSettings, args: argparse.Namespace) -> None:
    store = open_store(settings.database, settings.state_dir)
    try:
        games = played(rows_between(store, args.since, args.until))
    finally:
        store.close()
    print(report(games, args.since, args.until), end="")
    if args.svg is not None:
        args.svg.write_text(chart(games, args.since, args.until), encoding="utf-8")
        print(f"chart: {args.svg}")
