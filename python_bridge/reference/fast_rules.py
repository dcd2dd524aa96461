"""The rules of ``kalah_rules.play`` again, on a compact integer board, for the solver and the fast search.

``kalah_rules`` is the readable specification; this module is the same rules
made fast enough to solve small games in pure Python.  The tests compare the two
move by move on many random positions under every variant set, so any
difference is caught.

The board is one Python int seen from the side to move (the *mover*): a ring of
2m+1 fields of 7 bits each (a pit never holds more than 72 seeds) --

    field 0..m-1   the mover's pits 1..m
    field m        the mover's store (always 0 in a stored board: see below)
    field m+1..2m  the opponent's pits 1..m

-- the order in which the mover sows, with the opponent's store left out, so
sowing is adding a precomputed pattern: one seed on every field per full lap,
plus one seed on each of the ``rest`` fields after the pit.  Stores are not part
of the board: what a move puts in the mover's store is returned as its *gain*.
Every rule of Kalah depends only on the pits, never on the stores, so the value
of the rest of the game (the mover's future gains minus the opponent's) is a
function of this int alone, and positions that differ only in their stores share
one transposition-table entry.
"""

from __future__ import annotations

from .rules import NORTH, SOUTH, Position, Variants, pit_index

BITS = 7
FIELD = (1 << BITS) - 1

# Kinds of move, as the solver needs them.
PASS = 0  # the turn passes: the child board is seen from the opponent
EXTRA = 1  # the last seed fell in the mover's store: the mover moves again
END = 2  # the game ended: the gain includes the end-of-game sweep


# One legal move: (pit, kind, gain, board) -- the pit played (1..m), PASS, EXTRA
# or END, the mover's store increase minus the opponent's (the end-of-game sweep
# included), and the board after it, seen from whoever moves next (the mover
# again after an extra turn, the opponent after a pass; 0 when the game ended).
# A plain tuple, not a NamedTuple: the solver builds millions of them.
Child = tuple[int, int, int, int]


class FastRules:
    """The move generator for one board size and variant set (tables are built once)."""

    def __init__(self, m: int, variants: Variants) -> None:
        self.m = m
        self.variants = variants
        ring = 2 * m + 1
        self.ring = ring
        self.shift = [BITS * i for i in range(ring)]
        # lap[i][r]: one seed on each of the r fields after field i (r < ring).
        self.lap = [
            [sum(1 << self.shift[(i + k) % ring] for k in range(1, r + 1)) for r in range(ring)]
            for i in range(m)
        ]
        self.ones = sum(1 << s for s in self.shift)  # one seed on every field: a full lap
        self.low = sum(FIELD << self.shift[i] for i in range(m))  # the mover's pits
        self.high_shift = self.shift[m + 1]  # the opponent's pits start here
        self.store_shift = self.shift[m]
        # Multiplying by ``half_ones`` adds up m fields into field m-1 (no carries: every sum <= 72).
        self.half_ones = sum(1 << self.shift[i] for i in range(m))
        self.sum_shift = self.shift[m - 1]

    # --- conversions ---------------------------------------------------------

    def encode(self, position: Position) -> int:
        """The board of ``position`` seen from its side to move (stores dropped)."""
        m = self.m
        mover = position.to_move
        opponent = NORTH if mover == SOUTH else SOUTH
        board = 0
        for k in range(1, m + 1):
            board |= position.board[pit_index(m, mover, k)] << self.shift[k - 1]
            board |= position.board[pit_index(m, opponent, k)] << self.shift[m + k]
        return board

    def pits(self, board: int) -> tuple[list[int], list[int]]:
        """The mover's and the opponent's pit counts, pit 1 first (for tests and messages)."""
        m = self.m
        fields = [(board >> s) & FIELD for s in self.shift]
        return fields[:m], fields[m + 1:]

    def side_sum(self, side_bits: int) -> int:
        """Seeds in m pits given as the low m fields of ``side_bits``."""
        return ((side_bits * self.half_ones) >> self.sum_shift) & FIELD

    def seeds(self, board: int) -> int:
        """All seeds on the board (the most the rest of the game can be worth to either side)."""
        return self.side_sum(board & self.low) + self.side_sum(board >> self.high_shift)

    def flip(self, board: int) -> int:
        """The same board seen from the other side."""
        return (board >> self.high_shift) | ((board & self.low) << self.high_shift)

    # --- the move generator --------------------------------------------------

    def children(self, board: int) -> list[Child]:
        """Every legal move of the mover, pit 1 first, exactly as ``kalah_rules.play`` plays it."""
        m, ring, shift, lap = self.m, self.ring, self.shift, self.lap
        low, high_shift, store_shift = self.low, self.high_shift, self.store_shift
        empty_capture = self.variants.empty_capture
        deferred = self.variants.deferred_end
        void = self.variants.remainder_void
        out: list[Child] = []
        for i in range(m):
            seeds = (board >> shift[i]) & FIELD
            if not seeds:
                continue
            laps, rest = divmod(seeds, ring)
            after = board - (seeds << shift[i]) + laps * self.ones + lap[i][rest]
            last = (i + seeds) % ring
            gain = (after >> store_shift) & FIELD
            after -= gain << store_shift
            extra = last == m
            if last < m and (after >> shift[last]) & FIELD == 1:
                facing = 2 * m - last
                taken = (after >> shift[facing]) & FIELD
                if taken or empty_capture:
                    gain += 1 + taken
                    after -= (1 << shift[last]) + (taken << shift[facing])
            own = after & low
            theirs = after >> high_shift
            if deferred:
                ended = not (own if extra else theirs)
            else:
                ended = not own or not theirs
            if ended:
                if not void:
                    gain += self.side_sum(own) - self.side_sum(theirs)
                out.append((i + 1, END, gain, 0))
            elif extra:
                out.append((i + 1, EXTRA, gain, after))
            else:
                out.append((i + 1, PASS, gain, theirs | (own << high_shift)))
        return out
