"""The search contract of ``search`` again, about ten times faster: what every caller of ``search`` runs.

Why: every move the PDP-1 chooses is searched again by the reference before a visitor sees it, and
under load that search on the readable rules (a ``Position`` built and ``play``-ed at every node) was
two thirds of the online server's time.  ``search._Searcher`` stays the specification; this is the
same search -- the same positions visited in the same order, the same cut-offs, the same best-move
table, so the same pit, value and node count -- on ``fast_board``'s one-int board, with the leaves
valued in their parent's loop (no call, no board of their own).  The default level's deepening
(``search.level_move``) also stops a search at the position that passes the budget, as the PDP-1
does, where the readable one runs it to its end.  tests/reference/test_fast_search.py compares the two
on seeded random positions under every variant set, at several depths and at the default level.
"""

from __future__ import annotations

from typing import Callable

from .fast_board import FIELD, Move, Tables, tables_for
from .rules import Position, Variants
from .search_limits import INFINITY, PIT_BITS, PROGRESS_MASK, TABLE_DEPTH

NO_LIMIT = 1 << 62  # a search that may visit any number of positions

Negamax = Callable[[int, int, int, int, int, int], int]


class Abandoned(Exception):
    """The search passed its limit of positions (the default level's budget): the PDP-1 stops there too."""


def fast_search(position: Position, depth: int, variants: Variants, first: int = 0,
                words: list[int] | None = None, limit: int = NO_LIMIT,
                progress: Callable[[int], None] | None = None) -> tuple[int, int, int]:
    """``search.best_move``'s (pit, value, nodes), for a position ``fast_board.fits`` (the caller checks).

    ``words``: a best-move table's words (a power of two of them), read and left filled as the
    readable search leaves them.  ``limit``: Abandoned is raised once the search passes that many
    positions.  ``progress`` hears of every 65,536th position, as the readable search's does.
    """
    tables = tables_for(position.pits, variants)
    board, side = tables.encode(position)
    negamax, tally = _searcher(tables, words, limit, progress, sum(position.board) // 2)
    value = negamax(board, side, depth, -INFINITY, INFINITY, first)
    nodes, pit = tally()
    return pit, value, nodes


def first_of(moves: tuple[Move, ...], pit: int) -> tuple[Move, ...]:
    """``moves`` with ``pit``'s first, the others in their order (the root's first pit, the table's pit)."""
    return tuple(move for move in moves if move[0] == pit) + tuple(move for move in moves if move[0] != pit)


def _searcher(t: Tables, words: list[int] | None, limit: int, progress: Callable[[int], None] | None,
              half: int) -> tuple[Negamax, Callable[[], tuple[int, int]]]:
    """The negamax of ``search._Searcher`` on ``Tables``' boards, and a tally of (nodes, the root's pit).

    ``negamax(board, side, depth, alpha, beta, first)``: ``first`` is the root's first pit (0 for
    none), or -1 below the root, where the table serves.  A leaf is counted in its parent's loop, a
    node of depth 1 or 2 by ``Tables.frontier`` or ``Tables.pair``; ``trigger`` is the next count at
    which to look at the limit and the progress callback: a node pays one comparison for both."""
    orders, moves_of, settle, frontier, pair = t.orders, t.moves, t.settle, t.frontier, t.pair
    low, half_mask = t.low, t.half
    mine_at, theirs_at, top = t.shift[t.m], t.shift[t.m + 1], t.shift[2 * t.m + 1]
    mask = len(words) - 1 if words is not None else 0
    nodes, chosen, trigger = 0, 0, min(limit + 1, PROGRESS_MASK + 1)

    def event() -> None:
        nonlocal trigger
        while trigger <= nodes:
            if trigger > limit:
                raise Abandoned
            if progress is not None:
                progress(trigger)
            trigger = min(limit + 1, trigger + PROGRESS_MASK + 1)

    def negamax(b: int, side: int, depth: int, alpha: int, beta: int, first: int) -> int:
        nonlocal nodes, chosen
        nodes += 1
        if nodes >= trigger:
            event()
        moves = orders.get(b & low) or moves_of(b & low)
        key = index = hint = -1
        if first >= 0:
            hint = first
        elif depth >= TABLE_DEPTH and words is not None:
            key = t.key(b, side)
            index = (key ^ (key >> 9)) & mask
            if words[index] >> 3 == key >> 3:
                hint = words[index] & PIT_BITS
        if hint > 0:
            moves = first_of(moves, hint)
        best = 0
        open_ = b >> theirs_at & low != 0  # the opponent has seeds in its pits
        for pit, delta, extra, plain, reach, _gain, facing, alone in moves:
            if plain and (open_ or reach):
                c, over = b + delta, None
            else:
                c, over = settle(b + delta, extra, facing, alone)
            if over is not None:  # the game ended
                value = over
                nodes += 1
            elif depth == 1 or (c >> mine_at) & FIELD > half or c >> top > half:
                value = ((c >> mine_at) & FIELD) - (c >> top)
                nodes += 1
            elif depth > 3:
                value = (negamax(c, side, depth - 1, alpha, beta, -1) if extra else
                         -negamax((c >> theirs_at) | ((c & half_mask) << theirs_at), 1 - side, depth - 1,
                                  -beta, -alpha, -1))
            else:  # a child of depth 1 or 2, whose own children are counted in its loop
                below = pair if depth == 3 else frontier
                value, n = below(c, alpha, beta, half) if extra else below(
                    (c >> theirs_at) | ((c & half_mask) << theirs_at), -beta, -alpha, half)
                nodes += n
                if not extra:
                    value = -value
            if value >= beta:
                best, alpha = pit, beta
                break
            if value > alpha:
                alpha, best = value, pit
        if key >= 0 and best:
            words[index] = (key >> 3 << 3) | best  # type: ignore[index]
        chosen = best
        return alpha

    def tally() -> tuple[int, int]:
        if nodes >= trigger:  # the last leaves may have passed the limit after the last look
            event()
        return nodes, chosen

    return negamax, tally
