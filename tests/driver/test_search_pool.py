"""The cross-checks' searches in worker processes: the same decisions as in the server's own interpreter, a
wrong PDP-1 move still a mismatch through the pool, a killed worker replaced and the question answered, and
nothing left running once the pool is closed."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from python_bridge.driver.crosscheck import CrossChecker, CrossCheckMismatch
from python_bridge.driver.search_pool import SearchPool, reference_decision
from python_bridge.machine.transcript import Move, Title
from python_bridge.reference.rules import SOUTH, Variants
from tests.processes import still_running

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pool():
    searches = SearchPool(2)
    try:
        yield searches
    finally:
        pids = searches.pids()
        searches.close()
        assert still_running(pids) == [], "search workers left behind"


def _checker(level: int, seed: int, decide) -> CrossChecker:
    rng = random.Random(seed)
    checker = CrossChecker(Title(6, 4, level, Variants(), "both"), decide=decide)
    for _ in range(rng.randint(4, 9)):
        checker.game.move(rng.choice(checker.game.position.legal_pits()))
    return checker


@pytest.mark.parametrize("level", [0, 3])
def test_the_pool_decides_as_the_server_would_and_a_wrong_move_is_a_mismatch(pool, level: int) -> None:
    for seed in range(3):
        here, there = _checker(level, seed, reference_decision), _checker(level, seed, pool.decide)
        expected = here.reference_choice()
        assert there.reference_choice() == expected
        there.pending_board = False  # as if the PDP-1 had drawn the board
        position = there.game.position
        wrong = next(pit for pit in position.legal_pits() if pit != expected[1])
        with pytest.raises(CrossCheckMismatch, match="chose another pit"):
            there.on_event(Move("south" if position.to_move == SOUTH else "north", wrong, 0, False))
    assert pool.alive() >= 1


def test_a_killed_worker_is_replaced_and_the_question_answered(pool) -> None:
    checker = _checker(0, 11, pool.decide)
    expected = _checker(0, 11, reference_decision).reference_choice()
    pool.decide(checker.game.position, checker.game.variants, 1, False)  # the workers started
    victims = pool.pids()
    assert victims
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while still_running(victims, within=0.1) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert checker.reference_choice() == expected
    assert pool.alive() >= 1 and not set(pool.pids()) & set(victims)


def test_a_killed_server_leaves_no_worker_behind(tmp_path) -> None:
    """A process holding a pool is killed (``kill -9``, no shutdown): its workers end by themselves."""
    script = tmp_path / "server.py"
    script.write_text("import sys, time\n"
                      "from python_bridge.driver.search_pool import SearchPool\n"
                      "from python_bridge.reference.rules import Variants, start_position\n"
                      "if __name__ == '__main__':\n"
                      "    pool = SearchPool(2)\n"
                      "    pool.decide(start_position(4, 3), Variants(), 2, False)\n"
                      "    print(' '.join(map(str, pool.pids())), flush=True)\n"
                      "    time.sleep(60)\n")
    server = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in server.stdout.readline().split()]  # type: ignore[union-attr]
        assert workers and still_running(workers, within=0.1) == workers
        server.kill()
        server.wait(10)
        assert still_running(workers, within=5.0) == [], "search workers outlived their server"
    finally:
        server.kill()
        server.wait(10)
