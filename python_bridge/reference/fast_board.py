"""The fast search's board: a position as one Python int, and what a move does to it, worked out once.

Why: ``search``'s readable negamax builds a ``Position`` and ``play``-s the rules at every node; the
fast search (``fast_search``) does the same moves on this board with a few integer operations.

The board is seen from the side to move (the *mover*), 2m+2 fields of ``BITS`` bits:

    field 0..m-1   the mover's pits 1..m        field m        the mover's store
    field m+1..2m  the opponent's pits 1..m     field 2m+1     the opponent's store

-- the order in which the mover sows, the opponent's store last, so that a move is one addition of
a precomputed pattern and handing the turn over is swapping the two halves.  A field is a byte (so
that a board is read in with ``int.from_bytes``) and holds 255 seeds: a board with more seeds in all
is left to the readable search (``fits``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from .rules import MAX_PITS, SOUTH, Position, Variants
from .search_limits import WORD

BITS = 8
FIELD = (1 << BITS) - 1
MOST_SEEDS = FIELD  # a field's capacity: more seeds in all go to the readable search
SOUTH_KEY, NORTH_KEY = 0, 1  # the side to move as the best-move table's key starts
ORDERS_KEPT = 1 << 15  # move orders a Tables keeps (under 200 bytes each), emptied when full

# One move of the mover, all that its pits decide: (pit, what sowing it adds to the board, whether the
# last seed ends in the mover's store, whether the move is *plain* -- no capture, and seeds left in the
# mover's pits -- whether it sows into the opponent's pits, the seeds it sows into the mover's store,
# the shift of the pit facing the last seed's when that seed lands alone in an own pit -- else 0: no
# capture -- and then the last seed's own bit).  A plain move into an opponent with seeds ends nothing:
# its child is the board plus the sowing, worth the seeds sown into the store more.
Move = tuple[int, int, bool, bool, bool, int, int, int]


def _rotate(value: int, steps: int) -> int:
    """``value`` rotated 5 places left ``steps`` times in the 18-bit word (the PDP-1's ``ral 5s``)."""
    for _ in range(steps):
        value = ((value << 5) | (value >> 13)) & WORD
    return value


class Tables:
    """What the search would otherwise work out at every node, for one board size and variant set."""

    def __init__(self, m: int, variants: Variants) -> None:
        self.m = m
        self.variants = variants
        ring = 2 * m + 1  # the fields the mover sows into: all but the opponent's store
        shift = [BITS * j for j in range(2 * m + 2)]
        self.shift = shift
        ones = sum(1 << shift[j] for j in range(ring))
        # sow[i][s]: what sowing s seeds from the mover's field i adds; last[i][s]: the field of the last seed
        self.sow = [[(s // ring) * ones + sum(1 << shift[(i + k) % ring] for k in range(1, s % ring + 1))
                     - (s << shift[i]) for s in range(FIELD + 1)] for i in range(m)]
        self.last = [[(i + s) % ring for s in range(FIELD + 1)] for i in range(m)]
        self.facing = [shift[2 * m - j] for j in range(m)]  # the shift of the pit facing the mover's field j
        self.low = sum(FIELD << shift[j] for j in range(m))  # the mover's pits
        self.half = sum(FIELD << shift[j] for j in range(m + 1))  # the mover's pits and store
        self.adder = sum(1 << shift[j] for j in range(m))  # times the pits: their sum in field m-1
        # the best-move table's key: cell c of the PDP-1's board (South 1-6, North 1-6) rotated the 11 - c
        # times that follow it, the side to move 12 times (rotation is linear over xor); each side's six
        # cells xor-ed together, by that side's pits, in ``cells`` (SOUTH_KEY's, NORTH_KEY's), kept
        self.by_cell = [[_rotate(v, 11 - c) for v in range(FIELD + 1)] for c in range(12)]
        self.cells: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.key_start = (_rotate(SOUTH_KEY, 12), _rotate(NORTH_KEY, 12))
        self.kinds = [[self._kinds(i, s) for s in range(FIELD + 1)] for i in range(m)]
        self.orders: dict[int, tuple[Move, ...]] = {}  # the mover's pits -> its moves in search order
        self.settle = _settle_for(self)
        self.frontier = _frontier_for(self)
        self.pair = _pair_for(self)

    def encode(self, position: Position) -> tuple[int, int]:
        """``position``'s board seen from its side to move, and that side as the table's key counts it."""
        cells = position.board
        if position.to_move == SOUTH:
            return int.from_bytes(bytes(cells), "little"), SOUTH_KEY
        half = self.m + 1
        return int.from_bytes(bytes(cells[half:] + cells[:half]), "little"), NORTH_KEY

    def key(self, board: int, side: int) -> int:
        """``search.table_key`` of the position: the side to move, then the PDP-1 board's twelve pit cells."""
        own, theirs = board & self.low, (board >> self.shift[self.m + 1]) & self.low
        south, north = (own, theirs) if side == SOUTH_KEY else (theirs, own)
        return self.key_start[side] ^ self._cells(SOUTH_KEY, south) ^ self._cells(NORTH_KEY, north)

    def _cells(self, row: int, pits: int) -> int:
        """The key's share of one row of the PDP-1's board (``row``: SOUTH_KEY or NORTH_KEY), its pits
        given as m fields; kept, like the move orders."""
        kept = self.cells[row]
        share = kept.get(pits)
        if share is None:
            if len(kept) >= ORDERS_KEPT:
                kept.clear()
            share = 0
            rotated = self.by_cell[6 * row:6 * row + self.m]
            for cell, table in zip(pits.to_bytes(self.m, "little"), rotated, strict=True):
                share ^= table[cell]
            kept[pits] = share
        return share

    def moves(self, pits: int) -> tuple[Move, ...]:
        """The mover's moves in the contract's order (extra turns, then the rest, each from pit m down),
        given the mover's pits (the board's low m fields), which decide everything in a ``Move``.  Kept:
        the same pits come back again and again."""
        moves = self.orders.get(pits)
        if moves is None:
            if len(self.orders) >= ORDERS_KEPT:
                self.orders.clear()
            m, kinds = self.m, self.kinds
            cells = pits.to_bytes(m, "little")
            extra: list[Move] = []
            rest: list[Move] = []
            for i in range(m - 1, -1, -1):
                s = cells[i]
                if s:
                    plain, alone, emptied, landing = kinds[i][s]
                    if landing is not None and (landing < 0 or not cells[landing]):
                        move = alone
                    elif emptied is not None and pits == s << BITS * i:
                        move = emptied
                    else:
                        move = plain
                    (extra if s == m - i else rest).append(move)  # type: ignore[arg-type]
            moves = self.orders[pits] = tuple(extra + rest)
        return moves

    def _kinds(self, i: int, s: int) -> tuple[Move, Move | None, Move | None, int | None]:
        """The ``Move`` of the mover's field ``i`` holding ``s`` seeds as each of the mover's other pits make it:
        plain; the last seed alone in an own pit (None if it cannot be); the mover's pits left empty (None if
        the move sows into them); and when it is alone: -1 always (a lap back to the emptied pit), the shift
        of the pit it lands in (its field) when that pit is empty, None never."""
        m, sh, ring = self.m, self.shift, 2 * self.m + 1
        j, delta = self.last[i][s], self.sow[i][s]
        sown = delta + (s << sh[i])  # the seeds sown, field by field
        head = (i + 1, delta, j == m)
        reach, gain = sown >> sh[m + 1] != 0, (sown >> sh[m]) & FIELD
        plain: Move = head + (True, reach, gain, 0, 0)
        alone: Move | None = head + (False, reach, gain, self.facing[j], 1 << sh[j]) if j < m else None
        emptied: Move | None = head + (False, reach, gain, 0, 0) if not sown & self.low else None
        landing = None
        if j < m and j == i and s == ring:
            landing = -1
        elif j < m and j != i and s < ring:
            landing = j
        return plain, alone, emptied, landing


def _settle_for(t: Tables) -> Callable[[int, bool, int, int], tuple[int, int | None]]:
    """The rest of a move that is not plain, as a function of (the board after sowing, whether the last
    seed ended in the store, ``Move``'s facing shift and landing bit), giving (the board after the
    capture, if any; the game's final margin for the mover when the move ended it, else None)."""
    m, sh, low, adder = t.m, t.shift, t.low, t.adder
    mine_at, theirs_at, top, sum_at = sh[m], sh[m + 1], sh[2 * m + 1], sh[m - 1]
    empty_capture, deferred, void = t.variants.empty_capture, t.variants.deferred_end, t.variants.remainder_void

    def settle(c: int, extra: bool, facing: int, alone: int) -> tuple[int, int | None]:
        if facing:
            f = (c >> facing) & FIELD
            if f or empty_capture:
                c += ((f + 1) << mine_at) - alone - (f << facing)
        own, theirs = c & low, (c >> theirs_at) & low
        if (own if extra else theirs) if deferred else (own and theirs):
            return c, None
        value = ((c >> mine_at) & FIELD) - (c >> top)
        if not void:  # the sweep: each side's seeds to its own store (with the remainder void, to nobody)
            value += (((own * adder) >> sum_at) & FIELD) - (((theirs * adder) >> sum_at) & FIELD)
        return c, value

    return settle


def _frontier_for(t: Tables) -> Callable[[int, int, int, int], tuple[int, int]]:
    """A node one ply above its leaves (depth 1, below the root: no table, no first pit), as a function of
    (board, alpha, beta, half) giving (its fail-hard value, the positions it counts, itself and each leaf;
    ``half`` is there to be called as ``_pair_for``'s function is: a leaf is a leaf, decided or not).

    Why apart from the negamax: half of all nodes are these, and every child of one is a leaf, valued
    by the stores after the move (and the sweep, when the move ends the game)."""
    orders, moves_of, settle, low = t.orders, t.moves, t.settle, t.low
    mine_at, theirs_at, top = t.shift[t.m], t.shift[t.m + 1], t.shift[2 * t.m + 1]

    def frontier(b: int, alpha: int, beta: int, half: int) -> tuple[int, int]:
        its = b >> top  # the opponent's store: no move of the mover reaches it
        base = ((b >> mine_at) & FIELD) - its  # the stores' margin
        open_ = b >> theirs_at & low != 0  # the opponent has seeds in its pits
        n = 1
        for _pit, delta, extra, plain, reach, gain, facing, alone in orders.get(b & low) or moves_of(b & low):
            n += 1
            if plain and (open_ or reach):
                value = base + gain
            else:
                c, value = settle(b + delta, extra, facing, alone)
                if value is None:
                    value = ((c >> mine_at) & FIELD) - its
            if value >= beta:
                return beta, n
            if value > alpha:
                alpha = value
        return alpha, n

    return frontier


def _pair_for(t: Tables) -> Callable[[int, int, int, int], tuple[int, int]]:
    """A node two plies above its leaves (depth 2, below the root: no table), as a function of (board,
    alpha, beta, half) giving (its fail-hard value, the positions it counts); ``half``: the root's seeds
    over two, past which a store decides the game.  Its children's loops are ``_frontier_for``'s, inline:
    a quarter of all nodes are these, and a call for each child cost a tenth of the search's time."""
    orders, moves_of, settle, low, half_mask = t.orders, t.moves, t.settle, t.low, t.half
    mine_at, theirs_at, top = t.shift[t.m], t.shift[t.m + 1], t.shift[2 * t.m + 1]

    def pair(b: int, alpha: int, beta: int, half: int) -> tuple[int, int]:
        open_ = b >> theirs_at & low != 0
        n = 1
        for _pit, delta, extra, plain, reach, _gain, facing, alone in orders.get(b & low) or moves_of(b & low):
            n += 1
            if plain and (open_ or reach):
                c, value = b + delta, None
            else:
                c, value = settle(b + delta, extra, facing, alone)
            if value is None and (c >> mine_at) & FIELD <= half and c >> top <= half:
                if not extra:
                    c = (c >> theirs_at) | ((c & half_mask) << theirs_at)
                low_, high = (alpha, beta) if extra else (-beta, -alpha)  # the child's window
                its = c >> top
                base = ((c >> mine_at) & FIELD) - its
                child_open = c >> theirs_at & low != 0
                for _p, d, x, pl, r, gain, fc, al in orders.get(c & low) or moves_of(c & low):
                    n += 1
                    if pl and (child_open or r):
                        leaf = base + gain
                    else:
                        cc, leaf = settle(c + d, x, fc, al)
                        if leaf is None:
                            leaf = ((cc >> mine_at) & FIELD) - its
                    if leaf >= high:
                        low_ = high
                        break
                    if leaf > low_:
                        low_ = leaf
                value = low_ if extra else -low_
            elif value is None:  # decided: a leaf
                value = ((c >> mine_at) & FIELD) - (c >> top)
            if value >= beta:
                return beta, n
            if value > alpha:
                alpha = value
        return alpha, n

    return pair


@lru_cache(maxsize=16)
def tables_for(m: int, variants: Variants) -> Tables:
    """One ``Tables`` a board size and variant set, built once (a few milliseconds) and kept (a server
    uses one or two; sixteen bound the memory kept, a few megabytes each at most)."""
    return Tables(m, variants)


def fits(position: Position) -> bool:
    """Whether ``position`` fits the board: its seeds the fields (every game of at most 6 pits of 6
    seeds does), its pits the PDP-1's 6 a side (the table's key)."""
    return sum(position.board) <= MOST_SEEDS and position.pits <= MAX_PITS
