"""The best-move table's contract: its key, its entries, and that it orders moves without changing answers.

The key is checked against a second reading of the contract (the 18-bit rotation done on a
string of bits); the search's answers against the same search with an empty table.
"""

from __future__ import annotations

import random

from python_bridge.reference.rules import NORTH, SOUTH, Position, start_position
from python_bridge.reference.samples import varied_positions
from python_bridge.reference.search import (
    NODE_BUDGET,
    TABLE_SIZE,
    BestMoveTable,
    best_move,
    level_move,
    table_key,
    uses_table,
)


def key_by_bits(position: Position) -> int:
    """The contract's key, read a second way: a rotation as a string of 18 bits."""
    m = position.pits
    cells = [position.board[k] if k < m else 0 for k in range(6)]
    cells += [position.board[m + 1 + k] if k < m else 0 for k in range(6)]
    bits = format(0 if position.to_move == SOUTH else 1, "018b")
    for cell in cells:
        bits = bits[5:] + bits[:5]
        bits = format(int(bits, 2) ^ cell, "018b")
    return int(bits, 2)


def test_the_key_by_hand() -> None:
    # only south's pit 1 holds a seed: folded in first, it is rotated 11 times by 5, 55 = 1 mod 18 places
    lone = Position([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], SOUTH)
    assert table_key(lone) == 0o2
    # an empty row to move for north: the side's 1 is rotated 12 times, 60 = 6 mod 18 places
    empty = Position([0] * 14, NORTH)
    assert table_key(empty) == 0o100


def test_the_key_agrees_with_the_bits_reading() -> None:
    rng = random.Random(12)
    for _ in range(300):
        m = rng.randint(1, 6)
        board = [rng.randint(0, 48) for _ in range(2 * m + 2)]
        position = Position(board, rng.choice((SOUTH, NORTH)))
        assert table_key(position) == key_by_bits(position)


def test_the_stores_are_not_in_the_key_and_the_side_is() -> None:
    start = start_position(6, 4)
    stored = Position(start.board[:6] + (9,) + start.board[7:13] + (3,), SOUTH)
    assert table_key(stored) == table_key(start)
    assert table_key(Position(start.board, NORTH)) != table_key(start)


def test_small_boards_key_their_empty_pits_as_the_pdp1_board_holds_them() -> None:
    # three pits a side: south's pits sit in cells 1-3, north's in cells 7-9 of the 14-cell board
    small = Position([1, 2, 3, 0, 4, 5, 6, 0], SOUTH)
    wide = Position([1, 2, 3, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0], SOUTH)
    assert table_key(small) == table_key(wide)


def test_an_entry_answers_its_own_key_only() -> None:
    table = BestMoveTable()
    key = 0o123456
    table.remember(key, 4)
    assert table.hint(key) == 4
    assert table.words[BestMoveTable().index(key)] == 0o123450 | 4
    # another key that picks the same entry but differs in its check bits
    twin = key ^ 0o001001
    assert BestMoveTable().index(twin) == BestMoveTable().index(key)
    assert table.hint(twin) == 0
    table.remember(twin, 2)  # replaced whatever it held
    assert table.hint(key) == 0 and table.hint(twin) == 2


def test_the_index_uses_both_halves_of_the_key() -> None:
    assert BestMoveTable().index(0o000001) == 1
    assert BestMoveTable().index(0o001000) == 1
    assert BestMoveTable().index(0o001001) == 0
    assert all(0 <= BestMoveTable().index(k) < TABLE_SIZE for k in range(0, 0o777777, 0o1237))


def test_a_filled_table_changes_the_order_not_the_answer() -> None:
    changed = 0
    for position in varied_positions(30, seed=8):
        for depth in (4, 5, 6):
            table = BestMoveTable()
            best_move(position, depth - 1, table=table)
            ordered = best_move(position, depth, table=table)
            plain = best_move(position, depth)
            assert (ordered.pit, ordered.value) == (plain.pit, plain.value)
            changed += ordered.nodes != plain.nodes
    assert changed > 10  # the table is consulted and reorders


def test_the_default_level_reaches_deeper_with_its_table() -> None:
    positions = [p for p in varied_positions(60, seed=9) if uses_table(p)]
    with_table = sum(level_move(p).depth for p in positions)
    without = sum(deepening_without_table(p)[0] for p in positions)
    assert with_table > without



def deepening_without_table(position: Position) -> tuple[int, int]:
    """The default level's deepening, the last pit first, with no table: its depth and positions counted."""
    total, depth, pit = 0, 0, 0
    for d in range(1, 21):
        result = best_move(position, d, first=pit)
        if total + result.nodes > NODE_BUDGET:
            return depth, NODE_BUDGET + 1
        total, depth, pit = total + result.nodes, d, result.pit
    return depth, total


def test_the_table_serves_only_while_the_stores_hold_at_most_half() -> None:
    start = start_position(6, 4)
    assert uses_table(start)
    assert uses_table(Position((2,) * 6 + (18,) + (2,) * 6 + (6,), SOUTH))  # 24 of 48 stored: half
    assert not uses_table(Position((2,) * 5 + (1, 19) + (2,) * 6 + (6,), SOUTH))  # 25 of 48
    endgames = [p for p in varied_positions(80, seed=10) if not uses_table(p)]
    assert endgames
    for position in endgames:
        level = level_move(position)
        assert (level.depth, level.nodes) == deepening_without_table(position)


def test_a_fixed_depth_keeps_no_table() -> None:
    for position in varied_positions(10, seed=11):
        assert best_move(position, 6) == best_move(position, 6, table=None)
