"""The strength benchmark's parts (``bench.strength``): openings, colours, tallies, its lines, its seed.

The benchmark itself is ``make bench-strength`` (minutes, figures in docs/figures.md), not a
test.  Here: the openings and colours every run uses, the exact form of its lines, the
one-line refusal when open_spiel is missing, and, where open_spiel is installed, two
short games of each kind played twice to show that a seed fixes them whatever the jobs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.bench.openspiel_layout import SIDE_OF, action_of
from python_bridge.bench.strength import (
    OPPONENTS,
    GameSpec,
    Tally,
    all_openings,
    chooser,
    header,
    openings_for,
    play_game,
    run,
    specs_for,
)
from python_bridge.reference.rules import NORTH, SOUTH, play, start_position
from python_bridge.reference.search import NODE_BUDGET

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^(vs \w+|total): (\d+) games, wins (\d+), draws (\d+), losses (\d+), "
                  r"win rate \d+\.\d%, mean margin [+-]\d+\.\d$")


def test_there_are_35_distinct_two_ply_openings_all_legal() -> None:
    openings = all_openings()
    assert len(openings) == len(set(openings)) == 35    # 5 first moves x 6 replies, and pit 3's 5 second moves
    for opening in openings:
        position = start_position(6, 4)
        for pit in opening:
            position = play(position, pit).position
        assert len(opening) == 2 and not position.over


def test_openings_are_distinct_while_there_are_enough_and_fixed_by_the_seed() -> None:
    assert len(set(openings_for(70, 5))) == 35
    assert openings_for(20, 5) == openings_for(70, 5)[:10] == openings_for(20, 5)
    assert openings_for(20, 5) != openings_for(20, 6)
    assert openings_for(72, 5)[35] == openings_for(72, 5)[0]        # past 70 games the openings come round again


def test_each_opening_is_played_once_with_each_colour() -> None:
    specs = specs_for(["ab4", "mcts1k"], 8, 1)
    assert [s.opponent for s in specs] == ["ab4"] * 8 + ["mcts1k"] * 8
    for first, second in zip(specs[::2], specs[1::2], strict=True):
        assert first.opening == second.opening and (first.our_side, second.our_side) == (SOUTH, NORTH)
    assert [s.number for s in specs[:8]] == list(range(8))


def test_the_lines_have_the_issues_form() -> None:
    assert Tally(24, 15, 1, 8, 82).line("vs ab8") == \
        "vs ab8: 24 games, wins 15, draws 1, losses 8, win rate 62.5%, mean margin +3.4"
    assert Tally(2, 0, 0, 2, -3).line("total") == \
        "total: 2 games, wins 0, draws 0, losses 2, win rate 0.0%, mean margin -1.5"
    assert f"{NODE_BUDGET:,} positions a move" in header(20, 1)


def test_without_open_spiel_one_line_names_make_bench_strength() -> None:
    code = ("import sys; sys.modules['pyspiel'] = None; sys.modules['open_spiel'] = None\n"
            "from python_bridge.__main__ import main; sys.exit(main(['strength', '--games', '2']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "make bench-strength" in done.stderr


@pytest.fixture(scope="module")
def open_spiel() -> None:
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (make bench-strength installs it)")


def test_a_seed_fixes_the_games_whatever_the_jobs(open_spiel: None) -> None:
    one: list[str] = []
    two: list[str] = []
    first = run(["ab4"], 2, 7, 1, out=one.append)
    again = run(["ab4"], 2, 7, 2, out=two.append)
    assert first == again and one[:-1] == two[:-1]
    assert [LINE.match(line) is not None for line in one[1:-1]] == [True, True]
    assert one[-1].startswith("took ") and {r.our_side for r in first} == {SOUTH, NORTH}
    assert all(r.moves[:2] == openings_for(2, 7)[0] for r in first)


def test_an_mcts_bot_chooses_the_same_for_the_same_seed(open_spiel: None) -> None:
    """Its choices along a game, made twice by bots built from the same spec (a whole MCTS game takes a while)."""
    spec = GameSpec("mcts1k", 0, openings_for(2, 3)[0], NORTH, 3)
    game, one = chooser(OPPONENTS["mcts1k"], spec)
    _, two = chooser(OPPONENTS["mcts1k"], spec)
    moves = play_game(GameSpec("ab4", 0, spec.opening, SOUTH, 3)).moves    # a game to walk along
    state, checked = game.new_initial_state(), 0
    for pit in moves:
        if checked == 3:
            break
        if SIDE_OF[state.current_player()] == NORTH:
            assert one(state) == two(state)
            checked += 1
        state.apply_action(action_of(SIDE_OF[state.current_player()], pit))
    assert checked == 3
