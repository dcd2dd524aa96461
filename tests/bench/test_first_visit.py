"""The first-visit model: a novice who uses the rules card's two chances, and seeded, repeatable matches."""

from __future__ import annotations

import random

from python_bridge.bench import first_visit
from python_bridge.bench.first_visit import measure, novice_move
from python_bridge.reference.notation import parse_position
from python_bridge.reference.rules import play


class NeverSlips(random.Random):
    """A generator whose first draw is never a slip (random() 0.99), the rest as seeded."""

    def random(self) -> float:  # type: ignore[override]
        return 0.99


def test_the_novice_takes_an_extra_turn_when_one_is_in_sight() -> None:
    position = parse_position("4 4 4 4 4 4 0 4 4 4 4 4 4 0 s")  # pit 3 ends in the store
    pit = novice_move(position, NeverSlips(1))
    assert play(position, pit).extra_turn and pit == 3


def test_without_an_extra_turn_the_novice_takes_the_biggest_capture() -> None:
    # south's pit 1 (one seed) lands in the empty pit 2, opposite north's pit 5 with 7 seeds
    position = parse_position("1 0 0 1 0 0 0 1 1 1 1 7 1 0 s")  # (pit 4 would capture 2)
    pit = novice_move(position, NeverSlips(1))
    assert play(position, pit).captured == 8 and pit == 1


def test_matches_are_seeded_and_add_up() -> None:
    first, again = measure(1, seed=7), measure(1, seed=7)
    assert [(r.size, r.strength, r.margins) for r in first] == [(r.size, r.strength, r.margins) for r in again]
    assert [(r.size, r.strength) for r in first] == [(s, t) for s in first_visit.SIZES for t in first_visit.STRENGTHS]
    for record in first:
        assert record.games == 1 == record.wins + record.draws + record.losses
        assert record.wins == sum(m > 0 for m in record.margins)
