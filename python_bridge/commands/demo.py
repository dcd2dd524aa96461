"""``python -m python_bridge demo``: the historical demonstration (argument parsing only; the show is in demo/)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..demo.captions import DEFAULT_SCRIPT, CaptionScript, ScriptError
from ..demo.run import DEFAULT_LEVEL, DEFAULT_PITS, DEFAULT_SEEDS, RECORDS, run_show
from ..machine.front_panel import PanelSettings
from .validators import UsageError, add_variant_flags, build_parser, run_guarded, variants_from


def main(argv: list[str], out: TextIO | None = None) -> int:
    parser = build_parser("python -m python_bridge demo",
                          "The historical demonstration: Kalah on the PDP-1, as shown to an audience.")
    parser.add_argument("--fast", action="store_true", help="the same show at full speed (no 1960 pacing)")
    parser.add_argument("--proof", action="store_true",
                        help="the proof segment: the PDP-1 proves the first player wins Kalah(6,1) and (6,2)")
    parser.add_argument("--visitor", action="store_true", help="a person at the terminal plays one side")
    parser.add_argument("--first", choices=("visitor", "pdp-1"), default=None,
                        help="with --visitor: who moves first (the visitor)")
    parser.add_argument("--pits", type=int, default=DEFAULT_PITS, choices=range(1, 7), metavar="1-6",
                        help=f"pits a side ({DEFAULT_PITS})")
    parser.add_argument("--seeds", type=int, default=DEFAULT_SEEDS, choices=range(1, 7), metavar="1-6",
                        help=f"seeds a pit ({DEFAULT_SEEDS})")
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL, choices=range(0, 21), metavar="0-20",
                        help=f"plies the PDP-1 searches ({DEFAULT_LEVEL}); 0: its default level")
    parser.add_argument("--script", type=Path, default=DEFAULT_SCRIPT,
                        help="the presenter's caption script (python_bridge/demo/script.txt)")
    parser.add_argument("--no-captions", action="store_true", help="no captions between the lines")
    parser.add_argument("--out", type=Path, default=RECORDS, help="where the transcript, picture and record go (records/)")
    add_variant_flags(parser)
    args = parser.parse_args(argv)
    out = out or sys.stdout

    def body() -> int:
        if args.proof:
            if args.visitor or args.first is not None or args.pie_rule:
                raise UsageError("--proof is a show of its own: no --visitor, --first or --pie-rule")
            from ..demo.proof_show import run_proof_show

            return run_proof_show(out, fast=args.fast, variants=variants_from(args))
        if args.first is not None and not args.visitor:
            raise UsageError("--first needs --visitor (without it the PDP-1 plays both sides)")
        captions = None if args.no_captions else CaptionScript.load(args.script)
        panel = PanelSettings(pits=args.pits, seeds=args.seeds, depth=args.level, variants=variants_from(args),
                              pdp1_first=args.visitor and args.first == "pdp-1", demo=not args.visitor)
        return run_show(panel, captions, fast=args.fast, visitor=args.visitor, folder=args.out, out=out)

    return run_guarded(body, (UsageError, ScriptError))
