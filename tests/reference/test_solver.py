"""The solver: its fast rules equal ``kalah_rules``, its values equal a plain minimax and the literature.

The published values (``solver_published``) are for the empty-capture rule of
Irving, Donkers & Uiterwijk (2000).  Small configurations run by default; the
ones that take from seconds to minutes are marked slow: ``pytest -m slow``.
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from python_bridge.reference.fast_rules import END, EXTRA, PASS, FastRules
from python_bridge.reference.published import (
    EMPTY_CAPTURE_MARGIN,
    EMPTY_CAPTURE_OUTCOME,
    check_empty_capture,
    outcome,
)
from python_bridge.reference.rules import NORTH, SOUTH, Position, RulesError, Variants, play, start_position
from python_bridge.reference.solver import Solver, solve_report, solve_start

ALL_VARIANTS = [Variants(*flags) for flags in itertools.product([False, True], repeat=4)]
EMPTY_CAPTURE = Variants(empty_capture=True)


# --- the fast rules are the rules ----------------------------------------------------------


def random_board(rng: random.Random, m: int) -> Position:
    cells = [0] * (2 * m)
    for _ in range(rng.randint(1, 60)):
        cells[rng.randrange(2 * m)] += 1
    side = rng.choice([SOUTH, NORTH])
    own = 0 if side == SOUTH else m
    if not any(cells[own:own + m]):
        cells[own + rng.randrange(m)] = 1
    board = tuple(cells[:m]) + (rng.randint(0, 6),) + tuple(cells[m:]) + (rng.randint(0, 6),)
    return Position(board, side)


@pytest.mark.parametrize("seed", range(8))
def test_fast_children_equal_play(seed: int) -> None:
    variants = ALL_VARIANTS[2 * seed]  # every set without the pie rule, which does not touch a move
    rng = random.Random(seed)
    for m in range(1, 7):
        rules = FastRules(m, variants)
        for _ in range(60):
            position = random_board(rng, m)
            side = position.to_move
            children = {pit: (kind, gain, board) for pit, kind, gain, board in rules.children(rules.encode(position))}
            assert sorted(children) == position.legal_pits()
            for pit, (kind, gain, board) in children.items():
                new = play(position, pit, variants).position
                assert gain == new.margin(side) - position.margin(side)
                if new.over:
                    assert kind == END and board == 0
                elif new.to_move == side:
                    assert kind == EXTRA and board == rules.encode(new)
                else:
                    assert kind == PASS and board == rules.encode(new)


def test_board_helpers() -> None:
    rules = FastRules(6, Variants())
    board = rules.encode(Position((1, 2, 3, 4, 5, 6, 9, 7, 8, 9, 10, 11, 0, 9), NORTH))
    assert rules.pits(board) == ([7, 8, 9, 10, 11, 0], [1, 2, 3, 4, 5, 6])
    assert rules.seeds(board) == 66
    assert rules.pits(rules.flip(board)) == ([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 0])


# --- values equal a plain minimax over kalah_rules --------------------------------------------


def minimax_south(position: Position, variants: Variants, memo: dict[Position, int]) -> int:
    """South's final margin under perfect play, by plain minimax over ``play`` (memoised)."""
    if position.over:
        return position.margin(SOUTH)
    if position not in memo:
        values = [minimax_south(play(position, pit, variants).position, variants, memo)
                  for pit in position.legal_pits()]
        memo[position] = max(values) if position.to_move == SOUTH else min(values)
    return memo[position]


def pie_minimax(position: Position, variants: Variants, memo: dict[Position, int]) -> int:
    """The opener's value under the pie rule, straight from its definition (South's first turn, then |.|)."""
    best = -1000
    for pit in position.legal_pits():
        new = play(position, pit, variants).position
        if new.over:
            best = max(best, new.margin(SOUTH))
        elif new.to_move == SOUTH:
            best = max(best, pie_minimax(new, variants, memo))
        else:  # North keeps its seat (South's margin v) or swaps (the opener gets -v): North picks the worse for it
            best = max(best, -abs(minimax_south(new, variants, memo)))
    return best


SMALL = [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]


@pytest.mark.parametrize("variants", ALL_VARIANTS, ids=lambda v: v.describe())
def test_start_values_equal_minimax(variants: Variants) -> None:
    for m, n in SMALL:
        memo: dict[Position, int] = {}
        start = start_position(m, n)
        expected = pie_minimax(start, variants, memo) if variants.pie_rule else minimax_south(start, variants, memo)
        assert solve_start(m, n, variants) == expected, (m, n)


@pytest.mark.parametrize("variants", ALL_VARIANTS[::2], ids=lambda v: v.describe())
def test_mid_game_values_equal_minimax(variants: Variants) -> None:
    """Many windows and table states: the value of random mid-game positions, stores included."""
    rng = random.Random(99)
    for m, most in ((2, 4), (3, 3)):  # boards whose whole game tree a plain minimax walks in a second
        solver = Solver(m, variants, exact_seeds=3)  # mostly bound search, little exact table
        memo: dict[Position, int] = {}
        for _ in range(25):
            position = start_position(m, rng.randint(2, most))
            for _ in range(rng.randint(0, 6)):
                if position.over:
                    break
                position = play(position, rng.choice(position.legal_pits()), variants).position
            if position.over:
                continue
            side = position.to_move
            value = position.margin(side) + solver.value(solver.rules.encode(position), guess=rng.randint(-5, 5))
            south = value if side == SOUTH else -value
            assert south == minimax_south(position, variants, memo)


def test_pie_value_is_never_above_the_best_first_turn_end() -> None:
    # Under the pie rule the opener gets -|x| unless the first turn ends the game.
    for m, n in SMALL:
        assert solve_start(m, n, Variants(pie_rule=True)) <= max(0, solve_start(m, n, Variants()))


def test_bad_size_is_a_rules_error() -> None:
    with pytest.raises(RulesError):
        solve_start(7, 4, Variants())
    with pytest.raises(RulesError):
        solve_start(6, 0, Variants())


def test_report_counts_work() -> None:
    value, stats = solve_report(4, 3, EMPTY_CAPTURE)
    assert value == 8 and stats.nodes > 0 and stats.passes >= 1 and stats.table_size > 0


# --- the published values (empty capture) ----------------------------------------------------

FAST = [(m, n) for m in (1, 2, 3) for n in range(1, 7)] + [(4, 1), (4, 2), (4, 3), (4, 4), (5, 1), (5, 2),
                                                          (6, 1), (6, 2)]
SLOW = [(5, 3), (4, 5), (5, 4), (6, 3)]


def assert_published(m: int, n: int) -> None:
    value = solve_start(m, n, EMPTY_CAPTURE)
    assert check_empty_capture(m, n, value).startswith("match"), check_empty_capture(m, n, value)
    assert outcome(value) == EMPTY_CAPTURE_OUTCOME[(m, n)]
    if (m, n) in EMPTY_CAPTURE_MARGIN:
        assert value == EMPTY_CAPTURE_MARGIN[(m, n)]


@pytest.mark.parametrize("m, n", FAST)
def test_published_values(m: int, n: int) -> None:
    assert_published(m, n)


@pytest.mark.slow
@pytest.mark.parametrize("m, n", SLOW)
def test_published_values_slow(m: int, n: int) -> None:
    assert_published(m, n)


def test_published_table_is_consistent() -> None:
    """Table 9's margins agree with Table 10's outcomes wherever both exist."""
    for key, margin in EMPTY_CAPTURE_MARGIN.items():
        if key in EMPTY_CAPTURE_OUTCOME:
            assert outcome(margin) == EMPTY_CAPTURE_OUTCOME[key]
    assert len(EMPTY_CAPTURE_OUTCOME) == 35  # every m, n <= 6 but (6, 6)


@functools.cache
def _standard(m: int, n: int) -> int:
    return solve_start(m, n, Variants())


def test_empty_capture_changes_values() -> None:
    # Which rule set a table uses matters: e.g. Kalah(2, 2) is lost by 2 with empty capture...
    assert solve_start(2, 2, EMPTY_CAPTURE) == -2
    # ...and both rule sets agree with their own plain minimax (test_start_values_equal_minimax).
    assert _standard(2, 2) == minimax_south(start_position(2, 2), Variants(), {})
