"""``python -m python_bridge bench-ref``: positions per second of the reference search (argument parsing and
printing only; the timing is ``bench.reference_speed``)."""

from __future__ import annotations

import argparse

from ..bench.reference_speed import MAX_BENCH_DEPTH, START_TEXT, measure
from ..reference.search import MIN_DEPTH
from .validators import EXIT_OK, bounded_int, new_parser

DEPTH = bounded_int(MIN_DEPTH, MAX_BENCH_DEPTH)


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench-ref",
                        "Positions per second of the reference search from the standard start, depth by depth.")
    parser.add_argument("--min-depth", type=DEPTH, default=4, help="first depth timed (default 4)")
    parser.add_argument("--max-depth", type=DEPTH, default=8, help="last depth timed (default 8)")
    parser.add_argument("--repeats", type=bounded_int(1, 100), default=7,
                        help="runs of each depth, the fastest counts (default 7)")
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.min_depth > args.max_depth:
        parser.error(f"--min-depth {args.min_depth} is deeper than --max-depth {args.max_depth}")
    print(f"reference search from {START_TEXT} (standard rules)")
    print(f"{'depth':>5} {'nodes':>9} {'seconds':>9} {'nodes/s':>9}")
    total_nodes, total_time = 0, 0.0
    for depth in range(args.min_depth, args.max_depth + 1):
        nodes, seconds = measure(depth, args.repeats)
        total_nodes, total_time = total_nodes + nodes, total_time + seconds
        print(f"{depth:>5} {nodes:>9} {seconds:>9.4f} {nodes / seconds:>9.0f}", flush=True)
    print(f"{'all':>5} {total_nodes:>9} {total_time:>9.4f} {total_nodes / total_time:>9.0f}")
    return EXIT_OK
