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

from .rules import start_position
from .search import best_move


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m python_bridge.reference.benchmark", description=__doc__)
    parser.add_argument("--min-depth", type=int, default=4)
    parser.add_argument("--max-depth", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)

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
