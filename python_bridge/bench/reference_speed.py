"""Positions per second of the reference search from the standard start (``make bench-ref``, ``python -m
python_bridge bench-ref``, whose command line is ``commands.bench_ref``).

The PDP-1 cross-check runs ``kalah_search.best_move`` for every move it checks,
so its speed bounds how much checking a test run can afford.  Each depth is
timed as the best of a few runs (the machine is shared; the minimum is the
least disturbed), and the node count doubles as a check that the search did
the same work every time.
"""

from __future__ import annotations

import time

from ..reference.rules import start_position
from ..reference.search import best_move

MAX_BENCH_DEPTH = 12   # depth 12 already takes minutes a repeat
START_TEXT = "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"


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
