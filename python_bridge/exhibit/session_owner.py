"""What a game session (``game_session``) asks of whoever owns it, and how it says a game is left.

Why apart: the session is the exhibit's; its owners are the front ends' (the kiosk's gallery runner, an
online game with an ID), each deciding what a heartbeat, a kept game, a failed emulator or a timed reply
means to it.  This is the whole of what they must give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from ..driver.driver import Failure
from ..driver.game_records import SavedGame
from ..reference.game import Game
from .messages import ClientMessage


class Waiting(Protocol):
    """What an owner may do with the session while the PDP-1 waits for the demonstration player's move."""

    game_no: int

    def pause(self, seconds: float) -> None:
        """Wait, answering the page meanwhile."""

    def look_at_keyboard(self, asked: float) -> None:
        """The waiting machine looked at (and put to sleep)."""


class GameAborted(Exception):
    """Leave the game in play for a new one in ``next_mode`` (a touch in attract mode, an idle visitor)."""

    def __init__(self, next_mode: str, why: str) -> None:
        super().__init__(why)
        self.next_mode = next_mode


class Stopping(Exception):
    """The server is shutting down."""


@dataclass
class Command:
    """One accepted message from the page, with the way to answer its sender."""

    message: ClientMessage
    reply: Callable[[dict], None]


class SessionOwner(Protocol):
    """What a game session asks of whoever owns it (the kiosk's runner, an online game)."""

    def beat(self) -> None:
        """The session is making progress; raise ``Stopping`` when the server stops."""

    def demo_move(self, game: Game, session: Waiting, asked: float) -> str:
        """The demonstration player's keys, when the PDP-1 asks for a move in attract mode (at ``asked``)."""

    def keep(self, saved: SavedGame) -> None:
        """The game in progress (its result ``IN_PLAY``), to be resumed should the server restart."""

    def failed(self, failure: Failure) -> None:
        """The emulator failed (the driver replaces it, and restores the game if one is in play)."""

    def replied(self, seconds: float) -> None:
        """A reply to a visitor's move took ``seconds`` of wall time, from the move to the next question."""

    def paced(self, counted: float, wall: float) -> None:
        """A paced reply's counted 1960 seconds (thinking and typing) and the wall seconds it took."""
