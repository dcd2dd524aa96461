"""A dead or hung emulator mid-game: detected, announced, restarted, the game restored and finished."""

from __future__ import annotations

import os
import random
import signal

from python_bridge.machine.transcript import GameOver, Move
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


def _lost_at_the_end(seed: int, fail) -> tuple[RecoveringGame, list[str]]:
    """Two games; ``fail`` strikes the emulator as the first game's last line is read.

    Whether the failure is then seen waiting for the new-game offer or when
    the key for the next game is typed (or the title awaited) depends on how
    the output arrives; either way the first game's result stands and the
    second runs on a fresh emulator.
    """
    notices: list[str] = []
    game = RecoveringGame(PANEL, RandomVisitor(random.Random(seed)), notice=notices.append, silence_timeout=2)

    def on_event(event, checker) -> None:
        if isinstance(event, GameOver):
            game.on_event = None
            fail(game.machine.sim)

    game.on_event = on_event
    with game:
        first = game.play_game()
        assert first.end is not None and first.record == _uninterrupted_record(seed)  # nothing lost
        first_restarts = game.game_restarts  # as the first game's record would say
        game.new_game()
        second = game.play_game()
    assert second.end is not None and second.moves_checked >= len(second.record) - 1
    assert game.restarts == 1 and not game.machine_lost
    assert first_restarts + game.game_restarts == 1  # the restart is in one game's record, not none
    assert any("The next game starts on a fresh emulator" in n for n in notices), notices
    return game, notices


def test_an_emulator_killed_after_the_last_move_leaves_the_game_and_the_next_starts_fresh(kalah_tape) -> None:
    _lost_at_the_end(5, lambda sim: sim.kill())


def test_an_emulator_hung_after_the_last_move_leaves_the_game_and_the_next_starts_fresh(kalah_tape) -> None:
    _lost_at_the_end(6, lambda sim: os.kill(sim.pid, signal.SIGSTOP))


def test_an_emulator_found_dead_waiting_for_the_new_game_offer_ends_the_game_cleanly(kalah_tape) -> None:
    """The failure seen before the offer is read: the kill, then the session's next read (made here, so
    that the offer already on its way is not read first) finds the process gone."""
    def kill_and_read_on(sim) -> None:
        sim.kill()
        while True:
            sim.read_some(1.0)

    _game, notices = _lost_at_the_end(7, kill_and_read_on)
    assert any("failed after the game ended" in n for n in notices), notices
