"""The cross-checker's verdicts on event streams that differ from the reference in one way each.

The real emulator never produces these (every game in the emulator tests
agrees with the reference), so they are built by hand from what the parser
would give; each must stop the check with a report that reproduces it.
"""

from __future__ import annotations

import pytest

from python_bridge.driver.crosscheck import CrossChecker, CrossCheckMismatch
from python_bridge.machine.transcript import Board, GameOver, Move, Prompt, Swap, Title, TranscriptParser
from python_bridge.reference.rules import Variants, start_position
from python_bridge.reference.search import best_move

TITLE = Title(pits=3, seeds=2, level=2, variants=Variants(), first="you")
OPENING = Board("pdp-1", (2, 2, 2), 0, 0, (2, 2, 2), "you")


def checker() -> CrossChecker:
    c = CrossChecker(TITLE)
    c.on_event(OPENING)
    return c


def test_the_opening_agrees() -> None:
    c = checker()
    c.on_event(Prompt(swap_offered=False))
    c.on_event(Move("you", 3, 0, False))  # south pit 3 (2 seeds): into the store and north pit 1
    c.on_event(Board("pdp-1", (2, 2, 3), 0, 1, (2, 2, 0), "you"))
    assert c.moves_checked == 1


def test_a_move_before_the_board_is_drawn() -> None:
    c = CrossChecker(TITLE)
    with pytest.raises(CrossCheckMismatch, match="before the board was drawn"):
        c.on_event(Move("you", 1, 0, False))


def test_a_wrong_board_is_reported_with_both_positions() -> None:
    c = checker()
    c.on_event(Move("you", 3, 0, False))
    with pytest.raises(CrossCheckMismatch) as report:
        c.on_event(Board("pdp-1", (2, 2, 3), 0, 1, (2, 2, 1), "you"))
    text = str(report.value)
    assert "the board differs" in text and "PDP-1:" in text and "reference:" in text
    assert "reproduce: python -m python_bridge ref best" in text


def test_the_pdp1_choosing_another_pit() -> None:
    c = checker()
    c.on_event(Move("you", 3, 0, False))
    c.on_event(Board("pdp-1", (2, 2, 3), 0, 1, (2, 2, 0), "you"))
    ref_pit = best_move(c.game.position, TITLE.level).pit
    wrong = next(p for p in c.game.position.legal_pits() if p != ref_pit)
    with pytest.raises(CrossCheckMismatch, match="chose another pit"):
        c.on_event(Move("pdp-1", wrong, 0, False))


def test_a_swap_without_the_pie_rule() -> None:
    c = checker()
    c.on_event(Move("you", 3, 0, False))
    c.on_event(Board("pdp-1", (2, 2, 3), 0, 1, (2, 2, 0), "you"))
    with pytest.raises(CrossCheckMismatch, match="no swap was on offer"):
        c.on_event(Swap("pdp-1"))


def test_a_wrong_score() -> None:
    c = CrossChecker(Title(1, 1, 1, Variants(), "you"))
    c.on_event(Board("pdp-1", (1,), 0, 0, (1,), "you"))
    c.on_event(Move("you", 1, 0, False))  # into the store; south is empty: the game ends
    c.on_event(Board("pdp-1", (0,), 1, 1, (0,), "you"))
    with pytest.raises(CrossCheckMismatch, match="score differs"):
        c.on_event(GameOver((("pdp-1", 1), ("you", 2)), None))


def test_the_parser_reads_what_the_program_types() -> None:
    text = ("\r\nkalah for the pdp-1\r\n3 pits, 2 seeds, level 2.\r\nyou move first.\r\n\r\n"
            "        3  2  1\r\n pdp-1  2  2  2\r\n     0           0\r\n        2  2  2  you\r\n        1  2  3\r\n"
            "your move? 3\r\nyou play 3.\r\n")
    events = TranscriptParser().feed(text)
    assert events == [TITLE, OPENING, Prompt(False), Move("you", 3, 0, False)]
    assert OPENING.position("s", "s") == start_position(3, 2)


@pytest.mark.parametrize("scores, winner, words", [
    ((("pdp-1", 1), ("you", 3)), "you", "pdp-1 1, you 3; you win"),
    ((("pdp-1", 9), ("you", 3)), "pdp-1", "pdp-1 9, you 3; pdp-1 wins"),
    ((("south", 8), ("north", 8)), None, "south 8, north 8; a draw"),
    ((("south", 10), ("north", 6)), "south", "south 10, north 6; south wins"),
])
def test_the_result_in_words_agrees_with_its_subject(scores, winner, words) -> None:
    assert GameOver(scores, winner).result() == words
