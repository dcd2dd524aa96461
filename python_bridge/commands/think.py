"""``python -m python_bridge think "<position>" [--depth D] [variants]``: one PDP-1 search, measured.

Prints one line (scripts depend on it)::

    best <pit> value <v> nodes <k> depth <d> instructions <i> cycles <c> seconds <s>

The search runs in SIMH, the PDP-1 program's own: the diagnostic ``b D``
with ``--depth``, else the default level exactly as play mode thinks.
``nodes`` and ``depth`` are the reference engine's for the same search;
``instructions`` and ``cycles`` cover the search from its start to its end;
``seconds`` is cycles x 5 us.  Argument parsing only: the measuring is
``checking.thinking``.  Bad input: one line, exit 2.
"""

from __future__ import annotations

import argparse

from ..checking.thinking import INSTRUCTIONS_PER_POSITION, ThinkMismatch, measure_once
from ..machine.cycles import COUNTED_PER_SECOND
from ..reference.estimates import estimate_search
from ..reference.notation import NotationError, parse_position
from ..reference.rules import RulesError, Variants
from ..reference.search import MAX_DEPTH, MIN_DEPTH, SearchError
from .progress import CountTicker, announce
from .ref import WATCHED_FROM_DEPTH
from .validators import DEPTH, EXIT_FAILURE, EXIT_OK, UsageError, new_parser, run_guarded

INPUT_ERRORS = (NotationError, RulesError, SearchError, UsageError)


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge think",
                          "Measure one search of the PDP-1 program in SIMH: instructions, memory cycles, 1960 seconds.")
    parser.add_argument("position",
                        help='2m+2 counts in sowing order, then s or n, e.g. "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"')
    parser.add_argument("--depth", type=DEPTH, help=f"search {MIN_DEPTH}-{MAX_DEPTH} plies (the b command); "
                        "without it the default level, as play mode thinks")
    parser.add_argument("--empty-capture", action="store_true",
                        help="capture into the store even opposite an empty pit")
    parser.add_argument("--deferred-end", action="store_true", help="end only when the player to move has no seeds")
    parser.add_argument("--remainder-void", action="store_true", help="seeds left at the end go to nobody")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def run() -> int:
        position = parse_position(args.position)
        variants = Variants(args.empty_capture, args.deferred_end, args.remainder_void)
        tickers = {}
        if args.depth is not None and args.depth >= WATCHED_FROM_DEPTH:
            estimate = estimate_search(position, args.depth, variants)
            pdp1_seconds = estimate.nodes * INSTRUCTIONS_PER_POSITION / COUNTED_PER_SECOND
            announce(f"the depth-{args.depth} search, about {estimate.nodes:,} positions searched by the reference "
                     f"and then by the PDP-1 with every cycle counted,", estimate.seconds + pdp1_seconds,
                     f"{estimate.basis()}; the PDP-1 at about {INSTRUCTIONS_PER_POSITION} instructions a position, "
                     f"{COUNTED_PER_SECOND:,} counted a second")
            tickers = {who: CountTicker(f"{who} positions", estimate.nodes) for who in ("reference", "pdp-1")}
        try:
            measured = measure_once(position, variants, args.depth,
                                    (lambda who, n: tickers[who](n)) if tickers else None)
        except ThinkMismatch as exc:
            print(f"mismatch: {exc}")
            return EXIT_FAILURE
        finally:
            for ticker in tickers.values():
                ticker.done()
        print(measured.line())
        return EXIT_OK

    return run_guarded(run, INPUT_ERRORS)
