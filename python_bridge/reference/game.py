"""A game in progress: position, record, and the pie rule's seat exchange.

The rules module knows boards; this module knows players.  Under the pie rule
North may, on its first turn only, swap instead of moving: the board and the
side to move stay as they are, and the two players exchange seats, so the
player who opened now plays North and moves next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .notation import SWAP
from .rules import NORTH, SOUTH, MoveResult, Position, RulesError, Variants, play, start_position


@dataclass
class Game:
    """A game from its start position, with everything played so far."""

    position: Position
    variants: Variants = field(default_factory=Variants)
    record: list[int | str] = field(default_factory=list)
    seats_swapped: bool = False  # True after a pie-rule swap: the opener now sits North
    north_has_played: bool = False

    @classmethod
    def new(cls, pits: int = 6, seeds: int = 4, variants: Variants | None = None) -> "Game":
        return cls(start_position(pits, seeds), variants or Variants())

    @property
    def swap_offered(self) -> bool:
        """True when North may answer South's first turn with a swap."""
        return (
            self.variants.pie_rule
            and not self.north_has_played
            and not self.seats_swapped
            and self.position.to_move == NORTH
        )

    def opener_side(self) -> str:
        """The side the player who moved first sits on now."""
        return NORTH if self.seats_swapped else SOUTH

    def move(self, pit: int) -> MoveResult:
        """Play ``pit`` for the side to move and record it."""
        result = play(self.position, pit, self.variants)
        if self.position.to_move == NORTH:
            self.north_has_played = True
        self.position = result.position
        self.record.append(pit)
        return result

    def swap(self) -> None:
        """Use the pie rule: exchange seats, leave the board and the side to move as they are."""
        if not self.swap_offered:
            raise RulesError("a swap is allowed only as North's answer to South's first turn, under the pie rule")
        self.seats_swapped = True
        self.record.append(SWAP)

    def apply(self, move: int | str) -> MoveResult | None:
        """Play one record entry (a pit or ``swap``)."""
        if move == SWAP:
            self.swap()
            return None
        return self.move(int(move))

    @classmethod
    def replay(cls, start: Position, variants: Variants, record: list[int | str]) -> "Game":
        """Rebuild a game from its start and record (used to restore a game after a restart)."""
        game = cls(start, variants)
        for move in record:
            game.apply(move)
        return game
