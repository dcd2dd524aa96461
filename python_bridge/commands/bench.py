"""``python -m python_bridge bench``: the PDP-1's figures (argument parsing only; the measuring is in
bench.figures)."""

from __future__ import annotations

import argparse

from ..bench.figures import report
from .validators import UsageError, add_seed, bounded_int, new_parser, run_guarded

# A default bench takes a few minutes; the upper bounds keep a typing slip from taking days.
POSITIONS = bounded_int(1, 1000)
LEVEL_POSITIONS = bounded_int(1, 10_000)
FUZZ_CASES = bounded_int(1, 100_000)


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench", "Measure the PDP-1 program and the bridge.")
    parser.add_argument("--positions", type=POSITIONS, default=60,
                        help="positions searched for the instructions a position (default 60)")
    parser.add_argument("--level-positions", type=LEVEL_POSITIONS, default=200,
                        help="positions of 6-pit, 4-seed games timed at the default level (default 200)")
    parser.add_argument("--fuzz-cases", type=FUZZ_CASES, default=3000, help="diagnostic fuzz cases (default 3000)")
    add_seed(parser, 1960, "the seed that picks the positions and games")
    parser.add_argument("--core", action="store_true", help="only the core the program uses (measures nothing)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    return run_guarded(lambda: report(args.positions, args.level_positions, args.fuzz_cases, args.seed, args.core),
                       (UsageError,),
                       needs_tape=True)
