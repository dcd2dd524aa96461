"""``python -m python_bridge replay FILE``: a saved game shown again move by move, checked against the reference
(argument parsing only; the record is read by ``driver.game_records`` and shown by ``play.replay``).

FILE is a record ``play``, the demonstration, the kiosk or the online exhibit saved
(``records/kalah-...-game1.txt``, ``records/demo-...-record.txt``).  Exit 0 when every move is
legal and the record whole; 2 (bad input, as everywhere) when FILE cannot be read, is not a record,
has a move that breaks the rules, or is missing moves it claims (one line naming it, after the moves
before it).
"""

from __future__ import annotations

import argparse
import sys

from tools.user_files import UserFileError, read_user_text

from ..driver.game_records import RecordError, read_game_record
from ..play.replay import show_replay
from .validators import EXIT_OK, EXIT_USAGE, UsageError, bounded_float, fail, new_parser, readable_file, run_guarded

MAX_RECORD_BYTES = 4 * 1024 * 1024  # a record with its whole transcript is a few kilobytes


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge replay",
                        "Show a saved game record again, move by move with the boards, checked against the reference.")
    parser.add_argument("record", type=readable_file, metavar="FILE",
                        help="a record play or the demo saved "
                             "(records/kalah-...-game1.txt, records/demo-...-record.txt)")
    pacing = parser.add_mutually_exclusive_group()
    pacing.add_argument("--step", action="store_true", help="wait for Enter before each move")
    pacing.add_argument("--pause", type=bounded_float(0, 60, "s"), default=0.0,
                        help="seconds between moves (default 0)")
    return parser


def _enter() -> None:
    """``--step``: wait for Enter; at the end of input, go on without waiting."""
    sys.stdout.write("[Enter: the next move] ")
    sys.stdout.flush()
    sys.stdin.readline()


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        try:
            saved = read_game_record(read_user_text(args.record, MAX_RECORD_BYTES, "record"))
        except (UserFileError, RecordError) as unreadable:
            raise UsageError(f"{args.record}: {unreadable}") from None
        try:
            show_replay(saved, sys.stdout, wait=_enter if args.step else None, pause=args.pause)
        except RecordError as illegal:
            sys.stdout.flush()
            return fail(f"{args.record}: {illegal}", EXIT_USAGE)
        return EXIT_OK

    return run_guarded(body, (UsageError,))
