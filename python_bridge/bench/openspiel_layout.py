"""OpenSpiel's ``mancala`` board and action numbers, and our pits: the one place that maps them.

OpenSpiel's game (``open_spiel/games/mancala/mancala.cc``, read from its source and
checked on the installed game by ``tests/bench/test_openspiel_rules.py``) keeps 14 counts:
index 0 is player 1's store, 1..6 are player 0's pits, 7 is player 0's store and
8..13 are player 1's pits, sown in rising index order.  An action is the index of the
pit played.  Player 0 moves first, so it is our South; player 1 is our North.

Our board (``reference.rules``) is South pits 1..6, South's store, North pits 1..6,
North's store, also in sowing order, so OpenSpiel's index is ours plus one, modulo 14
(our North store, index 13, is OpenSpiel's index 0).  Pit k of a side is our index
k - 1 (South) or 6 + k (North): OpenSpiel's action k or 7 + k.

Only OpenSpiel's fixed game is mapped: 6 pits a side (it has no parameters; 4 seeds).
No OpenSpiel import here: the numbers are passed in, so the mapping can be read and
tested without the package.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..reference.rules import NORTH, SOUTH

PITS = 6                          # OpenSpiel's kNumPits: the only size its mancala plays
SIZE = 2 * PITS + 2               # 14 counts on either board
PLAYER_OF = {SOUTH: 0, NORTH: 1}  # OpenSpiel's player ids (0 moves first)
SIDE_OF = {0: SOUTH, 1: NORTH}
STORE_OF = {0: PITS + 1, 1: 0}    # the index of each OpenSpiel player's store on its board


def action_of(side: str, pit: int) -> int:
    """OpenSpiel's action for ``side`` playing its pit ``pit`` (1..6)."""
    if not 1 <= pit <= PITS:
        raise ValueError(f"pit {pit} is out of range 1..{PITS}")
    return pit if side == SOUTH else PITS + 1 + pit


def pit_of(action: int) -> tuple[str, int]:
    """The side and pit (1..6) of OpenSpiel's ``action`` (1..6 player 0's, 8..13 player 1's)."""
    if 1 <= action <= PITS:
        return SOUTH, action
    if PITS + 2 <= action <= SIZE - 1:
        return NORTH, action - PITS - 1
    raise ValueError(f"OpenSpiel action {action} is not a pit")


def our_board(theirs: Sequence[float]) -> tuple[int, ...]:
    """OpenSpiel's 14 counts (its observation tensor's first 14 numbers) in our layout, unswept."""
    counts = [int(value) for value in theirs[:SIZE]]
    return tuple(counts[(index + 1) % SIZE] for index in range(SIZE))


def their_board(ours: Sequence[int]) -> tuple[int, ...]:
    """Our 14-count board in OpenSpiel's layout (the inverse of ``our_board``)."""
    if len(ours) != SIZE:
        raise ValueError(f"OpenSpiel plays {PITS} pits a side, not {len(ours) // 2 - 1}")
    return tuple(ours[(index - 1) % SIZE] for index in range(SIZE))
