"""The fast search (``fast_search``, ``fast_board``) against the readable one it replaces (``search.spec_*``).

The readable search is the specification: version 0.2.0's negamax on ``rules.play``.  Every caller
of ``search.best_move`` and ``level_move`` now gets the fast one, so it must answer exactly as the
readable one does -- pit, value and node count (the PDP-1's contract), at every depth, under every
variant set, from the root's first pit and with the best-move table -- and at the default level
also the depth kept and the positions counted.  The positions are seeded random games' (the same
every run); the sizes are kept small enough that the whole file takes a few seconds.
"""

from __future__ import annotations

import itertools
import random

import pytest

from python_bridge.driver.crosscheck import CrossChecker, CrossCheckMismatch
from python_bridge.machine.transcript import Move, Title
from python_bridge.reference import fast_search, search
from python_bridge.reference.fast_board import MOST_SEEDS, SOUTH_KEY, fits, tables_for
from python_bridge.reference.fast_search import Abandoned
from python_bridge.reference.rules import SOUTH, Position, Variants, play, start_position
from python_bridge.reference.search import (
    BestMoveTable,
    best_move,
    level_move,
    spec_best_move,
    spec_level_move,
    table_key,
)

EVERY_VARIANT_SET = [Variants(*flags) for flags in itertools.product((False, True), repeat=4)]


def random_position(rng: random.Random, variants: Variants, pits: tuple[int, int] = (1, 6),
                    seeds: tuple[int, int] = (1, 6), plies: int = 40) -> Position:
    """A position of a random game under ``variants`` (not over), of random size, 0 to ``plies`` moves in."""
    while True:
        position = start_position(rng.randint(*pits), rng.randint(*seeds))
        for _ in range(rng.randint(0, plies)):
            if position.over:
                break
            position = play(position, rng.choice(position.legal_pits()), variants).position
        if not position.over:
            return position


def cases(count: int, seed: int, depths: tuple[int, int]) -> list[tuple[Position, int, Variants, int]]:
    """(position, depth, variants, first pit) -- every variant set in turn, first pits 0, any pit or a legal one."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        variants = EVERY_VARIANT_SET[n % len(EVERY_VARIANT_SET)]
        position = random_position(rng, variants)
        first = rng.choice([0, rng.randint(1, position.pits)] + position.legal_pits())
        found.append((position, rng.randint(*depths), variants, first))
    return found


@pytest.mark.parametrize("position, depth, variants, first", cases(208, seed=19600101, depths=(1, 6)))
def test_the_same_pit_value_and_nodes_as_the_readable_search(position: Position, depth: int, variants: Variants,
                                                             first: int) -> None:
    assert best_move(position, depth, variants, first) == spec_best_move(position, depth, variants, first)


@pytest.mark.parametrize("position, depth, variants, first", cases(16, seed=19601231, depths=(7, 9)))
def test_the_same_deeper(position: Position, depth: int, variants: Variants, first: int) -> None:
    assert best_move(position, depth, variants, first) == spec_best_move(position, depth, variants, first)


def level_cases(count: int, seed: int) -> list[tuple[Position, Variants, int]]:
    """Default-level cases: every variant set, mostly 6 pits of 4 seeds (opening to endgame, so with the
    table and without it), budgets from a few hundred positions to the PDP-1's."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        variants = EVERY_VARIANT_SET[n % len(EVERY_VARIANT_SET)]
        size = (6, 6) if n % 4 else (2, 6)
        position = random_position(rng, variants, pits=size, seeds=(4, 4) if n % 4 else (1, 6), plies=50)
        found.append((position, variants, rng.choice((150, 600, 2000, search.NODE_BUDGET))))
    return found


@pytest.mark.parametrize("position, variants, budget", level_cases(48, seed=1960))
def test_the_default_level_keeps_the_same_search_and_counts_the_same(position: Position, variants: Variants,
                                                                      budget: int) -> None:
    """Pit, value, depth kept and positions counted, the abandoned search's budget+1 included."""
    assert level_move(position, variants, budget) == spec_level_move(position, variants, budget)


def test_the_level_cases_use_the_table_and_abandon_searches() -> None:
    """The cases above reach what they are there for: a table in use, and searches given up on the budget."""
    chosen = level_cases(48, seed=1960)
    assert sum(search.uses_table(p) for p, _, _ in chosen) >= 12
    assert sum(spec_level_move(p, v, b).nodes == b + 1 for p, v, b in chosen[:12]) >= 6


def test_a_shared_table_is_left_as_the_readable_search_leaves_it() -> None:
    """The default level's depths share one table: each search must leave every word as the readable one does."""
    rng = random.Random(7)
    for variants in EVERY_VARIANT_SET:
        position = random_position(rng, variants, pits=(6, 6), seeds=(4, 4), plies=8)
        fast, readable = BestMoveTable(), BestMoveTable()
        for depth in range(1, 7):
            first = rng.choice(position.legal_pits())
            assert (best_move(position, depth, variants, first, table=fast)
                    == spec_best_move(position, depth, variants, first, table=readable))
            assert fast.words == readable.words
        assert any(fast.words)


def test_a_smaller_table_too() -> None:
    """The contract study tries 256 words: the index takes the table's size, not 512."""
    position = random_position(random.Random(3), Variants(), pits=(6, 6), seeds=(4, 4), plies=6)
    fast, readable = BestMoveTable(256), BestMoveTable(256)
    for depth in range(1, 8):
        assert best_move(position, depth, table=fast) == spec_best_move(position, depth, table=readable)
    assert fast.words == readable.words


def test_the_key_is_the_pdp1_key() -> None:
    rng = random.Random(11)
    for _ in range(300):
        position = random_position(rng, Variants())
        tables = tables_for(position.pits, Variants())
        board, side = tables.encode(position)
        assert (side == SOUTH_KEY) == (position.to_move == SOUTH)
        assert tables.key(board, side) == table_key(position)


def test_progress_is_told_as_the_readable_search_tells_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 2**k positions (made small here: the readable search would take seconds for 65,536)."""
    monkeypatch.setattr(search, "PROGRESS_MASK", 0x3F)
    monkeypatch.setattr(fast_search, "PROGRESS_MASK", 0x3F)
    position = start_position(6, 4)
    heard: tuple[list[int], list[int]] = ([], [])
    assert best_move(position, 6, progress=heard[0].append) == spec_best_move(position, 6, progress=heard[1].append)
    assert heard[0] == heard[1] and len(heard[0]) > 5


def test_a_search_is_abandoned_exactly_when_it_passes_its_limit() -> None:
    position = random_position(random.Random(5), Variants(), pits=(6, 6), seeds=(4, 4), plies=10)
    nodes = spec_best_move(position, 5).nodes
    assert fast_search.fast_search(position, 5, Variants(), limit=nodes)[2] == nodes
    with pytest.raises(Abandoned):
        fast_search.fast_search(position, 5, Variants(), limit=nodes - 1)


def test_a_board_past_the_fast_one_goes_to_the_readable_search() -> None:
    """More seeds than a byte holds, or more pits than the PDP-1's board (and the table's key) has."""
    big = Position((100, 90, 80, 0, 1, 2, 3, 0), SOUTH)
    wide = Position((1,) * 7 + (0,) + (1,) * 7 + (0,), SOUTH)
    assert sum(big.board) > MOST_SEEDS and not fits(big) and not fits(wide)
    for position in (big, wide):
        for depth in (1, 3):
            assert best_move(position, depth) == spec_best_move(position, depth)
        assert level_move(position, budget=300) == spec_level_move(position, budget=300)


def test_the_errors_are_the_readable_searchs() -> None:
    with pytest.raises(search.SearchError):
        best_move(start_position(), 0)
    with pytest.raises(search.SearchError):
        level_move(Position((0, 5, 0, 3), "e"))
    with pytest.raises(search.SearchError, match="does not finish even depth 1"):
        level_move(start_position(), budget=3)


@pytest.mark.parametrize("level, variants", [(0, Variants()), (0, Variants(True, True, True, False)),
                                             (5, Variants(False, True, False, False))])
def test_the_cross_checker_on_the_fast_search_fails_a_move_the_readable_search_would_not_make(
        level: int, variants: Variants) -> None:
    """The checker asks the fast search; the pit it must see is the readable search's, and any other fails."""
    rng = random.Random(level + 7)
    checker = CrossChecker(Title(6, 4, level, variants, "both"))
    for _ in range(rng.randint(4, 9)):
        checker.game.move(rng.choice(checker.game.position.legal_pits()))
    position = checker.game.position
    if level == 0:
        chosen = spec_level_move(position, variants)
        expected = (False, chosen.pit, chosen.depth, chosen.nodes)
    else:
        result = spec_best_move(position, level, variants)
        expected = (False, result.pit, level, result.nodes)
    assert checker.reference_choice() == expected
    checker.pending_board = False  # as if the PDP-1 had drawn the board
    wrong = next(pit for pit in position.legal_pits() if pit != expected[1])
    with pytest.raises(CrossCheckMismatch, match="chose another pit"):
        checker.on_event(Move("south" if position.to_move == SOUTH else "north", wrong, 0, False))
