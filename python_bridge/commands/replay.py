"""``python -m python_bridge replay FILE``: a saved game shown again move by move, checked against the reference,
then played again on Debian's pdp1 (argument parsing only; the record is read by ``driver.game_records``, shown
by ``play.replay`` and played again by ``play.replay_on_pdp1``).

FILE is a record ``play``, the demonstration, the kiosk, the online exhibit or the browser edition saved
(``records/kalah-...-game1.txt``, ``records/demo-...-record.txt``).  Exit 0 when every move is legal, the record
whole and, on the PDP-1, every move the PDP-1 makes the one recorded; 2 (bad input, as everywhere) when FILE
cannot be read, is not a record, has a move that breaks the rules, is missing moves it claims, or has a PDP-1
move the PDP-1 does not make (one line naming it, after the moves before it); 1 when the PDP-1 cannot be had
(``/usr/bin/pdp1`` missing: ``--no-pdp1`` checks by the reference alone), fails beyond restoring, or disagrees
with the reference.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.user_files import UserFileError, read_user_text

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.game_records import RecordError, read_game_record
from ..machine.simh import PDP1_BINARY, SimhError
from ..play.replay import show_replay
from ..play.replay_on_pdp1 import replay_on_pdp1
from .validators import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    bounded_float,
    fail,
    new_parser,
    readable_file,
    run_guarded,
)

MAX_RECORD_BYTES = 4 * 1024 * 1024  # a record with its whole transcript is a few kilobytes


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge replay",
                        "Show a saved game record again, move by move with the boards, checked against the "
                        "reference; then play it again on Debian's pdp1, every PDP-1 move held against the record.")
    parser.add_argument("record", type=readable_file, metavar="FILE",
                        help="a record play, the demo, the kiosk, the online exhibit or the browser edition saved "
                             "(records/kalah-...-game1.txt, records/demo-...-record.txt)")
    pacing = parser.add_mutually_exclusive_group()
    pacing.add_argument("--step", action="store_true", help="wait for Enter before each move")
    pacing.add_argument("--pause", type=bounded_float(0, 60, "s"), default=0.0,
                        help="seconds between moves (default 0)")
    parser.add_argument("--no-pdp1", action="store_true",
                        help="check by the reference alone: do not play the game again on Debian's pdp1")
    return parser


def _enter() -> None:
    """``--step``: wait for Enter; at the end of input, go on without waiting."""
    sys.stdout.write("[Enter: the next move] ")
    sys.stdout.flush()
    sys.stdin.readline()


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    on_pdp1 = not args.no_pdp1

    def body() -> int:
        if on_pdp1 and not Path(PDP1_BINARY).exists():  # said before any board, not after them all
            return fail(f"{PDP1_BINARY} is missing: run `make setup` (it installs Debian's simh package), "
                        "or replay --no-pdp1 to check the record by the reference alone", EXIT_FAILURE)
        try:
            saved = read_game_record(read_user_text(args.record, MAX_RECORD_BYTES, "record"))
        except (UserFileError, RecordError) as unreadable:
            raise UsageError(f"{args.record}: {unreadable}") from None
        try:
            show_replay(saved, sys.stdout, wait=_enter if args.step else None, pause=args.pause)
            if not on_pdp1:
                return EXIT_OK
            checked = replay_on_pdp1(saved)
        except RecordError as wrong:
            sys.stdout.flush()
            return fail(f"{args.record}: {wrong}", EXIT_USAGE)
        except CrossCheckMismatch as mismatch:
            print(f"\n{mismatch}", flush=True)  # the full report, as play and the cross-check print it
            return fail(f"{args.record}: on Debian's pdp1 the PDP-1 and the reference disagree (above)", EXIT_FAILURE)
        except SimhError as failure:
            sys.stdout.flush()
            lost = (str(failure).splitlines() or [type(failure).__name__])[0]
            return fail(f"{args.record}: the emulator failed and could not be restored: {lost}", EXIT_FAILURE)
        print(checked.line())
        return EXIT_OK

    return run_guarded(body, (UsageError,), needs_tape=on_pdp1)
