"""``python -m python_bridge bench-ref``: the reference search's speed, version 0.2.0's readable search and the fast
one side by side (argument parsing and printing only; the timing is ``bench.reference_speed``)."""

from __future__ import annotations

import argparse

from ..bench.reference_speed import DEFAULT_DEPTHS, PITS, SEEDS, Timing, cases, measure, midgame_positions
from ..reference.search import MAX_DEPTH, MIN_DEPTH
from .validators import EXIT_FAILURE, EXIT_OK, add_seed, bounded_int, new_parser

DEPTH = bounded_int(MIN_DEPTH, MAX_DEPTH)
HEADER = f"{'case':<12} {'nodes':>9} {'readable':>10} {'fast':>9} {'ratio':>7}"


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench-ref",
                        "The reference search's speed: version 0.2.0's readable search against the fast one, on "
                        "seeded midgame positions, at the default level and fixed depths.")
    parser.add_argument("--positions", type=bounded_int(1, 500), default=20,
                        help=f"midgame positions of {PITS} pits and {SEEDS} seeds searched (default 20)")
    add_seed(parser, 1960, "the seed of their games")
    parser.add_argument("--depth", type=DEPTH, action="append",
                        help=f"a fixed depth timed after the default level, {MIN_DEPTH}-{MAX_DEPTH} (repeatable; "
                             f"default {' and '.join(map(str, DEFAULT_DEPTHS))}; past 10 the readable search "
                             "takes minutes a position)")
    parser.add_argument("--repeats", type=bounded_int(1, 100), default=3,
                        help="runs of each search over the positions, the fastest counts (default 3)")
    return parser


def row(name: str, nodes: int, readable: float, fast: float) -> str:
    ratio = readable / fast if fast > 0 else float("inf")
    return f"{name:<12} {nodes:>9} {readable:>10.4f} {fast:>9.4f} {ratio:>6.1f}x"


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    depths = tuple(args.depth) if args.depth else DEFAULT_DEPTHS
    positions = midgame_positions(args.positions, args.seed)
    print(f"reference search, 0.2.0's readable against the fast: {len(positions)} midgame positions of {PITS} pits "
          f"and {SEEDS} seeds (seed {args.seed}), standard rules")
    print(f"CPU seconds for all the positions, the fastest of {args.repeats} runs")
    print(HEADER)
    timings: list[Timing] = []
    for case in cases(depths):
        timing = measure(case, positions, args.repeats)
        timings.append(timing)
        print(row(timing.case, timing.nodes, timing.readable, timing.fast), flush=True)
    print(row("all", sum(t.nodes for t in timings), sum(t.readable for t in timings), sum(t.fast for t in timings)))
    searches = len(positions) * len(timings)
    if all(t.same for t in timings):
        print(f"same pit, value and node count in all {searches} searches")
        return EXIT_OK
    print("DIFFERENT answers in: " + ", ".join(t.case for t in timings if not t.same))
    return EXIT_FAILURE
