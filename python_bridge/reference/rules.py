"""The rules of Kalah: the golden model every PDP-1 move is checked against.

Board layout (also the position notation, see ``notation.py``): a tuple of 2m+2
counts in sowing order -- South pits 1..m, South's store, North pits 1..m,
North's store.  Pit k of either side sits m-k+1 steps before its own store, and
South pit k faces North pit m+1-k.

The rules are standard Kalah (Champion, 1940) with four independent variants;
every rule lives in ``play`` below so that it can be read in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

SOUTH = "s"
NORTH = "n"
ENDED = "e"

MIN_PITS, MAX_PITS = 1, 6
MIN_SEEDS, MAX_SEEDS = 1, 6


class RulesError(ValueError):
    """A move or position the rules do not allow (bad pit, empty pit, game over...)."""


@dataclass(frozen=True)
class Variants:
    """The four rule variants; each is independent of the others."""

    empty_capture: bool = False  # last seed in an own empty pit is stored even if the opposite pit is empty
    deferred_end: bool = False  # the game ends only when the player to move has no seeds
    remainder_void: bool = False  # seeds left on the board at the end go to nobody
    pie_rule: bool = False  # North may swap sides instead of answering South's first turn

    def flags(self) -> list[str]:
        """The command-line flags that select these variants (used in reproduction commands)."""
        names = []
        if self.empty_capture:
            names.append("--empty-capture")
        if self.deferred_end:
            names.append("--deferred-end")
        if self.remainder_void:
            names.append("--remainder-void")
        if self.pie_rule:
            names.append("--pie-rule")
        return names

    def describe(self) -> str:
        """Human-readable list of the variants in force."""
        words = [f.lstrip("-").replace("-", " ") for f in self.flags()]
        return ", ".join(words) if words else "standard rules"


STANDARD = Variants()


@dataclass(frozen=True)
class Position:
    """A board and the side to move (``s``, ``n``, or ``e`` once the game is over)."""

    board: tuple[int, ...]
    to_move: str

    @property
    def pits(self) -> int:
        """m, the number of pits a side."""
        return len(self.board) // 2 - 1

    @property
    def over(self) -> bool:
        return self.to_move == ENDED

    def store(self, side: str) -> int:
        """The seeds in ``side``'s store."""
        return self.board[store_index(self.pits, side)]

    def side_seeds(self, side: str) -> int:
        """The seeds in ``side``'s pits (not its store)."""
        first = pit_index(self.pits, side, 1)
        return sum(self.board[first:first + self.pits])

    def legal_pits(self) -> list[int]:
        """The pits (1..m) the side to move may play, in ascending order."""
        if self.over:
            return []
        first = pit_index(self.pits, self.to_move, 1)
        return [k for k in range(1, self.pits + 1) if self.board[first + k - 1] > 0]

    def margin(self, side: str) -> int:
        """``side``'s store minus the other store: the search's evaluation and the final score."""
        return self.store(side) - self.store(other(side))


def other(side: str) -> str:
    """The opponent of ``side``."""
    return NORTH if side == SOUTH else SOUTH


def store_index(m: int, side: str) -> int:
    """Index of ``side``'s store on an m-pit board."""
    return m if side == SOUTH else 2 * m + 1


def pit_index(m: int, side: str, pit: int) -> int:
    """Index of ``side``'s pit ``pit`` (1..m) on an m-pit board."""
    return pit - 1 if side == SOUTH else m + pit


def opposite_index(m: int, index: int) -> int:
    """Index of the pit facing the pit at ``index``."""
    return 2 * m - index


def start_position(m: int = 6, n: int = 4) -> Position:
    """The opening position: n seeds in each of the 2m pits, empty stores, South to move."""
    if not MIN_PITS <= m <= MAX_PITS:
        raise RulesError(f"pits a side must be {MIN_PITS} to {MAX_PITS}, not {m}")
    if not MIN_SEEDS <= n <= MAX_SEEDS:
        raise RulesError(f"seeds a pit must be {MIN_SEEDS} to {MAX_SEEDS}, not {n}")
    half = (n,) * m + (0,)
    return Position(half + half, SOUTH)


@dataclass(frozen=True)
class MoveResult:
    """What one move did, for announcements and event streams."""

    position: Position
    mover: str
    pit: int
    extra_turn: bool  # the last seed fell in the mover's store and the game goes on
    captured: int  # seeds moved to the store by a capture (the landing seed included), 0 if none
    ended: bool


def play(position: Position, pit: int, variants: Variants = STANDARD) -> MoveResult:
    """Play ``pit`` (1..m) for the side to move and return the result.

    Sowing goes counter-clockwise (in index order), one seed a pit, skipping the
    opponent's store; the emptied pit itself gets a seed on every full lap.
    """
    m = position.pits
    mover = position.to_move
    if mover == ENDED:
        raise RulesError("the game is over")
    if not 1 <= pit <= m:
        raise RulesError(f"pit {pit} is out of range 1..{m}")
    board = list(position.board)
    start = pit_index(m, mover, pit)
    seeds = board[start]
    if seeds == 0:
        raise RulesError(f"pit {pit} is empty")

    size = 2 * m + 2
    skip = store_index(m, other(mover))
    own_store = store_index(m, mover)
    board[start] = 0
    index = start
    while seeds:
        index = (index + 1) % size
        if index == skip:
            continue
        board[index] += 1
        seeds -= 1

    extra_turn = index == own_store
    captured = 0
    own_first = pit_index(m, mover, 1)
    if own_first <= index < own_first + m and board[index] == 1:
        facing = opposite_index(m, index)
        if board[facing] > 0 or variants.empty_capture:
            captured = 1 + board[facing]
            board[own_store] += captured
            board[index] = 0
            board[facing] = 0

    next_side = mover if extra_turn else other(mover)
    board, ended = _settle_end(board, m, next_side, variants)
    return MoveResult(
        position=Position(tuple(board), ENDED if ended else next_side),
        mover=mover,
        pit=pit,
        extra_turn=extra_turn and not ended,
        captured=captured,
        ended=ended,
    )


def sowing_indices(position: Position, pit: int) -> list[int]:
    """The board indices the seeds of the side to move's ``pit`` fall into, one a seed, in order: what a
    page shows being sown.  The order is ``play``'s (counter-clockwise, the opponent's store skipped, the
    emptied pit itself fed on every full lap); tests/reference/test_rules.py checks the two agree on every
    legal move of sampled positions.  ``play`` keeps its own loop: it is the search's inner loop."""
    m = position.pits
    mover = position.to_move
    if mover == ENDED:
        raise RulesError("the game is over")
    if not 1 <= pit <= m:
        raise RulesError(f"pit {pit} is out of range 1..{m}")
    index = pit_index(m, mover, pit)
    seeds = position.board[index]
    skip = store_index(m, other(mover))
    path: list[int] = []
    while len(path) < seeds:
        index = (index + 1) % (2 * m + 2)
        if index != skip:
            path.append(index)
    return path


def _settle_end(board: list[int], m: int, next_side: str, variants: Variants) -> tuple[list[int], bool]:
    """Apply the end-of-game rule; return the board (swept if the game ended) and whether it ended.

    Standard: the game ends as soon as either side's pits are all empty.
    Deferred end: only when the side about to move has no seeds.
    The sweep gives each side's remaining seeds to that side's own store,
    or to nobody under the remainder-void variant.
    """
    south = sum(board[0:m])
    north = sum(board[m + 1:2 * m + 1])
    if variants.deferred_end:
        ended = (south if next_side == SOUTH else north) == 0
    else:
        ended = south == 0 or north == 0
    if not ended:
        return board, False
    if not variants.remainder_void:
        board[m] += south
        board[2 * m + 1] += north
    for i in range(m):
        board[i] = 0
        board[m + 1 + i] = 0
    return board, True


def winner(position: Position) -> str | None:
    """``s`` or ``n`` for the larger store, None for a draw (meaningful once the game is over)."""
    diff = position.margin(SOUTH)
    if diff > 0:
        return SOUTH
    if diff < 0:
        return NORTH
    return None
