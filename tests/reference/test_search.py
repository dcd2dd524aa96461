"""The reference search's contract: value, chosen pit, node count, move order, depth limits.

The value and pit are checked against a plain minimax without pruning (written
here from the contract, not from the implementation); node counts against a
hand trace and against pinned figures that the PDP-1 program must reproduce.
"""

from __future__ import annotations

import random

import pytest

from python_bridge.reference.notation import parse_position
from python_bridge.reference.rules import NORTH, SOUTH, Position, Variants, other, play, start_position
from python_bridge.reference.search import (
    MAX_DEPTH,
    MIN_DEPTH,
    SearchError,
    best_move,
    move_order,
    pie_swap,
    root_order,
)


def minimax(position: Position, view: str, depth: int, variants: Variants, total: int) -> int:
    """The contract's value with no pruning: margin for ``view`` at depth 0, game over or decided; a ply per move.

    Decided: a store holds more than half of ``total``, the seeds on the root's board.
    """
    m = position.pits
    decided = 2 * max(position.board[m], position.board[2 * m + 1]) > total
    if depth == 0 or position.over or decided:
        return position.margin(view)
    return max(child_value(position, pit, view, depth, variants, total) for pit in position.legal_pits())


def child_value(position: Position, pit: int, view: str, depth: int, variants: Variants, total: int) -> int:
    """The value for ``view`` of playing ``pit``: the mover keeps the view on an extra turn or the end."""
    child = play(position, pit, variants).position
    if child.over or child.to_move == view:
        return minimax(child, view, depth - 1, variants, total)
    return -minimax(child, other(view), depth - 1, variants, total)


def random_position(rng: random.Random) -> Position:
    """A small position from a random game: m 1..4, n 1..4, 0..12 random moves in."""
    position = start_position(rng.randint(1, 4), rng.randint(1, 4))
    for _ in range(rng.randint(0, 12)):
        if position.over:
            break
        position = play(position, rng.choice(position.legal_pits())).position
    return position


def random_cases(count: int, seed: int) -> list[tuple[Position, int, Variants]]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        position = random_position(rng)
        if not position.over:
            variants = Variants(*(rng.random() < 0.3 for _ in range(4)))
            cases.append((position, rng.randint(1, 5), variants))
    return cases


@pytest.mark.parametrize("position, depth, variants", random_cases(150, seed=20240601))
def test_value_and_pit_match_plain_minimax(position: Position, depth: int, variants: Variants) -> None:
    result = best_move(position, depth, variants)
    view = position.to_move
    total = sum(position.board)
    values = {pit: child_value(position, pit, view, depth, variants, total) for pit in position.legal_pits()}
    best = max(values.values())
    # The tie-break: the first pit in move order that reaches the value.
    assert result.pit == next(pit for pit in move_order(position) if values[pit] == best)
    assert result.value == best


@pytest.mark.parametrize("position, depth, variants", random_cases(60, seed=20261201))
def test_first_pit_is_tried_first_and_keeps_the_value(position: Position, depth: int, variants: Variants) -> None:
    # The root's first pit changes the order and so the node count and (on ties) the pit,
    # never the value; the pit chosen is the first of the new order to reach it.
    plain = best_move(position, depth, variants)
    for first in position.legal_pits():
        result = best_move(position, depth, variants, first)
        assert result.value == plain.value
        values = {pit: child_value(position, pit, position.to_move, depth, variants, sum(position.board))
                  for pit in position.legal_pits()}
        order = root_order(position, first)
        assert order[0] == first and sorted(order) == sorted(move_order(position))
        assert result.pit == next(pit for pit in order if values[pit] == result.value)


def test_a_decided_game_is_a_leaf_below_the_root() -> None:
    # 2 pits, 10 seeds in all: South's store holds 6 (more than half).  Below the root every
    # position is decided, so depth 5 visits the root and its children only.
    position = parse_position("1 1 6 1 1 0 s")
    deep = best_move(position, 5)
    assert deep.nodes == 1 + len(position.legal_pits())
    assert deep.value == best_move(position, 1).value


def test_node_count_hand_trace() -> None:
    # m = 2, "1 1 0 1 1 0 s", depth 2.  Move order [2, 1] (pit 2's one seed reaches the store).
    # root (1); pit 2: extra turn (2) -> pit 1 captures 1+1 and ends the game, leaf (3): value 2;
    # pit 1: North to move (4), window (-100, -2); North's pit 2 is an extra turn, leaf (5) with
    # North's margin 1 >= -2: cut-off.  Five nodes, pit 2, value 2.
    position = parse_position("1 1 0 1 1 0 s")
    assert move_order(position) == [2, 1]
    result = best_move(position, 2)
    assert (result.pit, result.value, result.nodes) == (2, 2, 5)


def test_depth_one_counts_root_and_children() -> None:
    result = best_move(parse_position("1 1 0 1 1 0 s"), 1)
    assert (result.pit, result.value, result.nodes) == (2, 1, 3)
    assert best_move(start_position(), 1).nodes == 1 + 6


def test_game_ending_child_is_a_leaf() -> None:
    # m = 1: the only move sows store + North's pit; South is empty, North sweeps 2: margin 1 - 2.
    result = best_move(parse_position("2 0 1 0 s"), 5)
    assert (result.pit, result.value, result.nodes) == (1, -1, 2)


# Pinned answers from the standard start: the PDP-1 program must print exactly these lines.
PINNED_START = {
    1: "best 3 value 1 nodes 7",
    2: "best 3 value 2 nodes 17",
    3: "best 3 value 1 nodes 32",
    4: "best 6 value 1 nodes 109",
    5: "best 3 value 2 nodes 246",
    6: "best 6 value 3 nodes 538",
    7: "best 6 value 3 nodes 880",
}


@pytest.mark.parametrize("depth", sorted(PINNED_START))
def test_pinned_start_answers(depth: int) -> None:
    assert best_move(start_position(), depth).line() == PINNED_START[depth]


def test_node_counts_are_deterministic() -> None:
    for position, depth, variants in random_cases(20, seed=7):
        first, second = best_move(position, depth, variants), best_move(position, depth, variants)
        assert first == second


def test_move_order() -> None:
    assert move_order(start_position()) == [3, 6, 5, 4, 2, 1]
    # Several extra-turn pits: nearest the store first, then the rest from pit m down.
    assert move_order(parse_position("2 4 0 3 2 1 0 4 4 4 4 4 4 0 s")) == [6, 5, 4, 2, 1]
    assert move_order(parse_position("4 4 4 4 4 4 0 0 7 1 3 0 1 0 n")) == [6, 4, 3, 2]


def test_depth_limits() -> None:
    position = start_position()
    for depth in (MIN_DEPTH - 1, MAX_DEPTH + 1, -1):
        with pytest.raises(SearchError):
            best_move(position, depth)
    small = parse_position("1 1 0 1 1 0 s")  # over within a few plies: every legal depth gives the same value
    assert best_move(small, MIN_DEPTH).pit == 2
    assert best_move(small, MAX_DEPTH).value == best_move(small, 10).value == 2


def test_deeper_search_can_change_the_answer() -> None:
    # Depth is honoured: the start's value differs between depths 1, 2 and 6 (see the pinned lines).
    values = {depth: best_move(start_position(), depth).value for depth in (1, 2, 6)}
    assert values == {1: 1, 2: 2, 6: 3}


def test_no_search_of_a_finished_game() -> None:
    with pytest.raises(SearchError):
        best_move(parse_position("0 0 0 0 0 0 24 0 0 0 0 0 0 24 e"), 3)


def test_pie_swap_when_north_is_behind() -> None:
    behind = parse_position("0 0 0 0 0 1 30 1 0 0 0 0 0 10 n")
    swap, result = pie_swap(behind, 4)
    assert swap and result.value < 0
    ahead = parse_position("0 0 0 0 0 1 10 1 0 0 0 0 0 30 n")
    swap, result = pie_swap(ahead, 4)
    assert not swap and result.value > 0


def test_pie_swap_keeps_its_side_on_a_tie() -> None:
    # m = 1: North's one seed goes to its store, North is empty, South sweeps its one seed: 5 - 5.
    level = parse_position("1 4 1 4 n")
    swap, result = pie_swap(level, 3)
    assert result.value == 0 and not swap


def test_search_sees_north_view() -> None:
    # The value is always from the side to move: mirror a position and the value is the same.
    south = parse_position("1 2 0 3 5 0 1 2 0 1 1 2 0 4 s")
    north = parse_position("2 0 1 1 2 0 4 1 2 0 3 5 0 1 n")
    assert best_move(south, 5).value == best_move(north, 5).value
    assert best_move(south, 5).pit == best_move(north, 5).pit
    assert south.to_move == SOUTH and north.to_move == NORTH
