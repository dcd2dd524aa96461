"""The demonstration player of attract mode: varied openings, then the reference search.

Its choice is a function of (seed, game number, record) alone, with no
hidden state: successive games differ (each game number draws other
openings), a series repeats exactly for a fixed seed (tests), and a game
restored after a server restart goes on as it would have.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..reference.game import Game
from ..reference.rules import MAX_PITS, SOUTH
from ..reference.search import best_move


@dataclass(frozen=True)
class AttractPlayer:
    seed: int
    game_no: int
    random_moves: int = 3  # moves of the game (both sides counted) below 2x this are random
    depth: int = 4

    def choose(self, game: Game) -> str:
        made = len(game.record)
        pos = game.position
        if made < 2 * self.random_moves:
            rng = random.Random(f"{self.seed}:{self.game_no}:{made}")
            if game.swap_offered and rng.random() < 0.3:
                return "s"
            legal = pos.legal_pits()
            first_move = made == 0 if pos.to_move == SOUTH else not game.north_has_played
            if first_move:
                # the attract games alternate who opens; between two games with the same opener the
                # demo player's first pit moves on by one, so no game repeats the one before it
                offset = random.Random(self.seed).randrange(MAX_PITS)
                return str(legal[(self.game_no // 2 + offset) % len(legal)])
            return str(rng.choice(legal))
        return str(best_move(pos, self.depth, game.variants).pit)
