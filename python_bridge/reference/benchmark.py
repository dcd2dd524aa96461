"""``make bench-ref``: positions per second of the reference search, depths 4 to 8, from the standard start.

The PDP-1 cross-check runs ``kalah_search.best_move`` for every move it checks,
so its speed bounds how much checking a test run can afford.  Each depth is
timed as the best of a few runs (the machine is shared; the minimum is the
least disturbed), and the node count doubles as a check that the search did
the same work every time.
"""

from __future__ import annotations

import argparse
import sys
import time

from .arguments import OneLineParser, whole_number
from .rules import start_position
from .search import MIN_DEPTH, best_move

DEPTH = whole_number(MIN_DEPTH, 12)   # depth 12 already takes minutes a repeat


def measure(depth: int, repeats: int) -> tuple[int, float]:
    """Nodes of a depth-``depth`` search from the start, and its fastest time in seconds."""
    position = start_position()
    nodes, fastest = -1, float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        result = best_move(position, depth)
        took = time.perf_counter() - began
        if nodes not in (-1, result.nodes):
            raise AssertionError(f"depth {depth}: node count changed from {nodes} to {result.nodes}")
        nodes, fastest = result.nodes, min(fastest, took)
    return nodes, fastest


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m python_bridge.reference.benchmark",
                           description=__doc__.splitlines()[0].split(": ", 1)[-1])
    parser.add_argument("--min-depth", type=DEPTH, metavar=DEPTH.__name__, default=4,
                        help="first depth timed (default 4)")
    parser.add_argument("--max-depth", type=DEPTH, metavar=DEPTH.__name__, default=8,
                        help="last depth timed (default 8)")
    parser.add_argument("--repeats", type=whole_number(1, 100), metavar="1-100", default=7,
                        help="runs of each depth, the fastest counts (default 7)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.min_depth > args.max_depth:
        parser.error(f"--min-depth {args.min_depth} is deeper than --max-depth {args.max_depth}")

    print("reference search from 4 4 4 4 4 4 0 4 4 4 4 4 4 0 s (standard rules)")
    print(f"{'depth':>5} {'nodes':>9} {'seconds':>9} {'nodes/s':>9}")
    total_nodes, total_time = 0, 0.0
    for depth in range(args.min_depth, args.max_depth + 1):
        nodes, seconds = measure(depth, args.repeats)
        total_nodes, total_time = total_nodes + nodes, total_time + seconds
        print(f"{depth:>5} {nodes:>9} {seconds:>9.4f} {nodes / seconds:>9.0f}", flush=True)
    print(f"{'all':>5} {total_nodes:>9} {total_time:>9.4f} {total_nodes / total_time:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
