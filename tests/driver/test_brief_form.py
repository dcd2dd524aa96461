"""The brief form (test word bit 1): the PDP-1 types its moves and no board but at the end, before it
offers the visitor a swap, or when the visitor types b, and the driver checks the board in core after
every move and swap instead."""

from __future__ import annotations

import os
import random
import signal

import pytest

from python_bridge.driver.crosscheck import CrossCheckMismatch
from python_bridge.driver.driver import DURING, Failure, FrontEnd, GameDriver, play_games
from python_bridge.driver.pacing import Pacer
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import TW_BRIEF, PanelSettings
from python_bridge.machine.kalah_program import program_symbols
from python_bridge.machine.transcript import Board, Move, TranscriptParser
from python_bridge.reference.game import Game
from python_bridge.reference.rules import Variants


def _boards(transcript: str) -> list[Board]:
    return [e for e in TranscriptParser().feed(transcript) if isinstance(e, Board)]


def test_the_brief_form_is_test_word_bit_1() -> None:
    assert TW_BRIEF == 0o200000
    assert PanelSettings(brief=True).test_word() == PanelSettings().test_word() | 0o200000
    assert PanelSettings(brief=True).switches() == PanelSettings().switches()


@pytest.mark.parametrize("panel", [
    PanelSettings(pits=4, seeds=3, depth=3, brief=True),
    PanelSettings(pits=5, seeds=3, depth=2, brief=True, pdp1_first=True, variants=Variants(pie_rule=True)),
    PanelSettings(pits=3, seeds=2, depth=2, brief=True, variants=Variants(empty_capture=True, deferred_end=True)),
    PanelSettings(pits=1, seeds=1, depth=1, brief=True),
    PanelSettings(pits=4, seeds=2, depth=2, brief=True, demo=True, variants=Variants(pie_rule=True,
                                                                                      remainder_void=True)),
], ids=["4x3", "pie-pdp1-first", "empty-capture-deferred", "1x1", "demo-pie-void"])
def test_brief_games_are_checked_move_by_move_with_one_board_at_the_end(panel: PanelSettings, kalah_tape) -> None:
    visitor = None if panel.demo else RandomVisitor(random.Random(panel.pits))
    for outcome in play_games(panel, visitor, 2):
        assert outcome.end is not None and outcome.moves_checked == len(outcome.record) > 0
        kinds = [type(e).__name__ for e in TranscriptParser().feed(outcome.transcript)]
        offered = panel.variants.pie_rule and panel.pdp1_first and not panel.demo  # the visitor may swap
        # the last position, after the last move and before the scores; and the one a swap would take over
        assert kinds.count("Board") == 1 + offered
        assert kinds[-3:] == ["Board", "GameOver", "NewGameOffer"]
        if offered:
            assert kinds.index("Board") == kinds.index("Prompt") - 1  # typed just before the question


def test_the_full_form_still_types_a_board_after_every_move(kalah_tape) -> None:
    (outcome,) = play_games(PanelSettings(pits=4, seeds=3, depth=3), RandomVisitor(random.Random(4)), 1)
    assert len(_boards(outcome.transcript)) == len(outcome.record) + 1  # the opening one, and one a move


class AsksForTheBoard:
    """A visitor who types b (or B, with spaces) before every move of theirs, then a random pit."""

    def __init__(self) -> None:
        self.rng, self.asked = random.Random(7), 0

    def choose(self, game: Game) -> str:
        if self.asked <= len(game.record):
            self.asked = len(game.record) + 1
            return " B " if len(game.record) % 2 else "b"
        return str(self.rng.choice(game.position.legal_pits()))


def test_b_types_the_board_and_asks_again(kalah_tape) -> None:
    (outcome,) = play_games(PanelSettings(pits=4, seeds=3, depth=2, brief=True), AsksForTheBoard(), 1)
    visitor_turns = outcome.transcript.count("your move? ") - outcome.transcript.count("your move? b") \
        - outcome.transcript.count("your move?  B ")
    assert visitor_turns > 0
    assert len(_boards(outcome.transcript)) == outcome.transcript.lower().count("your move? b") \
        + outcome.transcript.count("your move?  B ") + 1
    assert outcome.end is not None and outcome.moves_checked == len(outcome.record)


class StraySeed(FrontEnd):
    """At the PDP-1's first thinking (the machine stopped), puts a seed in south's pit 6 of a 4-pit
    game: a pit the program never reads, so only the board in core shows it."""

    def __init__(self) -> None:
        self.done = False

    def thinking(self, thought, sim) -> None:
        if not self.done:
            self.done = True
            sim.deposit(program_symbols()["bd"] + 5, 1)


def test_a_wrong_board_in_core_is_a_mismatch(kalah_tape) -> None:
    panel = PanelSettings(pits=4, seeds=3, depth=2, brief=True, pdp1_first=True)
    with GameDriver(panel, StraySeed(), RandomVisitor(random.Random(1)), Pacer(counted=True)) as driver:
        with pytest.raises(CrossCheckMismatch, match="the board in core differs") as raised:
            driver.play_game()
    assert "beyond pit 4: [1]" in str(raised.value)


class KillsAtMove(FrontEnd):
    def __init__(self, at: int) -> None:
        self.at, self.moves, self.driver = at, 0, None
        self.failures: list[Failure] = []

    def event(self, event, checker) -> None:
        if isinstance(event, Move):
            self.moves += 1
            if self.moves == self.at:
                os.kill(self.driver.sim.pid, signal.SIGKILL)

    def failed(self, failure: Failure) -> None:
        self.failures.append(failure)


def test_a_brief_game_is_restored_and_checked_on(kalah_tape) -> None:
    front = KillsAtMove(3)
    panel = PanelSettings(pits=4, seeds=3, depth=2, brief=True)
    with GameDriver(panel, front, RandomVisitor(random.Random(3)), silence_timeout=2) as driver:
        front.driver = driver
        outcome = driver.play_game()
    assert [f.when for f in front.failures] == [DURING]
    assert outcome.end is not None and outcome.restarts == 1
    assert len(_boards(outcome.transcript)) == 1  # the restored game goes on in the brief form too


@pytest.mark.parametrize("brief", [True, False], ids=["brief", "full"])
def test_a_game_lost_between_its_last_move_and_its_end_is_restored_as_ended(brief: bool, kalah_tape) -> None:
    """The emulator lost after the last move's line, before the end's: the fresh one is given the ended
    game (its end flag set), and types the end the reference expects instead of playing on."""
    from python_bridge.driver.restore import checker_from_record, restore_machine
    from python_bridge.machine.simh import FULL_SPEED
    from python_bridge.machine.transcript import GameOver

    panel = PanelSettings(pits=3, seeds=2, depth=2, brief=brief)
    (played,) = play_games(panel, RandomVisitor(random.Random(5)), 1)
    checker = checker_from_record(played.title, played.record)
    assert checker.game.position.over
    checker.finished = False  # as the live checker stands before the end's line is read
    machine = restore_machine(panel, FULL_SPEED, checker)
    text = ""
    try:
        while "type any key for a new game." not in text and len(text) < 5000:
            text += machine.sim.read_some(10)
    finally:
        machine.close()
    events = TranscriptParser().feed(text)
    assert [e for e in events if isinstance(e, GameOver)] == [played.end]
    assert not [e for e in events if isinstance(e, Move)], "the PDP-1 played on an ended game"


class NotesTheSpeed:
    """A random visitor who, at each question, looks at the keyboard as the exhibit does, and notes whether the
    driver had slowed the machine before that look and after it."""

    def __init__(self) -> None:
        self.rng, self.driver, self.at_questions = random.Random(11), None, []

    def choose(self, game: Game) -> str:
        before = self.driver.slowed
        self.driver.look_at_keyboard()
        self.at_questions.append((before, self.driver.slowed))
        return str(self.rng.choice(game.position.legal_pits()))


class NotesTheSpeedAtMoves(FrontEnd):
    def __init__(self) -> None:
        self.driver, self.at_pdp1_moves = None, []

    def event(self, event, checker) -> None:
        if isinstance(event, Move) and event.player == "pdp-1":
            self.at_pdp1_moves.append(self.driver.slowed)


def test_the_machine_waits_for_the_visitor_slowed_and_thinks_at_full_speed(kalah_tape) -> None:
    from python_bridge.machine.simh import FULL_SPEED, IDLE_SPEED

    visitor, front = NotesTheSpeed(), NotesTheSpeedAtMoves()
    panel = PanelSettings(pits=4, seeds=3, depth=3, brief=True)
    with GameDriver(panel, front, visitor, machine_config=FULL_SPEED, waiting_config=IDLE_SPEED) as driver:
        visitor.driver = front.driver = driver
        outcome = driver.play_game()
    assert outcome.end is not None and visitor.at_questions and front.at_pdp1_moves
    # slowed by the look, and only then: SIMH calibrates a throttle at full speed after every cont, so one set
    # before the question as well cost that twice a question
    assert all(after for _, after in visitor.at_questions), "the machine waited for the visitor at full speed"
    assert not any(before for before, _ in visitor.at_questions), "slowed before the question's look"
    assert not any(front.at_pdp1_moves), "the PDP-1 thought on a slowed machine"
