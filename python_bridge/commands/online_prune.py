"""``python -m python_bridge online prune``: the games past ``keep_days`` removed from the online exhibit's
database, or only counted (``--dry-run``) -- argument parsing only; the pruning is ``online.upkeep``.

The database is the server's: ``--config FILE``'s ``[online]``, then ``--state-dir`` and ``--database`` (or
``KALAH_DATABASE_URL``), as ``online`` reads them.  Every value is bounded: a bad one is one line and exit 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from ..exhibit.settings import ConfigError
from ..online.database import SQLITE_NAME, open_store
from ..online.settings import DATABASE_VARIABLE, RANGES, checked, load_settings
from ..online.store import StoreError
from ..online.upkeep import prune_games
from .validators import EXIT_FAILURE, EXIT_OK, bounded_int, fail, folder_name, new_parser, readable_file

KEEP_DAYS = bounded_int(*(int(n) for n in RANGES["keep_days"]))


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge online prune",
                        "Remove the online games kept longer than keep_days (finished ones since they ended, "
                        "unfinished ones left alone as long).")
    parser.add_argument("--config", type=readable_file, metavar="FILE", help="the server's settings (TOML)")
    parser.add_argument("--state-dir", type=folder_name, metavar="DIR", help="SQLite's folder (default records/online)")
    parser.add_argument("--database", metavar="URL", help=f"postgresql://... (or ${DATABASE_VARIABLE})")
    parser.add_argument("--keep-days", type=KEEP_DAYS, help="days to keep (default: the settings', 365)")
    parser.add_argument("--dry-run", action="store_true", help="only count what would be removed")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config)
        database = args.database if args.database is not None else os.environ.get(DATABASE_VARIABLE)
        changes: dict[str, object] = {key: checked(key, value) for key, value in
                                      {"database": database, "keep_days": args.keep_days}.items() if value is not None}
        if args.state_dir is not None:
            changes["state_dir"] = Path(args.state_dir)
        settings = dataclasses.replace(settings, **changes)  # type: ignore[arg-type]
    except ConfigError as bad:
        return fail(f"{args.config or 'online prune'}: {bad}")
    if not settings.database and not (settings.state_dir / SQLITE_NAME).is_file():
        return fail(f"no games database in {str(settings.state_dir)[:160]!r} (--state-dir, or --database)")
    try:
        store = open_store(settings.database, settings.state_dir)
        try:
            print(prune_games(store, settings.keep_days, args.dry_run))
        finally:
            store.close()
    except StoreError as failure:
        return fail(str(failure).splitlines()[0], EXIT_FAILURE)
    return EXIT_OK
