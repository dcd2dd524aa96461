"""The reference's speed: version 0.2.0's readable search and the fast one, and the readable proof and the fast
one, side by side (``make bench-ref``, ``python -m python_bridge bench-ref``, whose command line is
``commands.bench_ref``).

Every move the PDP-1 chooses is searched again by the reference (``search.best_move``, ``level_move``:
the fast search, ``fast_search``) before a visitor sees it, so its speed bounds what a server and a
test run can afford.  The readable search (``search.spec_best_move``, ``spec_level_move``) is the
specification, kept callable to be measured against.  Each case searches the same seeded midgame
positions (6 pits, 4 seeds) with both, alternately, several times; each side's fastest run counts
(the machine is shared: the minimum is the least disturbed, and alternating gives both the same
load), in CPU seconds.  The fast search starts every run with its kept move orders forgotten, so
that a repeat is not faster for having seen the positions before.  The answers -- pit, value, node
count and, at the default level, depth -- are compared on every run.

A long proof's reference runs beside the emulated PDP-1 and the answer waits for both, so the proof's
speed bounds how long ``prove`` takes.  The readable proof (``prove.spec_prove``) is the specification
of the PDP-1's ``w``; each proof case proves one start at the two bounds either side of its value
(the value less the margins' step: above; the value: not above), with both, the same way, comparing
the answer, the node count and the deepest ply.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..reference.fast_board import tables_for
from ..reference.fast_prove import orders_for
from ..reference.prove import ProofResult, exact_value, margin_step, prove, spec_prove
from ..reference.rules import STANDARD, Position, start_position
from ..reference.samples import is_midgame, sample_positions
from ..reference.search import best_move, level_move, spec_best_move, spec_level_move

PITS, SEEDS = 6, 4
DEFAULT_DEPTHS = (4, 8)  # the kiosk's "fair" strength, and about the depth the default level reaches in the midgame
# The starts proved, as (pits, seeds): a few seconds of the readable proof each at most (Kalah(6,3)'s takes 20 minutes)
PROOF_GAMES = ((2, 3), (3, 2), (3, 3), (4, 2), (4, 3), (5, 2), (6, 2), (5, 3))
DEFAULT_PROOFS = ((4, 3), (6, 2), (5, 3))

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
        orders_for.cache_clear()
        for pits in {position.pits for position in positions}:
            orders_for(pits, STANDARD)  # built before the clock starts, as a server has them built
        took, answers = _timed(case.fast, positions)
        fast = min(fast, took)
        same = same and answers == expected
        nodes = sum(answer[-1] for answer in expected)
    return Timing(case.name, nodes, readable, fast, same)


def cases(depths: tuple[int, ...]) -> list[Case]:
    """The default level's case, then one a depth."""
    return [level_case()] + [depth_case(depth) for depth in depths]


def proof_bounds(pits: int, seeds: int) -> tuple[int, int]:
    """The bounds either side of the start's value (found by the fast proof, before any timing): the value
    less the margins' step (the first player finishes above it) and the value (not above it)."""
    value = exact_value(start_position(pits, seeds))[0]
    return value - margin_step(STANDARD), value


def proof_case(pits: int, seeds: int, bounds: tuple[int, ...]) -> Case:
    """The start of Kalah(pits, seeds) proved at each of ``bounds``: (above, deepest ply, nodes) each, and
    then their nodes in all (``measure`` adds the last figures up)."""
    def answer(proof: Callable[[Position, int], tuple[bool, int, int]]) -> Search:
        def search(position: Position) -> Answer:
            results = [proof(position, bound) for bound in bounds]
            return tuple(figure for result in results for figure in result) + (sum(r[1] for r in results),)
        return search

    return Case(f"prove {pits},{seeds}", answer(lambda p, b: _figures(spec_prove(p, b))),
                answer(lambda p, b: _figures(prove(p, b))))


def _figures(result: ProofResult) -> tuple[bool, int, int]:
    return result.above, result.nodes, result.deepest
