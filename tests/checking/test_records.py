"""A finished game's record checked by the reference alone (what the online server does with a record the
browser edition sends): real games of the PDP-1 pass, every kind of tampering is refused with its reason.

The records come from whole games on Debian's pdp1 through the one driver (the seeded random visitor), so
the check is held to what the PDP-1 really plays, not to records made by the reference it checks with."""

from __future__ import annotations

import random
import re

import pytest

from python_bridge.checking.records import RecordRefused, check_record
from python_bridge.driver.driver import play_games
from python_bridge.driver.record_files import game_record
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.reference.game import Game
from python_bridge.reference.rules import Variants

pytestmark = pytest.mark.simh

# (pits, seeds, level, variants, first): the default level and a fixed depth, the pie rule, the PDP-1 first
SETTINGS = [(4, 3, 0, Variants(), "you"), (4, 3, 2, Variants(pie_rule=True), "pdp-1"),
            (3, 3, 0, Variants(empty_capture=True), "pdp-1")]


@pytest.fixture(scope="module")
def records(kalah_tape) -> list[str]:
    """One whole game on the PDP-1 for each of ``SETTINGS``, as the record the driver keeps."""
    texts = []
    for seed, (pits, seeds, level, variants, first) in enumerate(SETTINGS, 1):
        panel = PanelSettings(pits=pits, seeds=seeds, depth=level, variants=variants, pdp1_first=first == "pdp-1")
        [outcome] = play_games(panel, RandomVisitor(random.Random(seed)), 1)
        texts.append(game_record(outcome, "browser game", finished=True).text())
    return texts


def test_the_pdp1s_own_games_pass(records: list[str]) -> None:
    for text in records:
        checked = check_record(text)
        pdp1_moves = sum(1 for step in _players(text) if step == "pdp-1")
        assert checked.choices_checked == pdp1_moves > 0


def _players(text: str) -> list[str]:
    from python_bridge.driver.game_records import read_game_record, replay_steps

    return [step.player for step in replay_steps(read_game_record(text))]


def _moves(text: str) -> list[str]:
    return re.search(r"^record: (.*)$", text, re.M).group(1).split()


def _with_moves(text: str, moves: list[str]) -> str:
    text = re.sub(r"^record: .*$", "record: " + " ".join(moves), text, count=1, flags=re.M)
    return re.sub(r"^moves: \d+$", f"moves: {len(moves)}", text, count=1, flags=re.M)


def test_a_pdp1_move_it_would_not_have_made_is_refused(records: list[str]) -> None:
    """Each PDP-1 choice in turn changed to another legal pit (the game played on from there by the reference's
    rules is not needed: the first changed choice is where the check stops)."""
    from python_bridge.driver.game_records import read_game_record

    tried = 0
    for text in records:
        saved = read_game_record(text)
        game = Game.new(saved.pits, saved.seeds, saved.variants)
        for number, (move, player) in enumerate(zip(saved.moves, _players(text), strict=True), 1):
            others = [p for p in game.position.legal_pits() if p != move]
            if player == "pdp-1" and others and move != "swap":
                moves = [str(m) for m in saved.moves]
                moves[number - 1] = str(others[0])
                with pytest.raises(RecordRefused, match=f"^move {number}: the PDP-1 would have played {move}, "
                                                        f"not {others[0]} "):
                    check_record(_with_moves(text, moves[:number]))
                tried += 1
            game.apply(move)
    assert tried >= 5


@pytest.mark.parametrize("tamper, reason", [
    (lambda t: _with_moves(t, _moves(t)[:-1]), "states an end, but after its"),
    (lambda t: _with_moves(t, _moves(t) + ["1"]), "comes after the game's end"),
    (lambda t: _with_moves(t, ["6"] + _moves(t)[1:]), "breaks the rules"),
    (lambda t: re.sub(r"^result: .*$", "result: you 30, pdp-1 1; you win", t, count=1, flags=re.M),
     "is not the reference's end"),
    (lambda t: re.sub(r"^result: .*$", "result: not finished: the visitor left", t, count=1, flags=re.M),
     "of no finished game"),
    (lambda t: re.sub(r"^first: .*$", "first: somebody", t, count=1, flags=re.M), "does not say who moved first"),
    (lambda t: "Dear server,\n" + t, "not a game record"),
])
def test_a_tampered_record_is_refused_with_its_reason(records: list[str], tamper, reason: str) -> None:
    with pytest.raises(RecordRefused, match=re.escape(reason)) as refused:
        check_record(tamper(records[0]))
    assert "\n" not in str(refused.value)


def test_a_level_the_site_does_not_play_is_refused(records: list[str]) -> None:
    """A record may not make the server search deeper than its own games do."""
    check_record(records[1], levels=frozenset({0, 1, 2}))
    with pytest.raises(RecordRefused, match="level 2 is not one this site plays \\(it plays auto, 1, 4\\)"):
        check_record(records[1], levels=frozenset({0, 1, 4}))
