"""Which strength is a fair match for a first-time visitor: the kiosk's three strengths against a novice.

Why a model and not people: the kiosk's default must be chosen before any
visitor has played it.  The novice here is a first-time visitor who has just
read the rules card: most of the time they use the two rules the card shows
(a move that ends in their own store, for the extra turn; else the biggest
capture in sight), and otherwise, or one move in four, they touch any legal
pit.  It is crude, and it says so; the figures it gives are the only reason
for the default in ``kiosk.sample.toml`` (docs/kiosk.md says which).

The PDP-1's side is the reference engine (the PDP-1 mirrors it move for move):
``gentle`` a one-ply search, ``fair`` four plies, ``full`` the default level.
The visitor moves first, as the shipped kiosk has it; every game is seeded.

May import: ``reference``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..reference.rules import SOUTH, STANDARD, Position, play, start_position
from ..reference.search import best_move, level_move

STRENGTHS = {"gentle": 1, "fair": 4, "full": 0}  # the kiosk's choices (kiosk.config.STRENGTH_CHOICES)
SIZES = {"quick": (4, 3), "classic": (6, 4)}
SLIP = 0.25  # the share of moves a novice makes without looking for the rules' chances


def novice_move(position: Position, rng: random.Random) -> int:
    """A first-time visitor's pit: an extra turn if one is in sight, else the biggest capture, else any."""
    legal = position.legal_pits()
    if rng.random() < SLIP:
        return rng.choice(legal)
    results = {pit: play(position, pit, STANDARD) for pit in legal}
    again = [pit for pit, r in results.items() if r.extra_turn]
    if again:
        return max(again)  # the pit nearest the store, as the card's picture shows
    best = max(r.captured for r in results.values())
    if best:
        return rng.choice([pit for pit, r in results.items() if r.captured == best])
    return rng.choice(legal)


def pdp1_move(position: Position, strength: str) -> int:
    depth = STRENGTHS[strength]
    return level_move(position).pit if depth == 0 else best_move(position, depth).pit


@dataclass
class Record:
    """The novice's results against one strength at one size."""

    size: str
    strength: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    margins: list[int] = field(default_factory=list)  # the novice's final margin, each game

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def line(self) -> str:
        mean = sum(self.margins) / len(self.margins)
        return (f"  {self.size:8s}{self.strength:8s}{self.games:6d} games: the novice wins {self.wins:3d} "
                f"({100 * self.wins / self.games:3.0f} %), draws {self.draws:2d}, loses {self.losses:3d}; "
                f"mean margin {mean:+.1f}")


def play_one(size: str, strength: str, rng: random.Random) -> int:
    """One game, the novice (South) first; the novice's final margin."""
    position = start_position(*SIZES[size])
    while not position.over:
        pit = novice_move(position, rng) if position.to_move == SOUTH else pdp1_move(position, strength)
        position = play(position, pit, STANDARD).position
    return position.margin(SOUTH)


def measure(games: int, seed: int) -> list[Record]:
    """``games`` games at each size and strength, every one seeded from ``seed``, size and strength."""
    records = []
    for size in SIZES:
        for strength in STRENGTHS:
            record = Record(size, strength)
            rng = random.Random(f"{seed}-{size}-{strength}")
            for _ in range(games):
                margin = play_one(size, strength, rng)
                record.margins.append(margin)
                if margin > 0:
                    record.wins += 1
                elif margin < 0:
                    record.losses += 1
                else:
                    record.draws += 1
            records.append(record)
    return records


def report(records: list[Record], seed: int) -> str:
    lines = [f"first visit: a novice (extra turns, then captures, one move in {round(1 / SLIP)} anywhere) "
             f"moving first against each strength, seed {seed}"]
    lines += [r.line() for r in records]
    return "\n".join(lines)

