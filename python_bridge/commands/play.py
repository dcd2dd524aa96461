"""``python -m python_bridge play``: you against the PDP-1 at the terminal (argument parsing only; the game
is in play.terminal)."""

from __future__ import annotations

import argparse
import sys

from ..demo.run import run_show
from ..machine.cycles import CYCLES_PER_SECOND
from ..machine.front_panel import PanelSettings
from ..machine.simh import TYPEWRITER_CHARACTERS_PER_SECOND
from ..play.terminal import RECORDS, play_at_terminal
from .validators import (
    UsageError,
    add_board_options,
    add_brief,
    add_first,
    add_records,
    add_variant_flags,
    new_parser,
    ready_folder,
    run_guarded,
    variants_from,
)


def _authentic(args: argparse.Namespace) -> int:
    """1960 speed.  SIMH 3.8.1's throttle cannot give it for this program (it calibrates at full
    speed after every start and lets the typewriter's waits pass in no host time), so the paced
    show of the demonstration plays instead, as a game of play: the machine stepped at 200,000
    memory cycles a second, the typewriter at its 10 characters a second, the visitor at the
    keyboard, every move cross-checked, the record saved as play saves it."""
    panel = PanelSettings(pits=args.pits, seeds=args.seeds, depth=args.level, variants=variants_from(args),
                          pdp1_first=args.first == "pdp-1", brief=args.brief)
    return run_guarded(lambda: run_show(panel, None, fast=False, visitor=True, folder=ready_folder(args.records),
                                        out=sys.stdout, as_play=True), (UsageError,), needs_tape=True)


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge play", "Play Kalah against the emulated PDP-1.")
    add_board_options(parser, pits=6, seeds=4, level=0,
                      level_help="plies the PDP-1 searches; 0: the default level, within 10 s of 1960 thinking")
    add_first(parser, "visitor", "visitor (you, the default) or pdp-1")
    parser.add_argument("--authentic", action="store_true",
                        help=f"1960 speed: {CYCLES_PER_SECOND:,} memory cycles a second, the typewriter at "
                             f"{TYPEWRITER_CHARACTERS_PER_SECOND} characters a second "
                             "(the demonstration's paced show, with you at the typewriter)")
    add_brief(parser)
    add_records(parser, RECORDS, "game records")
    add_variant_flags(parser)
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.authentic:
        return _authentic(args)
    panel = PanelSettings(pits=args.pits, seeds=args.seeds, depth=args.level, variants=variants_from(args),
                          pdp1_first=args.first == "pdp-1", brief=args.brief)
    return run_guarded(lambda: play_at_terminal(panel, ready_folder(args.records)), (UsageError,), needs_tape=True)
