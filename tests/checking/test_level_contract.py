"""The default level's contract on the PDP-1: the root's first pit, the decided game and the best-move table,
exactly mirrored.

The level is checked as play mode thinks (``checking.thinking.Thinker``): the
PDP-1's pit and value, and every position its deepening counted (``nlo``
against ``level_move``'s total, abandoned search included), on positions of
seeded games in every pit count the level is played at and every variant.

``make test`` checks a sample: the standard rule at six, four and three pits and one position where the
table changes the depth; ``make test-slow`` (pytest -m slow) adds the other variants and positions.
"""

from __future__ import annotations

import random

import pytest

from python_bridge.bench.contract_study import KEPT, StudySearcher
from python_bridge.checking.thinking import Thinker
from python_bridge.reference.notation import parse_position
from python_bridge.reference.rules import ENDED, Variants, play, start_position
from python_bridge.reference.search import NODE_BUDGET, best_move, level_move, root_order, uses_table


def _positions(pits: int, seeds: int, count: int, seed: int) -> list:
    """``count`` positions from one seeded game each: random openings, then depth-3 play."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pos = start_position(pits, seeds)
        plies = rng.randint(2, 30)
        for ply in range(plies):
            if pos.to_move == ENDED:
                break
            pit = rng.choice(pos.legal_pits()) if ply < 3 else best_move(pos, 3).pit
            pos = play(pos, pit).position
        if pos.to_move != ENDED:
            found.append(pos)
    return found


SAMPLE = [(6, 4, Variants(), 2, 1), (4, 3, Variants(), 2, 5), (3, 3, Variants(empty_capture=True), 1, 7)]
REST = [(6, 4, Variants(empty_capture=True), 1, 2), (6, 4, Variants(deferred_end=True), 1, 3),
        (6, 4, Variants(remainder_void=True), 1, 4), (5, 4, Variants(), 1, 6)]
CASES = SAMPLE + [pytest.param(*case, marks=pytest.mark.slow) for case in REST]


@pytest.mark.parametrize("pits, seeds, variants, count, seed", CASES)
def test_the_pdp1_level_counts_and_chooses_as_the_reference(kalah_tape, pits, seeds, variants, count, seed) -> None:
    with Thinker(pits, variants) as thinker:
        for pos in _positions(pits, seeds, count, seed):
            measured = thinker.measure(pos)  # raises ThinkMismatch on any difference, counts included
            assert measured.nodes == level_move(pos, variants).nodes


def test_the_decided_game_is_searched_as_the_reference_says(kalah_tape) -> None:
    # South's store holds 25 of 48 seeds: every position below the root is a leaf, so the
    # deepening runs to depth 20 at a few positions a search.
    pos = parse_position("0 3 2 0 1 4 25 2 0 3 1 0 2 5 s")
    level = level_move(pos)
    assert level.depth == 20 and level.nodes == 20 * (1 + len(pos.legal_pits()))
    with Thinker(6) as thinker:
        measured = thinker.measure(pos)
    assert (measured.pit, measured.value, measured.nodes) == (level.pit, level.value, level.nodes)


def test_the_first_pit_reorders_the_root_only() -> None:
    pos = start_position(6, 4)
    assert root_order(pos, 2) == [2, 3, 6, 5, 4, 1]
    assert root_order(pos, 0) == [3, 6, 5, 4, 2, 1] == root_order(pos, 7)


@pytest.mark.parametrize("count", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_the_best_move_table_is_mirrored_where_it_changes_the_depth(kalah_tape, count) -> None:
    """Positions where the table changes the depth the level reaches (against the same deepening without
    it), so that a PDP-1 ignoring or misreading its table could not agree by chance."""
    no_table = KEPT - {"table"}
    candidates = [p for p in _positions(6, 4, 16, 8) if uses_table(p)]
    changed = [p for p in candidates
               if StudySearcher(no_table, NODE_BUDGET).level(p)[0] != level_move(p).depth][:count]
    assert len(changed) == count
    with Thinker(6) as thinker:
        for pos in changed:
            measured = thinker.measure(pos)  # raises ThinkMismatch on any difference, the depth reached included
            assert (measured.nodes, measured.depth) == (level_move(pos).nodes, level_move(pos).depth)
