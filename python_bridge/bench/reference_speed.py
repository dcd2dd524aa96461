"""The reference search's speed: version 0.2.0's readable search and the fast one, side by side (``make bench-ref``,
``python -m python_bridge bench-ref``, whose command line is ``commands.bench_ref``).

Every move the PDP-1 chooses is searched again by the reference (``search.best_move``, ``level_move``:
the fast search, ``fast_search``) before a visitor sees it, so its speed bounds what a server and a
test run can afford.  The readable search (``search.spec_best_move``, ``spec_level_move``) is the
specification, kept callable to be measured against.  Each case searches the same seeded midgame
positions (6 pits, 4 seeds) with both, alternately, several times; each side's fastest run counts
(the machine is shared: the minimum is the least disturbed, and alternating gives both the same
load), in CPU seconds.  The fast search starts every run with its kept move orders forgotten, so
that a repeat is not faster for having seen the positions before.  The answers -- pit, value, node
count and, at the default level, depth -- are compared on every run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..reference.fast_board import tables_for
from ..reference.rules import STANDARD, Position
from ..reference.samples import is_midgame, sample_positions
from ..reference.search import best_move, level_move, spec_best_move, spec_level_move

PITS, SEEDS = 6, 4
DEFAULT_DEPTHS = (4, 8)  # the kiosk's "fair" strength, and about the depth the default level reaches in the midgame

Answer = tuple[int, ...]
Search = Callable[[Position], Answer]


@dataclass(frozen=True)
class Case:
    """One way of searching, by both searches: its name in the table and each search's answer for a position."""

    name: str
    readable: Search
    fast: Search


@dataclass(frozen=True)
class Timing:
    """One case measured: nodes over all the positions, each side's fastest CPU seconds, and the answers' match."""

    case: str
    nodes: int
    readable: float
    fast: float
    same: bool

    @property
    def ratio(self) -> float:
        return self.readable / self.fast if self.fast > 0 else float("inf")


def level_case() -> Case:
    """The default level (level 0, "auto": the kiosk's full strength), deepening within the budget."""
    def readable(position: Position) -> Answer:
        chosen = spec_level_move(position)
        return chosen.pit, chosen.value, chosen.depth, chosen.nodes

    def fast(position: Position) -> Answer:
        chosen = level_move(position)
        return chosen.pit, chosen.value, chosen.depth, chosen.nodes

    return Case("level auto", readable, fast)


def depth_case(depth: int) -> Case:
    """A fixed depth (a level 1-20, or ``ref best`` with a depth): one search, no table."""
    def readable(position: Position) -> Answer:
        result = spec_best_move(position, depth)
        return result.pit, result.value, result.nodes

    def fast(position: Position) -> Answer:
        result = best_move(position, depth)
        return result.pit, result.value, result.nodes

    return Case(f"depth {depth}", readable, fast)


def midgame_positions(count: int, seed: int) -> list[Position]:
    """``count`` midgame positions of 6 pits and 4 seeds from ``samples``' seeded games (the same every run)."""
    pool = count * 3
    while True:
        found = [p for p in sample_positions(pool, seed) if is_midgame(p)]
        if len(found) >= count:
            return found[:count]
        pool *= 2


def _timed(search: Search, positions: list[Position]) -> tuple[float, list[Answer]]:
    began = time.process_time()
    answers = [search(position) for position in positions]
    return time.process_time() - began, answers


def measure(case: Case, positions: list[Position], repeats: int) -> Timing:
    """Both searches of ``case`` over ``positions``, alternately ``repeats`` times, each side's fastest kept."""
    readable = fast = float("inf")
    same, nodes = True, 0
    for _ in range(repeats):
        took, expected = _timed(case.readable, positions)
        readable = min(readable, took)
        tables_for.cache_clear()
        tables_for(PITS, STANDARD)  # built before the clock starts, as a server has it built
        took, answers = _timed(case.fast, positions)
        fast = min(fast, took)
        same = same and answers == expected
        nodes = sum(answer[-1] for answer in expected)
    return Timing(case.name, nodes, readable, fast, same)


def cases(depths: tuple[int, ...]) -> list[Case]:
    """The default level's case, then one a depth."""
    return [level_case()] + [depth_case(depth) for depth in depths]
