"""The reference search: the exact specification the PDP-1 program's opponent mirrors.

The PDP-1 must return the same value, the same pit and the same node count as
``best_move`` for every position, depth and variant set, so every detail here is
part of the contract.  The readable negamax below (``_Searcher``; ``spec_best_move``
and ``spec_level_move``, version 0.2.0's search) is the specification; ``best_move``
and ``level_move``, which every caller uses, give its answers from ``fast_search``,
the same search on an integer board, tested against it on seeded random positions
under every variant set (tests/reference/test_fast_search.py) and measured beside
it by ``make bench-ref``.  The contract:

* **Negamax with alpha-beta, fail-hard**, depth in plies; every move is one ply,
  an extra-turn move too.  The root searches the full window (-INFINITY, +INFINITY)
  so the root value is exact.
* **Evaluation** at depth 0, of a finished game, and of a *decided* game (below
  the root, a store holds more than half of all the seeds on the root's board:
  whoever owns it has won, whatever follows): the store of the side whose
  view the node takes minus the other store.  A node reached by a move that
  keeps the turn (extra turn) or ends the game takes the mover's view, and its
  value is not negated; a node where the turn passed takes the opponent's view,
  searched with the negated, swapped window and its value negated.
* **Nodes**: every position the search visits counts once -- the root, every
  interior node and every leaf (depth 0 or game over).
* **Move order**: two passes over the mover's pits, each from the pit next to the
  store (pit m) down to pit 1.  The first pass takes the pits whose seeds end
  exactly in the store (count = m - pit + 1: an extra turn); the second pass
  takes every other non-empty pit.  Playing the nearest extra-turn pit first
  keeps the farther ones intact, and extra turns are usually the best moves,
  which makes the cut-offs come early.
* **The root's first move** (``first``): the default level's deepening passes
  each search the pit the search one ply shallower chose; the root tries it
  first and the others in move order after it.  A fixed-depth search (the
  ``b`` command, a fixed level) has no first pit.
* **The best-move table** (see ``BestMoveTable``), in the default level's
  deepening only, and only when the root's stores hold at most half the seeds
  (``uses_table``: in the endgame the search is narrow, most of its nodes would
  look in the table, and on the PDP-1 looking costs more than the order saves):
  a node below the root with at
  least TABLE_DEPTH plies to go looks its position up in a table of TABLE_SIZE
  one-word entries, and when the entry holds a pit with seeds that pit is tried
  first, the others following in move order.  The node leaves its best pit there
  when it returns: the pit that cut, or else the last pit that raised alpha (a
  node that raised nothing leaves the entry alone).  Every entry is replaced
  whatever it held.  The key is ``table_key``: the side to move, then the pits of
  the PDP-1's fixed 14-cell board (south 1-6, north 1-6, the empty ones of a
  smaller board included, the stores not), each folded in by rotating the 18-bit
  key 5 places left and exclusive-oring the cell.  Its two 9-bit halves
  exclusive-ored pick the entry (their low bits), and the entry keeps all of
  the key but the low 3 bits, where the pit goes.  A fixed-depth
  ``best_move`` (``b``, a fixed level) has no table; the default level's
  searches share one, emptied at its start, so each depth is ordered by the one
  before.
* **Tie-break**: a later move replaces the best one only when strictly better,
  so the chosen pit is the first in move order that reaches the root value.
* **Pie rule** (see ``pie_swap``): North, offered the swap, runs this same
  search on the position and swaps exactly when its value is negative.  The
  search itself never considers the swap.
* **The default level** (see ``level_move``): iterative deepening under a
  budget of NODE_BUDGET positions.  Depths 1, 2, 3 ... are searched in turn,
  counting the positions of every search; the search that would take the
  count past the budget is abandoned (the PDP-1 stops it at that position)
  and the deepest finished search decides.  Depth 20 is the last.

Measured and left out (``make bench-contract``: the default level's mean
depth over 300 positions of seeded games, 152 of them midgame): a killer pit
per ply, a cut when the stores bound the value outside the window, and a
null-window (PVS) search each bought at most 0.01 ply in the midgame.  The
first pit and the decided game bought 0.12 ply in the midgame and 1.0 over
all positions (the decided game ends endgame searches early).  The best-move
table, which fits once the proof has a tape of its own, bought 0.30 ply in
the midgame (mean 8.25 to 8.55, median 8 to 9) and 0.16 over all positions;
an unbounded table would buy 0.04 more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .fast_board import fits
from .fast_search import Abandoned, fast_search
from .rules import ENDED, SOUTH, STANDARD, Position, Variants, other, pit_index, play
from .search_limits import (
    INFINITY,
    MAX_DEPTH,
    MIN_DEPTH,
    NODE_BUDGET,
    PIT_BITS,
    PROGRESS_MASK,
    TABLE_DEPTH,
    TABLE_SIZE,
    WORD,
)


class SearchError(ValueError):
    """A search the contract does not define (finished game, depth out of range)."""


@dataclass(frozen=True)
class SearchResult:
    pit: int
    value: int
    nodes: int

    def line(self) -> str:
        """The answer line shared by ``ref best`` and the PDP-1's ``b`` command."""
        return f"best {self.pit} value {self.value} nodes {self.nodes}"


def move_passes(position: Position) -> tuple[list[int], list[int]]:
    """The side to move's pits in the two passes of the move order, each from pit m down: those whose
    last seed ends in the store (an extra turn), then every other pit with seeds."""
    m = position.pits
    first = pit_index(m, position.to_move, 1)
    counts = position.board[first:first + m]
    extra = [k for k in range(m, 0, -1) if counts[k - 1] == m - k + 1]
    rest = [k for k in range(m, 0, -1) if counts[k - 1] and counts[k - 1] != m - k + 1]
    return extra, rest


def move_order(position: Position) -> list[int]:
    """The pits of the side to move in search order: extra-turn pits first, each pass from pit m down."""
    extra, rest = move_passes(position)
    return extra + rest


def bring_first(order: list[int], pit: int) -> list[int]:
    """``order`` with ``pit`` moved to its front when it is in it, the others keeping their order (the
    root's first pit, the best-move table's pit)."""
    if pit in order:
        order.remove(pit)
        order.insert(0, pit)
    return order


def root_order(position: Position, first: int = 0) -> list[int]:
    """The root's pits in search order: ``first`` (when it is a legal pit) before the rest of ``move_order``."""
    return bring_first(move_order(position), first)


def table_key(position: Position) -> int:
    """The best-move table's 18-bit key: the side to move (0 south, 1 north), then each of the fixed
    board's twelve pit cells (south 1-6, north 1-6; pits past m are empty) folded in by a 5-place left
    rotation and an exclusive or -- what the PDP-1's 12 ``ral 5s``/``xor`` pairs compute."""
    m, board = position.pits, position.board
    cells = [board[k] if k < m else 0 for k in range(6)] + [board[m + 1 + k] if k < m else 0 for k in range(6)]
    key = 0 if position.to_move == SOUTH else 1
    for cell in cells:
        key = ((key << 5) | (key >> 13)) & WORD
        key ^= cell
    return key


def uses_table(position: Position) -> bool:
    """Whether the default level's deepening from ``position`` keeps a best-move table: when its stores
    hold at most half the seeds on the board (rounded down), as the PDP-1's bestk decides."""
    m, board = position.pits, position.board
    return board[m] + board[2 * m + 1] <= sum(board) // 2


class BestMoveTable:
    """The search's memory of the best pit in positions it searched before, TABLE_SIZE words.

    Why: the default level searches depth 1, 2, 3 ... from the same position, and the pit that was
    best one ply shallower is usually best again; trying it first makes the cut-offs come sooner.
    An entry is the key's high 15 bits with the pit in the low 3; zero is an empty entry (pit 0
    never has seeds)."""

    def __init__(self, size: int = TABLE_SIZE) -> None:
        self.words = [0] * size  # size: a power of two (the contract study tries other sizes)

    def index(self, key: int) -> int:
        """The entry for ``key``: its two halves exclusive-ored (so that every cell counts), low bits kept."""
        return (key ^ (key >> 9)) & (len(self.words) - 1)

    def hint(self, key: int) -> int:
        """The pit remembered for ``key``, or 0 when its entry holds another key's (or none)."""
        word = self.words[self.index(key)]
        return word & PIT_BITS if word & ~PIT_BITS == key & ~PIT_BITS else 0

    def remember(self, key: int, pit: int) -> None:
        self.words[self.index(key)] = (key & ~PIT_BITS & WORD) | pit


class _Searcher:
    """One search: holds the variants, the node counter and the decided line while recursing."""

    def __init__(self, variants: Variants, progress: Callable[[int], None] | None = None,
                 table: BestMoveTable | None = None) -> None:
        self.variants = variants
        self.table = table
        self.nodes = 0
        self.half = INFINITY  # a store above this many seeds decides the game (set by root)
        self.progress = progress  # told the nodes so far every PROGRESS_EVERY nodes (a long search's progress)

    def decided(self, position: Position) -> bool:
        """Whether a store holds more than half of all the seeds: its owner has won."""
        m = position.pits
        board = position.board
        return board[m] > self.half or board[2 * m + 1] > self.half

    def negamax(self, position: Position, view: str, depth: int, alpha: int, beta: int) -> int:
        """Value of ``position`` from ``view``'s side, fail-hard within (alpha, beta)."""
        self.nodes += 1
        if not self.nodes & PROGRESS_MASK and self.progress is not None:
            self.progress(self.nodes)
        if depth == 0 or position.to_move == ENDED or self.decided(position):
            return position.margin(view)
        order = move_order(position)
        table = self.table if depth >= TABLE_DEPTH else None
        key = 0
        if table is not None:
            key = table_key(position)
            bring_first(order, table.hint(key))
        best = 0
        for pit in order:
            child = play(position, pit, self.variants).position
            if child.to_move == view or child.to_move == ENDED:
                value = self.negamax(child, view, depth - 1, alpha, beta)
            else:
                value = -self.negamax(child, other(view), depth - 1, -beta, -alpha)
            if value >= beta:
                best, alpha = pit, beta
                break
            if value > alpha:
                alpha, best = value, pit
        if table is not None and best:
            table.remember(key, best)
        return alpha

    def root(self, position: Position, depth: int, first: int = 0) -> SearchResult:
        """Search the root with the full window, remembering the first best pit."""
        self.nodes = 1
        self.half = sum(position.board) // 2
        view = position.to_move
        alpha, best = -INFINITY, 0
        for pit in root_order(position, first):
            child = play(position, pit, self.variants).position
            if child.to_move == view or child.to_move == ENDED:
                value = self.negamax(child, view, depth - 1, alpha, INFINITY)
            else:
                value = -self.negamax(child, other(view), depth - 1, -INFINITY, -alpha)
            if value > alpha:
                alpha, best = value, pit
        return SearchResult(best, alpha, self.nodes)


def best_move(position: Position, depth: int, variants: Variants = STANDARD, first: int = 0,
              progress: Callable[[int], None] | None = None, table: BestMoveTable | None = None) -> SearchResult:
    """Search ``position`` ``depth`` plies deep; return the chosen pit, its value and the nodes visited.

    ``first``: a pit the root tries before the others (the deepening's last choice); 0 for none.
    ``progress``: told the nodes visited so far every 65,536 nodes (it changes nothing in the search).
    ``table``: the best-move table to start from and leave filled (the default level's, shared by its
    depths); None for none, as a fixed depth searches.

    The answer is ``spec_best_move``'s, found by ``fast_search`` (the same nodes in the same order,
    about ten times sooner); a board of more than 127 seeds, or a table of another kind than
    ``BestMoveTable`` (the contract study's), goes to the readable search itself.
    """
    check_search(position, depth)
    if not fits(position) or (table is not None and type(table) is not BestMoveTable):
        return _Searcher(variants, progress, table).root(position, depth, first)
    words = None if table is None else table.words
    return SearchResult(*fast_search(position, depth, variants, first, words, progress=progress))


def spec_best_move(position: Position, depth: int, variants: Variants = STANDARD, first: int = 0,
                   progress: Callable[[int], None] | None = None,
                   table: BestMoveTable | None = None) -> SearchResult:
    """``best_move`` by the readable search alone (``_Searcher``, version 0.2.0's): the specification the fast
    search is tested against, and the other side of ``make bench-ref``."""
    check_search(position, depth)
    return _Searcher(variants, progress, table).root(position, depth, first)


def check_search(position: Position, depth: int) -> None:
    """SearchError unless ``position`` can be searched ``depth`` plies deep (checked before any work)."""
    if position.to_move == ENDED:
        raise SearchError("the game is over")
    if not MIN_DEPTH <= depth <= MAX_DEPTH:
        raise SearchError(f"depth must be {MIN_DEPTH} to {MAX_DEPTH}, not {depth}")


def pie_swap(position: Position, depth: int, variants: Variants = STANDARD) -> tuple[bool, SearchResult]:
    """North's pie-rule decision: swap exactly when the search values the position below zero.

    After a swap the board is unchanged and North (now the opener) moves, so the
    swapper's prospects are minus the value North sees in the position; swapping
    pays exactly when that value is negative.  On a tie North keeps its side.
    Returns the decision and the search it was based on (whose pit North plays
    when it keeps its side).
    """
    result = best_move(position, depth, variants)
    return result.value < 0, result


@dataclass(frozen=True)
class LevelResult:
    """The default level's choice: the deepest finished search, and what it cost."""

    result: SearchResult  # the deepest finished search (its own nodes)
    depth: int  # that search's depth
    nodes: int  # positions visited by every search, the abandoned one included

    @property
    def pit(self) -> int:
        return self.result.pit

    @property
    def value(self) -> int:
        return self.result.value


# One search of the deepening: (depth, first pit, table, positions left in the budget) -> its result, or
# None when it was abandoned on passing them.
DepthSearch = Callable[[int, int, "BestMoveTable | None", int], "SearchResult | None"]


def deepen(position: Position, budget: int, search: DepthSearch) -> LevelResult:
    """The default level: deepen one ply at a time until the next search would pass ``budget`` positions.

    Each search tries the pit of the one before it first at the root.
    The PDP-1 counts every position of every search and abandons the
    search during which the count passes the budget; a search is kept only
    if it finished within it.  That is the same as running each search to
    the end and keeping it when the running total stays within the budget
    (``spec_level_move`` does that; ``level_move`` stops where the PDP-1 does).
    """
    if position.to_move == ENDED:
        raise SearchError("the game is over")
    total = 0
    kept: tuple[SearchResult, int] | None = None
    table = BestMoveTable() if uses_table(position) else None
    for depth in range(MIN_DEPTH, MAX_DEPTH + 1):
        result = search(depth, kept[0].pit if kept else 0, table, budget - total)
        if result is None or total + result.nodes > budget:
            total = budget + 1  # the PDP-1 stops at the position that passes the budget
            break
        total += result.nodes
        kept = (result, depth)
    if kept is None:
        raise SearchError(f"a budget of {budget} positions does not finish even depth 1")
    return LevelResult(kept[0], kept[1], total)


def level_move(position: Position, variants: Variants = STANDARD, budget: int = NODE_BUDGET) -> LevelResult:
    """The default level by the fast search, each search abandoned at the position that passes the budget."""
    if not fits(position):
        return spec_level_move(position, variants, budget)

    def search(depth: int, first: int, table: BestMoveTable | None, left: int) -> SearchResult | None:
        try:
            return SearchResult(*fast_search(position, depth, variants, first,
                                             None if table is None else table.words, limit=left))
        except Abandoned:
            return None

    return deepen(position, budget, search)


def spec_level_move(position: Position, variants: Variants = STANDARD, budget: int = NODE_BUDGET) -> LevelResult:
    """The default level by the readable search, each search run to its end (version 0.2.0's)."""
    return deepen(position, budget, lambda depth, first, table, _left:
                  spec_best_move(position, depth, variants, first, table=table))


def level_pie_swap(position: Position, variants: Variants = STANDARD,
                   budget: int = NODE_BUDGET) -> tuple[bool, LevelResult]:
    """The pie-rule decision at the default level: swap when the kept search's value is negative."""
    level = level_move(position, variants, budget)
    return level.value < 0, level
