"""The position notation and game records: exact text in, exact text out, strict errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from python_bridge.reference.notation import (
    SWAP,
    NotationError,
    format_position,
    format_record,
    parse_position,
    parse_record,
)
from python_bridge.reference.rules import ENDED, NORTH, SOUTH, Position

START = "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"


def test_parse_start() -> None:
    position = parse_position(START)
    assert position == Position((4,) * 6 + (0,) + (4,) * 6 + (0,), SOUTH)
    assert position.pits == 6 and position.store(SOUTH) == 0 and position.side_seeds(NORTH) == 24


def test_format_start() -> None:
    assert format_position(Position((4,) * 6 + (0,) + (4,) * 6 + (0,), SOUTH)) == START


def test_smallest_board_and_north_to_move() -> None:
    position = parse_position("0 3 2 1 n")
    assert position.pits == 1 and position.to_move == NORTH
    assert position.store(SOUTH) == 3 and position.store(NORTH) == 1


def test_finished_game() -> None:
    position = parse_position("0 0 0 0 0 0 30 0 0 0 0 0 0 18 e")
    assert position.to_move == ENDED and position.over and position.legal_pits() == []


def test_two_digit_counts() -> None:
    assert parse_position("12 0 0 0 0 0 30 0 0 0 0 0 6 24 s").board[0] == 12


@pytest.mark.parametrize(
    "text",
    [
        "",
        "s",
        " 4 4 0 4 4 0 s",  # leading space
        "4 4 0 4 4 0 s ",  # trailing space
        "4 4 0 4 4 0 s\n",  # trailing newline
        "4 4 0  4 4 0 s",  # double space
        "4\t4 0 4 4 0 s",  # tab
        "4 4 0 4 4 0 x",  # bad side
        "4 4 0 4 4 0 S",  # side letters are lower case
        "4 4 0 4 4 0",  # no side
        "4 4 0 4 a 0 s",  # not a count
        "4 4 0 4 -1 0 s",  # negative
        "4 4 0 4 100 0 s",  # three digits
        "4 4 0 4 ٤ 0 s",  # a non-ASCII digit
        "4 0 4 s",  # 3 counts: odd
        "4 0 s",  # 2 counts: m = 0
        " ".join(["1"] * 16) + " s",  # 16 counts: m = 7
        "4 4 4 0 4 4 4 s",  # 7 counts
        "40 40 0 0 0 0 s",  # 80 seeds: more than a game holds
        "0 0 5 4 4 0 s",  # South to move without seeds
        "4 4 0 0 0 5 n",  # North to move without seeds
        "1 0 5 0 0 3 e",  # finished game with seeds in a pit
    ],
)
def test_malformed_positions(text: str) -> None:
    with pytest.raises(NotationError):
        parse_position(text)


def test_records() -> None:
    assert parse_record("3 6 swap 1") == [3, 6, SWAP, 1]
    assert parse_record("  3\t6 \n") == [3, 6]
    assert parse_record("") == []
    assert format_record([3, 6, SWAP, 1]) == "3 6 swap 1"


@pytest.mark.parametrize("text", ["0", "7", "3 x", "SWAP", "-1", "1.5"])
def test_malformed_records(text: str) -> None:
    with pytest.raises(NotationError):
        parse_record(text)


@st.composite
def notation_texts(draw: st.DrawFn) -> str:
    """Well-formed notation: 2m+2 counts (at most 72 seeds), a side with seeds or a finished game."""
    m = draw(st.integers(1, 6))
    side = draw(st.sampled_from(["s", "n", "e"]))
    counts = draw(st.lists(st.integers(0, 5), min_size=2 * m + 2, max_size=2 * m + 2))
    if side == "e":
        counts = [c if i in (m, 2 * m + 1) else 0 for i, c in enumerate(counts)]
    else:
        first = 0 if side == "s" else m + 1
        counts[first + draw(st.integers(0, m - 1))] += 1
    return " ".join(map(str, counts)) + " " + side


@settings(max_examples=200, deadline=None, derandomize=True)
@given(notation_texts())
def test_round_trip(text: str) -> None:
    assert format_position(parse_position(text)) == text


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.integers(1, 6), st.just(SWAP)), max_size=20))
def test_record_round_trip(moves: list[int | str]) -> None:
    assert parse_record(format_record(moves)) == moves
