"""``python -m python_bridge online``: the PDP-1 online, many visitors at once, each with a PDP-1 of its own
(argument parsing only; the server is ``online.server``).

The settings come from ``--config FILE``'s ``[online]`` section (and its ``[game]`` and ``[choices]``),
then the options given here, which win.  Every value is bounded: a bad one is one line and exit 2.
``online prune``, ``backup``, ``restore`` and ``stats`` look after the database instead (``commands.online_upkeep``).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
from pathlib import Path

from ..exhibit.settings import ConfigError
from ..machine.simh import SimhError
from ..online.browser_records import folder_problem
from ..online.server import run  # aiohttp, the kiosk's extra: without it __main__ says so in one line
from ..online.settings import (
    DATABASE_VARIABLE,
    EDITIONS,
    GAMES_PER_CORE,
    PACES,
    RANGES,
    checked,
    checked_database,
    load_settings,
)
from ..online.store import StoreError
from .validators import EXIT_FAILURE, UsageError, bounded_int, fail, folder_name, new_parser, readable_file, run_guarded

PORT = bounded_int(*(int(n) for n in RANGES["port"]))
MAX_GAMES = bounded_int(*(int(n) for n in RANGES["max_games"]))


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge online",
                        "Serve the PDP-1 online: each visitor's game on an emulated PDP-1 of its own.")
    parser.add_argument("--config", type=readable_file, metavar="FILE", help="settings (TOML: [online], [game])")
    parser.add_argument("--host", help="the address to listen on (default 127.0.0.1; TLS is the proxy's)")
    parser.add_argument("--port", type=PORT, help="the port (default 8361)")
    parser.add_argument("--state-dir", type=folder_name, metavar="DIR",
                        help="where the games are kept (default records/online; made if missing, checked first)")
    parser.add_argument("--pace", choices=PACES, help="1960: the PDP-1 at 1960 speed (the default); fast")
    parser.add_argument("--edition", choices=EDITIONS,
                        help="server: a PDP-1 of ours for each visitor (the default); browser: the visitors' browsers "
                             "run it, and send each finished game's record (POST /records), checked and kept")
    parser.add_argument("--max-games", type=MAX_GAMES, help=f"machines at once (default: {GAMES_PER_CORE} a core)")
    parser.add_argument("--database", metavar="URL", type=database_url,
                        help=f"postgresql://user@host:port/name: the games in PostgreSQL (or ${DATABASE_VARIABLE}; "
                             "default: SQLite under the state folder)")
    parser.add_argument("--label", type=label,
                        help="this server's name in the load balancer (its server line, such as s8371): past one "
                             "host, pages waiting elsewhere are sent to it by this name")
    return parser


def database_url(text: str) -> str:
    """An argparse ``type``: a PostgreSQL URL (the option is left out for SQLite, the default)."""
    try:
        return checked_database(text) if text else checked_database(None)
    except ConfigError as bad:
        raise argparse.ArgumentTypeError(str(bad).replace('"" (SQLite under state_dir) or ', "")) from None


def label(text: str) -> str:
    """An argparse ``type``: the server's name in the load balancer (left out: none)."""
    try:
        return checked("label", text) if text else checked("label", None)
    except ConfigError as bad:
        raise argparse.ArgumentTypeError(str(bad)) from None


def ready_state_dir(path: Path) -> None:
    """Made if missing and written to before the server starts (UsageError, one line, when it cannot be)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise UsageError(f"--state-dir: cannot keep games in {str(path)[:160]!r}: {exc.strerror or exc}") from None


UPKEEP = ("prune", "backup", "restore", "stats")  # ``online prune ...``: the database looked after, no server started


def main(argv: list[str]) -> int:
    if argv[:1] and argv[0] in UPKEEP:
        from .online_upkeep import main as upkeep

        return upkeep(argv)
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config)
        # the database: the option, else the environment (a password kept out of files), else the file's
        database = args.database if args.database is not None else os.environ.get(DATABASE_VARIABLE)
        given = {"host": args.host, "port": args.port, "pace": args.pace, "edition": args.edition,
                 "max_games": args.max_games, "database": database, "label": args.label}
        changes = {key: checked(key, value) for key, value in given.items() if value is not None}
        if args.state_dir is not None:
            changes["state_dir"] = Path(args.state_dir)  # type: ignore[assignment]
        settings = dataclasses.replace(settings, **changes)  # type: ignore[arg-type]
    except ConfigError as bad:
        return fail(f"{args.config or 'online'}: {bad}")
    if settings.edition == "browser" and (problem := folder_problem()) is not None:
        return fail(f"online: the browser edition: {problem}")

    def body() -> int:
        ready_state_dir(settings.state_dir)
        try:
            return run(settings)
        except OSError as exc:
            return fail(f"cannot serve on {settings.host}:{settings.port}: {exc.strerror or exc}", EXIT_FAILURE)
        except SimhError as exc:
            return fail(str(exc).splitlines()[0], EXIT_FAILURE)
        except StoreError as exc:  # the database unreachable, or refusing its schema, at start
            return fail(str(exc).splitlines()[0])

    return run_guarded(body, (UsageError,), needs_tape=True)
