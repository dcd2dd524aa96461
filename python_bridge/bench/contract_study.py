"""What each search-contract change buys, in depth at the default level's budget (``make bench-contract``,
``python -m python_bridge bench-contract``, whose command line is ``commands.bench_contract``).

Why: each candidate change to the search contract is measured by itself on one
sample of positions, and kept only if it pays.  This study runs the default
level's deepening (``search.level_move``'s rules: every search's positions
counted, the one that passes the budget abandoned) with a searcher whose
contract can be switched piece by piece, and prints the depth reached over
``samples.varied_positions`` -- all of them, and the midgame ones:

* ``first``   -- the root tries the last search's pit first (kept);
* ``decided`` -- below the root, a store above half the seeds makes a leaf (kept);
* ``killer``  -- a killer pit per ply, tried right after the extra-turn pits;
* ``bounds``  -- cut a node whose stores bound its value outside the window;
* ``pvs``     -- null-window search of every move after the first;
* ``table``   -- the best-move table, 512 words shared by the depths while the
  root's stores hold at most half the seeds (kept; ``search.BestMoveTable``:
  it fits in the game's core now that the proof has a tape of its own);
* ``unbounded`` -- instead of it, a table with room for every position,
  kept by the same rule (an upper bound for what the 512 words could buy);
* ``half``    -- instead of it, a table of 256 words (what giving half its
  core to the costed cuts of the search's inner loop would cost).

With exactly the kept set the searcher is the contract: the study checks
that its depth and node count equal ``level_move``'s on every position.
"""

from __future__ import annotations

import statistics

from ..reference.rules import ENDED, STANDARD, Position, other, play
from ..reference.samples import is_midgame
from ..reference.search import (
    INFINITY,
    MAX_DEPTH,
    MIN_DEPTH,
    TABLE_DEPTH,
    TABLE_SIZE,
    BestMoveTable,
    bring_first,
    level_move,
    move_passes,
    root_order,
    table_key,
    uses_table,
)

KEPT = frozenset({"first", "decided", "table"})
CHANGES = ("first", "decided", "killer", "bounds", "pvs", "table", "unbounded", "half")
TABLES = frozenset({"table", "unbounded", "half"})  # the changes that keep a best-move table


class _UnboundedTable(BestMoveTable):
    """A best-move table that never loses an entry: one for every key."""

    def __init__(self) -> None:
        self.pits: dict[int, int] = {}

    def hint(self, key: int) -> int:
        return self.pits.get(key, 0)

    def remember(self, key: int, pit: int) -> None:
        self.pits[key] = pit


class _Spent(Exception):
    """The budget ran out inside a search."""


class StudySearcher:
    """The default level's deepening with the contract's pieces switched on or off."""

    def __init__(self, changes: frozenset[str], budget: int) -> None:
        self.changes, self.budget = changes, budget
        self.nodes = 0
        self.killer = [0] * (MAX_DEPTH + 2)
        if "unbounded" in changes:
            self.table: BestMoveTable = _UnboundedTable()
        else:
            self.table = BestMoveTable(TABLE_SIZE // 2 if "half" in changes else TABLE_SIZE)
        self.tabled = bool(changes & TABLES)
        self.half = INFINITY
        self.total = 0

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Spent

    def _order(self, pos: Position, ply: int, depth: int) -> tuple[list[int], int | None]:
        extra, rest = move_passes(pos)
        order = extra + rest
        kill = self.killer[ply]
        if "killer" in self.changes and kill in rest:
            order.remove(kill)
            order.insert(len(extra), kill)
        key = None
        if self.tabled and depth >= TABLE_DEPTH:
            key = table_key(pos)
            bring_first(order, self.table.hint(key))
        return order, key

    def _child(self, pos: Position, pit: int, view: str, depth: int, a: int, b: int, ply: int) -> int:
        child = play(pos, pit, STANDARD).position
        if child.to_move == view or child.to_move == ENDED:
            return self._negamax(child, view, depth - 1, a, b, ply + 1)
        return -self._negamax(child, other(view), depth - 1, -b, -a, ply + 1)

    def _negamax(self, pos: Position, view: str, depth: int, a: int, b: int, ply: int) -> int:
        self._count()
        mine, theirs = pos.store(view), pos.store(other(view))
        decided = "decided" in self.changes and max(mine, theirs) > self.half
        if depth == 0 or pos.to_move == ENDED or decided:
            return pos.margin(view)
        if "bounds" in self.changes:
            if 2 * mine - self.total >= b:
                return b
            if self.total - 2 * theirs <= a:
                return a
        order, key = self._order(pos, ply, depth)
        best = 0
        for n, pit in enumerate(order):
            if "pvs" in self.changes and n and b - a > 1:
                value = self._child(pos, pit, view, depth, a, a + 1, ply)
                if a < value < b:
                    value = self._child(pos, pit, view, depth, value, b, ply)
            else:
                value = self._child(pos, pit, view, depth, a, b, ply)
            if value >= b:
                self.killer[ply] = pit
                best, a = pit, b
                break
            if value > a:
                a, best = value, pit
        if key is not None and best:
            self.table.remember(key, best)
        return a

    def _root(self, pos: Position, depth: int, first: int) -> int:
        self._count()
        self.total = sum(pos.board)
        self.half = self.total // 2
        view, alpha, best = pos.to_move, -INFINITY, 0
        for pit in root_order(pos, first if "first" in self.changes else 0):
            value = self._child(pos, pit, view, depth, alpha, INFINITY, 0)
            if value > alpha:
                alpha, best = value, pit
        return best

    def level(self, pos: Position) -> tuple[int, int]:
        """The depth of the deepest search finished within the budget, and the positions counted."""
        depth_kept, pit = 0, 0
        self.tabled = self.tabled and uses_table(pos)
        try:
            for depth in range(MIN_DEPTH, MAX_DEPTH + 1):
                pit = self._root(pos, depth, pit)
                depth_kept = depth
        except _Spent:
            self.nodes = self.budget + 1
        return depth_kept, self.nodes


def study(changes: frozenset[str], positions: list[Position], budget: int) -> list[int]:
    """Depth reached on each position; with exactly the kept set, checked against ``level_move``."""
    depths = []
    for pos in positions:
        depth, nodes = StudySearcher(changes, budget).level(pos)
        if changes == KEPT:
            reference = level_move(pos, budget=budget)
            if (depth, nodes) != (reference.depth, reference.nodes):
                raise AssertionError(f"the study's searcher left the contract: {pos}")
        depths.append(depth)
    return depths


def study_rows() -> list[tuple[str, frozenset[str]]]:
    """The study's rows: the old contract, each change alone, the kept set, the kept set with each other change."""
    rows = [("old contract", frozenset())] + [(f"+ {c}", frozenset({c})) for c in CHANGES]
    rows += [("first, decided (no table)", KEPT - {"table"}), ("kept: first, decided, table", KEPT)]
    rows += [(f"kept + {c}", KEPT | {c}) for c in CHANGES if c not in KEPT | TABLES]
    rows += [("kept, table unbounded", KEPT | {"unbounded"}), ("kept, table of 256 words", KEPT | {"half"})]
    return rows


def summary(depths: list[int], middle: list[int]) -> str:
    """A row's figures: the median and mean depth over all positions, and over the midgame ones (their indices)."""
    mid = [depths[n] for n in middle]
    return (f"all: median {statistics.median(depths):4.1f} mean {statistics.mean(depths):5.2f}   "
            f"midgame: median {statistics.median(mid):4.1f} mean {statistics.mean(mid):5.2f}")


def midgame_indices(positions: list[Position]) -> list[int]:
    return [n for n, pos in enumerate(positions) if is_midgame(pos)]
