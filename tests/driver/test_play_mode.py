"""The PDP-1 program's play mode on the real SIMH: whole games, every move cross-checked."""

from __future__ import annotations

import itertools
import random

import pytest

from python_bridge.driver.crosscheck import CrossChecker
from python_bridge.driver.driver import play_games
from python_bridge.driver.visitors import RandomVisitor, SearchVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import KalahMachine
from python_bridge.machine.transcript import Board, Complaint, Prompt, Title, TranscriptParser
from python_bridge.reference.rules import Variants

ALL_VARIANTS = [Variants(*flags) for flags in itertools.product((False, True), repeat=4)]


@pytest.mark.parametrize("variants", ALL_VARIANTS, ids=lambda v: v.describe().replace(" ", "-"))
def test_whole_games_in_every_variant_combination(kalah_tape, variants: Variants) -> None:
    """Against a seeded random visitor, once with each side moving first; nothing unchecked."""
    rng = random.Random(hash(variants) & 0xFFFF)
    for pdp1_first in (False, True):
        panel = PanelSettings(pits=rng.randint(3, 6), seeds=rng.randint(2, 5), depth=3,
                              variants=variants, pdp1_first=pdp1_first)
        (outcome,) = play_games(panel, RandomVisitor(random.Random(rng.random())), 1)
        assert outcome.end is not None
        assert outcome.title.variants == variants
        assert outcome.moves_checked == len(outcome.record)
        assert outcome.choices_checked > 0


def test_a_standard_game_against_the_reference_search(kalah_tape) -> None:
    panel = PanelSettings(depth=4)
    outcomes = play_games(panel, SearchVisitor(depth=2), 2)
    assert all(o.end is not None for o in outcomes)
    assert outcomes[0].record == outcomes[1].record  # the same settings play the same game


def test_the_pdp1_plays_itself(kalah_tape) -> None:
    panel = PanelSettings(pits=4, seeds=3, depth=3, demo=True, variants=Variants(pie_rule=True))
    (outcome,) = play_games(panel, None, 1)
    assert outcome.title.first == "both"
    assert outcome.end is not None and outcome.end.scores[0][0] == "south"


def test_bad_keys_never_change_the_board_nor_halt_the_machine(kalah_tape) -> None:
    """Seeded random keystrokes at the prompt: a complaint and the prompt again, board untouched;
    then the game goes on from the same position, cross-checked."""
    rng = random.Random(1960)
    keys = "0789xqs-. ,/" + "\x7f"
    panel = PanelSettings(pits=4, seeds=3, depth=2)
    with KalahMachine(panel) as machine:
        sim = machine.sim
        parser = TranscriptParser()
        checker: CrossChecker | None = None
        boards: list[Board] = []

        def until_prompt() -> list:
            nonlocal checker
            seen: list = []
            while not any(isinstance(e, Prompt) for e in seen):
                for event in parser.feed(sim.read_some(10)):
                    if isinstance(event, Title):
                        checker = CrossChecker(event)
                    assert checker is not None
                    checker.on_event(event)
                    if isinstance(event, Board):
                        boards.append(event)
                    seen.append(event)
            return seen

        until_prompt()
        first_board = boards[-1]
        complaints = 0
        for _ in range(60):
            line = "".join(rng.choice(keys) for _ in range(rng.randint(0, 4)))
            sim.type(line + "\r")
            seen = until_prompt()
            complaints += sum(isinstance(e, Complaint) for e in seen)
            assert not any(isinstance(e, Board) for e in seen), f"{line!r} changed the board"
        assert complaints == 60
        assert boards[-1] == first_board
        sim.type("2\r")
        until_prompt()
        assert checker is not None and checker.moves_checked >= 1  # pit 2 was played and checked
