"""Whoever answers the PDP-1's "your move?": the protocol, and the reference's own players.

The driver asks a ``Visitor`` for the keys to type whenever the program asks
for a move.  A person at a terminal, a touch screen or the demonstration's
script is a visitor of its front end's making; the two here are the
reference's, for games nobody watches (the cross-check, the figures).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..reference.game import Game
from ..reference.search import best_move


class VisitorQuit(Exception):
    """The visitor ended the session (end of input or interrupt)."""


class Visitor(Protocol):
    """Returns the keys to type (without the carriage return) for the position of ``game``."""

    def choose(self, game: Game) -> str: ...


@dataclass
class RandomVisitor:
    """Plays a random legal move (swapping now and then when offered); seeded, so games repeat."""

    rng: random.Random

    def choose(self, game: Game) -> str:
        if game.swap_offered and self.rng.random() < 0.5:
            return "s"
        return str(self.rng.choice(game.position.legal_pits()))


@dataclass
class SearchVisitor:
    """Plays the reference search's move at a fixed depth (never swaps)."""

    depth: int

    def choose(self, game: Game) -> str:
        return str(best_move(game.position, self.depth, game.variants).pit)
