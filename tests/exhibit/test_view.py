"""The page's cells for a sowing (``exhibit.view``): the reference's sowing, mapped to the board as the page
draws it -- the PDP-1's row on top, its pit m at the left; the visitor's row below, pit 1 at the left."""

from __future__ import annotations

from python_bridge.exhibit.view import page_cell, sowing_path
from python_bridge.reference.notation import parse_position
from python_bridge.reference.rules import NORTH, SOUTH


def test_a_sowing_round_the_board_in_the_pages_cells() -> None:
    # 3 pits; South (at the bottom) plays pit 3 with 6 seeds: its store, North's 1, 2, 3, North's store
    # skipped, South's 1 and 2
    position = parse_position("1 1 6 0 1 1 1 0 s")
    assert sowing_path(position, 3, SOUTH) == [["bottom-store", 0], ["top", 2], ["top", 1], ["top", 0],
                                               ["bottom", 0], ["bottom", 1]]


def test_the_visitor_at_north_sits_at_the_bottom_too() -> None:
    # after a pie-rule swap the visitor plays North, still drawn at the bottom
    position = parse_position("1 1 1 0 1 1 6 0 n")
    assert sowing_path(position, 3, NORTH) == [["bottom-store", 0], ["top", 2], ["top", 1], ["top", 0],
                                               ["bottom", 0], ["bottom", 1]]
    assert page_cell(3, NORTH, 3) == ["top-store", 0] and page_cell(3, NORTH, 0) == ["top", 2]
