"""The driver's restore policy: a dead or hung emulator mid-game detected, announced, replaced, the game
restored and finished; one lost after a game's end or between games loses nothing."""

from __future__ import annotations

import os
import random
import signal

from python_bridge.driver.driver import AFTER_END, DURING, Failure, FrontEnd, GameDriver, play_games
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.transcript import GameOver, Move
from python_bridge.reference.rules import Variants

PANEL = PanelSettings(pits=5, seeds=3, depth=3, variants=Variants(pie_rule=True), pdp1_first=True)


def _uninterrupted_record(seed: int) -> list:
    (outcome,) = play_games(PANEL, RandomVisitor(random.Random(seed)), 1)
    return outcome.record


class Striking(FrontEnd):
    """Hears the failures, and strikes the emulator (``fail``) at chosen events."""

    def __init__(self, fail, at_move: set[int] | None = None, at_end: bool = False) -> None:
        self.fail, self.at_move, self.at_end = fail, at_move or set(), at_end
        self.driver: GameDriver | None = None
        self.failures: list[Failure] = []
        self.moves = 0

    def event(self, event, checker) -> None:
        assert self.driver is not None
        if isinstance(event, Move):
            self.moves += 1
            if self.moves in self.at_move:
                self.fail(self.driver.sim)
        if isinstance(event, GameOver) and self.at_end:
            self.at_end = False
            self.fail(self.driver.sim)

    def failed(self, failure: Failure) -> None:
        self.failures.append(failure)


def _driver(seed: int, front: Striking) -> GameDriver:
    driver = GameDriver(PANEL, front, RandomVisitor(random.Random(seed)), silence_timeout=2)
    front.driver = driver
    return driver


def _game_with_failures(seed: int, failure_at: set[int], fail) -> tuple[list, int, list[Failure]]:
    front = Striking(fail, at_move=failure_at)
    with _driver(seed, front) as driver:
        outcome = driver.play_game()
    assert outcome.end is not None
    assert outcome.moves_checked >= len(outcome.record) - 1
    assert outcome.restarts == driver.restarts  # the game's record counts them
    return outcome.record, driver.restarts, front.failures


def test_a_killed_emulator_is_restarted_and_the_game_goes_on(kalah_tape) -> None:
    record, restarts, failures = _game_with_failures(3, {2, 9}, lambda sim: sim.kill())
    assert restarts == 2
    assert all(f.when == DURING and f.restored for f in failures)
    assert any("died" in f.reason or "exited" in f.reason for f in failures), failures
    assert record == _uninterrupted_record(3)  # nothing the visitor did was lost


def test_a_hung_emulator_is_detected_and_replaced(kalah_tape) -> None:
    record, restarts, failures = _game_with_failures(4, {5}, lambda sim: os.kill(sim.pid, signal.SIGSTOP))
    assert restarts == 1
    assert any("no output" in f.reason or "in time" in f.reason for f in failures), failures
    assert record == _uninterrupted_record(4)


def test_the_restart_limit_ends_a_game_that_keeps_failing(kalah_tape) -> None:
    """With no restarts allowed (the cross-check counts failures, it does not mend them) the first
    failure is raised, not restored."""
    import pytest

    from python_bridge.machine.simh import SimhError

    front = Striking(lambda sim: sim.kill(), at_move={2})
    driver = GameDriver(PANEL, front, RandomVisitor(random.Random(3)), silence_timeout=2, max_restarts=0)
    front.driver = driver
    with driver, pytest.raises(SimhError):
        driver.play_game()
    assert front.failures == [] and driver.restarts == 0


def _lost_at_the_end(seed: int, fail) -> list[Failure]:
    """Two games; ``fail`` strikes the emulator as the first game's last line is read.

    Whether the failure is then seen waiting for the new-game offer or when
    the key for the next game is typed (or the title awaited) depends on how
    the output arrives; either way the first game's result stands and the
    second runs on a fresh emulator.
    """
    front = Striking(fail, at_end=True)
    with _driver(seed, front) as driver:
        first = driver.play_game()
        assert first.end is not None and first.record == _uninterrupted_record(seed)  # nothing lost
        first_restarts = first.restarts  # as the first game's record says
        driver.new_game()
        second = driver.play_game()
    assert second.end is not None and second.moves_checked >= len(second.record) - 1
    assert driver.restarts == 1
    assert first_restarts + second.restarts == 1  # the restart is in one game's record, not none
    assert len(front.failures) == 1 and not front.failures[0].restored, front.failures
    assert "The next game starts on a fresh emulator" in front.failures[0].notice()
    return front.failures


def test_an_emulator_killed_after_the_last_move_leaves_the_game_and_the_next_starts_fresh(kalah_tape) -> None:
    _lost_at_the_end(5, lambda sim: sim.kill())


def test_an_emulator_hung_after_the_last_move_leaves_the_game_and_the_next_starts_fresh(kalah_tape) -> None:
    _lost_at_the_end(6, lambda sim: os.kill(sim.pid, signal.SIGSTOP))


def test_an_emulator_found_dead_waiting_for_the_new_game_offer_ends_the_game_cleanly(kalah_tape) -> None:
    """The failure seen before the offer is read: the kill, then the driver's next read (made here, so
    that the offer already on its way is not read first) finds the process gone."""
    def kill_and_read_on(sim) -> None:
        sim.kill()
        while True:
            sim.read_some(1.0)

    failures = _lost_at_the_end(7, kill_and_read_on)
    assert failures[0].when == AFTER_END


def test_an_emulator_dead_between_games_is_replaced_when_the_next_game_is_asked_for(kalah_tape) -> None:
    """Killed after the first game was saved: ``new_game`` reads the tape into a fresh emulator, and the
    restart is counted in the next game's record."""
    front = Striking(lambda sim: None)
    with _driver(8, front) as driver:
        first = driver.play_game()
        driver.sim.kill()
        driver.new_game()
        second = driver.play_game()
    assert first.restarts == 0 and second.restarts == 1 and second.end is not None
    # seen as the key is typed, or (the process not yet reaped then) as the title is awaited
    assert [f.when for f in front.failures] in (["as the new game was asked for"], ["before the game began"])
