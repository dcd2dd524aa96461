"""A game restored from its record (``restore.checker_from_record``, ``restore_machine``, ``GameDriver.resume``):
the rebuilt checker equals the live one, the restored machine plays on and keeps the driver's breakpoints."""

from __future__ import annotations

import random

import pytest

from python_bridge.driver.driver import FrontEnd, GameDriver, play_games
from python_bridge.driver.restore import checker_from_record, restore_machine
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.simh import FULL_SPEED
from python_bridge.machine.transcript import Board, Move, Swap, Title
from python_bridge.reference.rules import Variants


def _live_game_states(seed: int) -> tuple[Title, list[tuple[list, tuple]]]:
    """A real game (PDP-1 first, pie rule: the visitor may swap) and the checker's state after each move."""
    panel = PanelSettings(pits=4, seeds=3, depth=2, variants=Variants(pie_rule=True), pdp1_first=True)
    states: list[tuple[list, tuple]] = []

    class Recording(FrontEnd):
        def event(self, event, checker) -> None:
            if isinstance(event, (Move, Swap)):
                states.append((list(checker.game.record), _state(checker)))

    (outcome,) = play_games(panel, RandomVisitor(random.Random(seed)), 1, Recording())
    return outcome.title, states


def _state(checker) -> tuple:
    g = checker.game
    return (g.position, g.seats_swapped, g.north_has_played, g.swap_offered, checker.pdp1_side,
            checker.bottom_side, checker.moves_checked)


def test_a_checker_rebuilt_from_a_record_equals_the_live_one(kalah_tape) -> None:
    swapped = 0
    for seed in (1, 2, 5):
        title, states = _live_game_states(seed)
        swapped += any("swap" in record for record, _ in states)
        for record, state in states:
            assert _state(checker_from_record(title, record)) == state, record
    assert swapped, "no game with a swap: the seats exchange went untested"


def test_a_game_restored_from_its_record_plays_on(kalah_tape) -> None:
    """What a server restart does: title + record -> checker -> fresh machine -> the same game goes on."""
    panel = PanelSettings(pits=4, seeds=3, depth=2, pdp1_first=True)
    (whole,) = play_games(panel, RandomVisitor(random.Random(7)), 1)
    boards: list[Board] = []

    class Boards(FrontEnd):
        def event(self, event, checker) -> None:
            if isinstance(event, Board):
                boards.append(event)

    with GameDriver(PanelSettings(), Boards(), _Replayer(whole.record)) as driver:
        assert driver.resume(whole.title, whole.record[:4])  # as saved after the fourth move
        assert driver.panel == panel  # the panel comes from the saved title
        outcome = driver.play_game()
        assert not driver.resume(whole.title, whole.record)  # a finished game: nothing to play on
    assert outcome.record == whole.record
    assert boards, "the restored machine drew the board"


class _Replayer:
    """Plays the visitor's moves of a known record from a given point on."""

    def __init__(self, record: list) -> None:
        self.record = record

    def choose(self, game) -> str:
        entry = self.record[len(game.record)]
        return "s" if entry == "swap" else str(entry)


def test_a_restored_machine_keeps_the_callers_breakpoints(kalah_tape) -> None:
    """restore_machine(breakpoints=...): the kiosk's stops at the PDP-1's thinking survive a restore."""
    from python_bridge.machine.kalah_program import program_symbols
    from python_bridge.machine.simh import NEVER, BreakpointReached

    think = program_symbols()["think"]
    panel = PanelSettings(pits=4, seeds=3, depth=2)  # the visitor first: after one move the PDP-1 thinks
    (whole,) = play_games(panel, RandomVisitor(random.Random(3)), 1)
    checker = next(c for k in range(1, len(whole.record))
                   if (c := checker_from_record(whole.title, whole.record[:k])).game.position.to_move == c.pdp1_side)
    machine = restore_machine(panel, FULL_SPEED, checker, breakpoints=(think,))
    try:
        with pytest.raises(BreakpointReached) as stop:
            machine.sim.expect(NEVER, timeout=5)
        assert stop.value.pc == think
    finally:
        machine.close()
