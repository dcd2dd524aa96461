"""``python -m python_bridge soak``: attract games on an unattended kiosk, hurt on purpose (argument parsing
only; the soak is in kiosk.soak).  Every option has a range: anything else is one line and exit 2."""

from __future__ import annotations

import argparse

from ..kiosk.soak import SoakPlan, run_soak
from .validators import add_board_options, bounded_int, duration, new_parser

MAX_GAMES = 1_000_000
MAX_SECONDS = 30 * 86400.0
GAMES = bounded_int(1, MAX_GAMES)
EVERY = bounded_int(0, MAX_GAMES)


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge soak",
                          "Attract-mode games on an unattended kiosk, its pdp1 and its server killed on purpose; "
                          "growth or loss is a failure.")
    parser.add_argument("--games", type=GAMES, default=None,
                        help="stop after this many attract-mode games (20 when no --duration is given)")
    parser.add_argument("--duration", type=duration(10, MAX_SECONDS), default=None,
                        help="stop after this long: seconds, or 30m, 2h, 1d (with --games: whichever comes first)")
    parser.add_argument("--kill-every", type=EVERY, default=5,
                        help="kill the pdp1 every this many games (5; 0: never)")
    parser.add_argument("--restart-every", type=EVERY, default=0,
                        help="kill the server (SIGKILL) and start it again every this many games (0: never)")
    add_board_options(parser, pits=6, seeds=4, level=0)
    parser.add_argument("--timeout", type=duration(10, MAX_SECONDS), default=None,
                        help="fail if the games are not played by then (default: the duration, or 3600 s + "
                             "10 s a game)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    games = args.games if args.games is not None or args.duration is not None else 20
    timeout = args.timeout or (args.duration + 60 if args.duration else 3600 + 10 * (games or 0))
    if args.duration is not None and args.timeout is not None and args.timeout < args.duration:
        parser.error("argument --timeout: must not be shorter than --duration")
    return run_soak(SoakPlan(games=games, duration=args.duration, kill_every=args.kill_every,
                             restart_every=args.restart_every, pits=args.pits, seeds=args.seeds, level=args.level,
                             timeout=timeout))
