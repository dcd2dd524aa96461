"""A dead or hung emulator mid-game: detected, announced, restarted, the game restored and finished."""

from __future__ import annotations

import os
import random
import signal

from python_bridge.machine.transcript import Move
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import KalahMachine
from python_bridge.reference.rules import Variants
from python_bridge.checking.session import RandomVisitor, play_games
from python_bridge.checking.recovery import RecoveringGame

PANEL = PanelSettings(pits=5, seeds=3, depth=3, variants=Variants(pie_rule=True), pdp1_first=True)


def _uninterrupted_record(seed: int) -> list:
    with KalahMachine(PANEL) as machine:
        (outcome,) = play_games(machine, RandomVisitor(random.Random(seed)), 1)
    return outcome.record


def _game_with_failures(seed: int, failure_at: set[int], fail) -> tuple[list, int, list[str]]:
    notices: list[str] = []
    moves = 0
    game = RecoveringGame(PANEL, RandomVisitor(random.Random(seed)), notice=notices.append, silence_timeout=2)

    def on_event(event, checker) -> None:
        nonlocal moves
        if isinstance(event, Move):
            moves += 1
            if moves in failure_at:
                fail(game.machine.sim)

    game.on_event = on_event
    with game:
        outcome = game.play_game()
    assert outcome.end is not None
    assert outcome.moves_checked >= len(outcome.record) - 1
    return outcome.record, game.restarts, notices


def test_a_killed_emulator_is_restarted_and_the_game_goes_on(kalah_tape) -> None:
    record, restarts, notices = _game_with_failures(3, {2, 9}, lambda sim: sim.kill())
    assert restarts == 2
    assert any("died" in n or "exited" in n for n in notices), notices
    assert record == _uninterrupted_record(3)  # nothing the visitor did was lost


def test_a_hung_emulator_is_detected_and_replaced(kalah_tape) -> None:
    def hang(sim) -> None:
        os.kill(sim.pid, signal.SIGSTOP)

    record, restarts, notices = _game_with_failures(4, {5}, hang)
    assert restarts == 1
    assert any("no output" in n for n in notices), notices
    assert record == _uninterrupted_record(4)
