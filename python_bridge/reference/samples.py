"""Seeded samples of 6-pit, 4-seed positions, the ones every depth and speed figure is measured on.

They live with the reference (they need only its rules and search) so that the
PDP-1's benchmark (``bench.figures``) and the contract study
(``bench.contract_study``) measure the same positions for the same seed.
"""

from __future__ import annotations

import random

from .rules import ENDED, NORTH, SOUTH, Position, play, start_position
from .search import best_move


def sample_positions(count: int, seed: int) -> list[Position]:
    """Positions from seeded games of the reference against itself (random first moves for variety)."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        pos = start_position(6, 4)
        for ply in range(120):
            if pos.to_move == ENDED:
                break
            positions.append(pos)
            pit = rng.choice(pos.legal_pits()) if ply < 3 else best_move(pos, rng.choice((2, 4))).pit
            pos = play(pos, pit).position
    rng.shuffle(positions)
    return positions[:count]


def varied_positions(count: int, seed: int, per_game: int = 8) -> list[Position]:
    """Positions of many different normal 6-pit, 4-seed games, at most ``per_game`` from each.

    Why: the default level's promise holds in every position of normal games,
    so its sample spans many games -- random openings of one to four moves,
    then players of unequal strength (searching 1 to 5 plies) -- and every
    stage of them, from the opening to the last moves.
    """
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        pos = start_position(6, 4)
        opening = rng.randint(1, 4)
        depth = {SOUTH: rng.randint(1, 5), NORTH: rng.randint(1, 5)}
        game = []
        for ply in range(200):
            if pos.to_move == ENDED:
                break
            game.append(pos)
            pit = rng.choice(pos.legal_pits()) if ply < opening else best_move(pos, depth[pos.to_move]).pit
            pos = play(pos, pit).position
        positions += rng.sample(game, min(per_game, len(game)))
    return positions[:count]


def is_midgame(position: Position) -> bool:
    """Past the opening (a store has seeds) with at least half the seeds still in the pits."""
    m = position.pits
    stores = position.board[m] + position.board[2 * m + 1]
    return stores > 0 and 2 * (sum(position.board) - stores) >= sum(position.board)
