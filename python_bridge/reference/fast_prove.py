"""The proof contract of ``prove`` again, 7-11 times faster: what ``prove``, ``deepen`` and ``exact_value`` run.

Why: a long proof's reference runs beside the emulated PDP-1 and must finish before it (Kalah(6,3):
66 million positions), and the readable proof (``prove._Prover``: a ``Position`` built and ``play``-ed
at every node, its table key packed word by word) took longer than the PDP-1.  ``prove.spec_prove``
stays the specification; this is the same proof -- the same positions searched in the same order,
the same cut-offs, the same table entries written and found, so the same answer, node count and
deepest ply -- on ``fast_board``'s one-int board.  tests/reference/test_fast_prove.py compares the
two on seeded random positions and bounds under every variant set.

What makes it faster, besides the board (a move is an addition of a pattern worked out once):

* **A null window is a yes-or-no question.**  No value lies inside (alpha, alpha + 1), so every
  node fails high or low: a node is a bool, a finished game (or a horizon's position) is high for
  its mover when its margin reaches the mover's beta (``bound + 1`` for the root's side,
  ``-bound`` for the other), and a child where the turn passed proves its parent when it fails low.
* **The move order by the mover's pits.**  Which pits give an extra turn, which capture whatever
  the other row holds (a lap that ends in an emptied own pit, or one that passed the pit facing the
  last seed), which capture only when the facing pit has seeds -- all of that is the mover's pits'
  alone, so ``ProofOrders`` keeps, for each row of the mover's pits met, the order under each
  answer of those facing pits (two or four orders, rarely more).
* **The table's slot from the board.**  The contract's slot is ``h xor (h >> 9)``'s low 8 bits
  (the rotation's other half falls above them), ``h`` = a xor b xor k, and xor is linear: the two
  rows' pits xor-ed field by field give a's and b's share at once (pits 1 and 4 -- their low two
  bits --, 2 and 5, 3 and 6 folded onto each other), and k's share is 4 x south's store + 2 x the
  side xor the plies left.  An entry is matched on the board itself with the side and the plies
  left: within one proof (its seeds never change) the same position as the contract's three words.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from .fast_board import BITS, FIELD, Move, Tables, tables_for
from .rules import NORTH, SOUTH, Position, Variants

TABLE_SLOTS = 256  # the contract's TABLE_ENTRIES: the slot arithmetic below keeps 8 bits
ORDERS_KEPT = 1 << 17  # mover's rows a ProofOrders keeps (a few hundred bytes each), emptied when full
ALWAYS = -1  # a capture whatever the other row holds (in ``ProofOrders.order``'s labels)
REST = -2  # no capture: the third part of the order

Entry = tuple[tuple[tuple[int, int], ...], tuple[tuple[Move, ...], ...]]


class TooDeep(Exception):
    """A node at ``max_plies`` or deeper (``prove`` says it as ``ProofTooDeep``)."""


class ProofOrders:
    """The proof's move orders of one board size and variant set, by the mover's pits (``Tables``' moves)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.kept: dict[int, Entry] = {}

    def order(self, pits: int) -> Entry:
        """For the mover's pits (the board's low m fields): the checks -- (bit, shift of the facing pit)
        of each move that captures only when that pit has seeds -- and the move order for every mask
        of those bits (a bit set: its facing pit has seeds).  Extra turns, captures, the rest, each
        from pit m down, as ``prove.proof_order``."""
        kept = self.kept
        if len(kept) >= ORDERS_KEPT:
            kept.clear()
        t = self.tables
        m, empty_capture = t.m, t.variants.empty_capture
        cells = pits.to_bytes(m, "little")
        extra: list[Move] = []
        labelled: list[tuple[Move, int]] = []
        checks: list[tuple[int, int]] = []
        for i in range(m - 1, -1, -1):
            s = cells[i]
            if not s:
                continue
            plain, alone, emptied, landing = t.kinds[i][s]
            if landing is not None and (landing < 0 or not cells[landing]):  # the last seed alone in an own pit
                if empty_capture or landing < i:  # or a lap: the facing pit had a seed on the way
                    labelled.append((alone, ALWAYS))  # type: ignore[arg-type]
                else:
                    labelled.append((alone, len(checks)))  # type: ignore[arg-type]
                    checks.append((1 << len(checks), alone[6]))  # type: ignore[index]
                continue
            move = emptied if emptied is not None and pits == s << BITS * i else plain
            if s == m - i:
                extra.append(move)
            else:
                labelled.append((move, REST))
        orders = []
        for mask in range(1 << len(checks)):
            taking = [label == ALWAYS or (label >= 0 and mask >> label & 1 == 1) for _, label in labelled]
            orders.append(tuple(extra + [labelled[n][0] for n, took in enumerate(taking) if took]
                                + [labelled[n][0] for n, took in enumerate(taking) if not took]))
        entry = kept[pits] = (tuple(checks), tuple(orders))
        return entry


@lru_cache(maxsize=16)
def orders_for(m: int, variants: Variants) -> ProofOrders:
    """One ``ProofOrders`` a board size and variant set, kept as ``fast_board.tables_for`` keeps its tables."""
    return ProofOrders(tables_for(m, variants))


def fast_prove(position: Position, bound: int, variants: Variants, depth: int, max_plies: int,
               progress: Callable[[int], None] | None = None, every: int = 1 << 16,
               kept: list[tuple[int, Position, int, bool]] | None = None) -> tuple[bool, int, int]:
    """``prove``'s (above, nodes, deepest) for a position ``fast_board.fits`` (the caller checks it, and the
    question's range).  ``depth``: 0, to the end, or the horizon's ply; ``progress`` is told every
    ``every``-th node, as the readable proof tells it; TooDeep is raised at the first node at ply
    ``max_plies``.  ``kept``: filled with the table's entries at the end, (slot, position, plies left,
    fails high), for the tests to compare with the readable table's words."""
    orders = orders_for(position.pits, variants)
    board, side = orders.tables.encode(position)
    table = _Table(orders.tables)
    node, tally = _prover(orders, table, (bound + 1, -bound) if side == 0 else (-bound, bound + 1), depth,
                          max_plies, progress, every)
    above = node(board, side, 0)
    if kept is not None:
        kept.extend(table.entries())
    return (above, *tally())


class _Table:
    """The proof's table: ``TABLE_SLOTS`` keys and answers.  A key is the board seen from its mover, the
    side to move above it (1: north) and the plies left above that: within one proof, whose seeds never
    change, the same position as the contract's three words."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.keys = [0] * TABLE_SLOTS  # 0: empty (every position kept has a seed on its board)
        self.answers = [False] * TABLE_SLOTS
        self.side_at = BITS * (2 * tables.m + 2)

    def entries(self) -> list[tuple[int, Position, int, bool]]:
        """The entries written, as (slot, position, plies left, fails high): each key decoded."""
        m, found = self.tables.m, []
        for slot, key in enumerate(self.keys):
            if key:
                cells = list((key & ((1 << self.side_at) - 1)).to_bytes(2 * m + 2, "little"))
                north = key >> self.side_at & 1
                if north:
                    cells = cells[m + 1:] + cells[:m + 1]
                found.append((slot, Position(tuple(cells), NORTH if north else SOUTH), key >> (self.side_at + 1),
                              self.answers[slot]))
        return found


def _prover(orders: ProofOrders, table: _Table, needs: tuple[int, int], depth: int, max_plies: int,
            progress: Callable[[int], None] | None,
            every: int) -> tuple[Callable[[int, int, int], bool], Callable[[], tuple[int, int]]]:
    """``node(board, side, ply)``: whether ``board`` (seen from its mover, ``side`` 0 south, 1 north) fails high
    for its mover -- found in the table (then neither counted nor searched), or searched and written there;
    ``needs[side]``: the margin that side's beta asks for.  And a tally of (nodes, deepest ply)."""
    t = orders.tables
    kept, order_of, settle, frontier = orders.kept, orders.order, t.settle, _frontier_for(t)
    low, half_mask, keys, answers = t.low, t.half, table.keys, table.answers
    mine_at, theirs_at, top = t.shift[t.m], t.shift[t.m + 1], t.shift[2 * t.m + 1]
    over7 = sum(0xF8 << t.shift[j] for j in range(2 * t.m + 1) if j != t.m)  # a pit above 7: not kept
    sides, plies_at = (0, 1 << table.side_at), table.side_at + 1
    last = depth - 1  # the ply whose children are the horizon's leaves (-1: none)
    left = [depth - 1 - ply for ply in range(depth)]
    nodes = deepest = 0
    trigger = every if progress is not None else -1

    def node(c: int, side: int, ply: int) -> bool:
        nonlocal nodes, deepest, trigger
        if c & over7:
            slot = -1
        else:
            r = (c ^ (c >> theirs_at)) & low  # field k-1: pit k of one row xor pit k of the other (a xor b)
            f = r ^ (r >> 24)  # fields 0, 1, 2: pits 1 xor 4, 2 xor 5, 3 xor 6
            rows = (f & 3) << 6 | (f >> 5) & 0o70 | (f >> 16) & 7  # their share of the slot: bits 7-6, 5-3, 2-0
            south = c >> top if side else c >> mine_at & FIELD
            if depth:
                plies = left[ply]
                slot = rows ^ (((south << 2 | side << 1) ^ plies) & 255)
                key = c | sides[side] | plies << plies_at
            else:
                slot = rows ^ ((south << 2 | side << 1) & 255)
                key = c | sides[side]
            if keys[slot] == key:
                return answers[slot]
        nodes += 1
        if nodes == trigger:
            progress(nodes)  # type: ignore[misc]
            trigger += every
        if ply > deepest:
            if ply >= max_plies:
                raise TooDeep(f"the proof needs more than {max_plies} plies")
            deepest = ply
        p = c & low
        checks, moves = kept.get(p) or order_of(p)
        mask = 0
        for bit, at in checks:
            if c >> at & FIELD:
                mask |= bit
        need, high, open_ = needs[side], False, c >> theirs_at & low != 0
        if ply == last:
            high = frontier(c, need, moves[mask], open_)
        else:
            ply += 1
            for _pit, delta, extra, plain, reach, _gain, facing, alone in moves[mask]:
                if plain and (open_ or reach):
                    d = c + delta
                else:
                    d, over = settle(c + delta, extra, facing, alone)
                    if over is not None:
                        if over >= need:
                            high = True
                            break
                        continue
                if extra:
                    if node(d, side, ply):
                        high = True
                        break
                elif not node((d >> theirs_at) | ((d & half_mask) << theirs_at), 1 - side, ply):
                    high = True
                    break
        if slot >= 0:
            keys[slot], answers[slot] = key, high
        return high

    return node, lambda: (nodes, deepest)


def _frontier_for(t: Tables) -> Callable[[int, int, tuple[Move, ...], bool], bool]:
    """A node at the horizon's ply less one (deepening's tests): whether one of its moves reaches ``need``,
    every child a leaf valued by the stores (after the sweep, when the move ends the game)."""
    settle = t.settle
    mine_at, top = t.shift[t.m], t.shift[2 * t.m + 1]

    def frontier(c: int, need: int, moves: tuple[Move, ...], open_: bool) -> bool:
        base = (c >> mine_at & FIELD) - (c >> top)
        for _pit, delta, extra, plain, reach, gain, facing, alone in moves:
            if plain and (open_ or reach):
                value = base + gain
            else:
                d, value = settle(c + delta, extra, facing, alone)
                if value is None:
                    value = (d >> mine_at & FIELD) - (d >> top)
            if value >= need:
                return True
        return False

    return frontier
