"""``python -m python_bridge demo``: the historical demonstration (argument parsing only; the show is in demo/)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..demo.captions import DEFAULT_SCRIPT, CaptionScript, ScriptError
from ..demo.run import DEFAULT_LEVEL, DEFAULT_PITS, DEFAULT_SEEDS, RECORDS, run_show
from ..machine.front_panel import PanelSettings
from .validators import (
    UsageError,
    add_board_options,
    add_brief,
    add_first,
    add_records,
    add_variant_flags,
    given_options,
    new_parser,
    readable_file,
    ready_folder,
    refuse_with,
    run_guarded,
    variants_from,
)


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge demo",
                        "The historical demonstration: Kalah on the PDP-1, as shown to an audience.")
    parser.add_argument("--fast", action="store_true", help="the same show at full speed (no 1960 pacing)")
    parser.add_argument("--proof", action="store_true",
                        help="the proof segment: the PDP-1 proves the first player wins Kalah(6,1) and (6,2)")
    parser.add_argument("--visitor", action="store_true", help="a person at the terminal plays one side")
    add_first(parser, None, "with --visitor, visitor (default) or pdp-1")
    add_board_options(parser, pits=DEFAULT_PITS, seeds=DEFAULT_SEEDS, level=DEFAULT_LEVEL)
    parser.add_argument("--script", type=readable_file, default=DEFAULT_SCRIPT, metavar="FILE",
                        help="the presenter's caption script (python_bridge/demo/script.txt)")
    parser.add_argument("--no-captions", action="store_true", help="no captions between the lines")
    add_brief(parser)
    add_records(parser, RECORDS, "the transcript, paper picture and record")
    add_variant_flags(parser)
    return parser


# What the proof segment does not use: it proves Kalah(6,1) and Kalah(6,2) under the rules given, shows
# its own story, and saves no file.
NOT_IN_THE_PROOF = ("--visitor", "--first", "--pits", "--seeds", "--level", "--script", "--no-captions",
                    "--records", "--pie-rule", "--brief")


def main(argv: list[str], out: TextIO | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    given = given_options(parser, argv)
    out = out or sys.stdout
    if args.proof:
        refuse_with(parser, given, NOT_IN_THE_PROOF,
                    "--proof is a show of its own (Kalah(6,1) and (6,2), its own story, no files saved)")
    elif args.first is not None and not args.visitor:
        parser.error("--first needs --visitor (without it the PDP-1 plays both sides)")
    elif args.no_captions:
        refuse_with(parser, given, ("--script",), "--no-captions shows no captions")

    def body() -> int:
        if args.proof:
            from ..demo.proof_show import run_proof_show

            return run_proof_show(out, fast=args.fast, variants=variants_from(args))
        captions = None if args.no_captions else CaptionScript.load(args.script)
        panel = PanelSettings(pits=args.pits, seeds=args.seeds, depth=args.level, variants=variants_from(args),
                              pdp1_first=args.visitor and args.first == "pdp-1", demo=not args.visitor,
                              brief=args.brief)
        return run_show(panel, captions, fast=args.fast, visitor=args.visitor, folder=ready_folder(args.records),
                        out=out)

    return run_guarded(body, (UsageError, ScriptError), needs_tape=True)
