"""The rules card's pictures (python_bridge/exhibit/static/rules.json) are positions of a real game.

Each picture names the moves that reach it from the start of a quick game (4 pits, 3 seeds, the
visitor first: South, at the bottom) and the visitor's move it shows.  The reference plays them: the
board drawn must be the board reached, and the arrows must be what the move does -- the seeds sown to
where the last one lands, the capture's two pits into the store, the end's seeds into their owners' stores.
"""

from __future__ import annotations

import json

import pytest

from python_bridge.reference.game import Game
from python_bridge.reference.rules import NORTH, SOUTH, opposite_index, pit_index, play, store_index
from tests.kiosk.kiosk_support import ROOT

RULES = json.loads((ROOT / "python_bridge" / "exhibit" / "static" / "rules.json").read_text(encoding="utf-8"))
M = RULES["pits"]


def cell(index: int) -> str:
    """The picture's name for a board index: b1..bm, t1..tm (the PDP-1's own pit numbers), sb, st."""
    if index == store_index(M, SOUTH):
        return "sb"
    if index == store_index(M, NORTH):
        return "st"
    return f"b{index + 1}" if index < M else f"t{index - M}"


def expected_arrows(before, pit: int) -> set[tuple[str, str]]:
    """What the visitor's ``pit`` does from ``before``, as arrows between cells."""
    result = play(before, pit)
    board = list(before.board)
    start = index = pit_index(M, SOUTH, pit)
    seeds, board[start] = board[start], 0
    while seeds:  # sown one by one, the PDP-1's store skipped: ``index`` is where the last seed lands
        index = (index + 1) % (2 * M + 2)
        if index != store_index(M, NORTH):
            board[index] += 1
            seeds -= 1
    arrows = {(cell(start), cell(index))}
    if result.captured:
        arrows |= {(cell(index), "sb"), (cell(opposite_index(M, index)), "sb")}
    if result.ended:  # one side has no seeds left: the other side's go to its owner's store
        for side, store in ((SOUTH, "sb"), (NORTH, "st")):
            pits = [pit_index(M, side, k) for k in range(1, M + 1)]
            arrows |= {(cell(i), store) for i in pits if board[i]}
    return arrows


@pytest.mark.parametrize("picture", RULES["pictures"], ids=lambda p: p["rule"])
def test_each_rules_picture_is_a_position_of_a_game_and_its_arrows_the_move(picture: dict) -> None:
    game = Game.new(M, RULES["seeds"])
    for move in picture["moves"]:
        game.move(move)
    pos = game.position
    assert pos.to_move == SOUTH, "the picture shows the visitor's move"
    assert picture["bottom"] == [pos.board[pit_index(M, SOUTH, k)] for k in range(1, M + 1)]
    assert picture["top"] == [pos.board[pit_index(M, NORTH, k)] for k in range(M, 0, -1)]  # its pit m at the left
    assert (picture["bottom_store"], picture["top_store"]) == (pos.store(SOUTH), pos.store(NORTH))
    assert {tuple(a) for a in picture["arrows"]} == expected_arrows(pos, picture["pit"])
    result = play(pos, picture["pit"])
    shows = {"sow": not (result.extra_turn or result.captured or result.ended), "again": result.extra_turn,
             "capture": result.captured > 1 and not result.ended, "end": result.ended}
    assert shows[picture["rule"]], (picture["rule"], result)
