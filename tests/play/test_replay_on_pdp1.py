"""``replay FILE`` plays the record's game again on Debian's pdp1: the visitor's moves typed from the record,
every move the PDP-1 makes held against the record's.

The records are real: whole games on Debian's pdp1 through the one driver (a seeded random visitor, small
boards, so each is quick), one made by the browser edition's own code (its ``PageGame`` on SIMH as
WebAssembly under node, its record as the page is given it), and the samples ``play`` and the
demonstration wrote.  A PDP-1 move changed to another legal one, the game after it played on by the
reference's rules, passes the reference's check of the rules and is caught only by the PDP-1: one line
naming the move, exit 2."""

from __future__ import annotations

import io
import json
import logging
import random
import time
from collections import deque
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from python_bridge.browser.page_game import HEADING, PageGame
from python_bridge.browser.settings import browser_settings
from python_bridge.commands import replay
from python_bridge.driver.driver import play_games
from python_bridge.driver.game_records import SavedGame, read_game_record, replay_steps
from python_bridge.driver.record_files import game_record
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.wasm_simh import WasmSimh
from python_bridge.reference.game import Game
from python_bridge.reference.notation import SWAP
from python_bridge.reference.rules import NORTH, SOUTH, Variants
from tests.programs import need

pytestmark = pytest.mark.simh

SAMPLES = Path(__file__).resolve().parent / "records"
CHECKED = "checked on Debian's pdp1 (SIMH 3.8.1): "
BROWSER_SETTINGS = """[browser]
pace = "fast"
[game]
pits = 3
seeds = 2
level = 2
first = "pdp-1"
variants = ["pie-rule"]
[choices]
games = []
strengths = []
"""


@pytest.fixture(scope="module")
def native(kalah_tape, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole game on Debian's pdp1 (4 pits, 2 seeds, level 2, the PDP-1 first, empty capture), as kept."""
    panel = PanelSettings(pits=4, seeds=2, depth=2, variants=Variants(empty_capture=True), pdp1_first=True)
    [outcome] = play_games(panel, RandomVisitor(random.Random(5)), 1)
    path = tmp_path_factory.mktemp("records") / "native.txt"
    path.write_text(game_record(outcome, "game record (game 1 of the session)", finished=True).text())
    return path


def _counts(saved: SavedGame) -> tuple[int, int]:
    """The record's PDP-1 moves and visitor moves, by the reference's replay."""
    players = [step.player for step in replay_steps(saved)]
    return len(players) - players.count("you"), players.count("you")


def _tampered(saved: SavedGame) -> tuple[SavedGame, int, int, int]:
    """``saved`` with its first PDP-1 move that has another legal pit changed to it, and the game played on from
    there by the reference's rules (the lowest legal pit each move) to an end with its own result: a record the
    rules take.  The record, the move's number, the PDP-1's pit and the one put in its place."""
    game = Game.new(saved.pits, saved.seeds, saved.variants)
    for number, step in enumerate(replay_steps(saved), 1):
        others = [p for p in game.position.legal_pits() if p != step.move]
        if step.player == "pdp-1" and step.move != SWAP and others:
            moves = list(saved.moves[:number - 1]) + [others[0]]
            game.apply(others[0])
            while not game.position.over:
                moves.append(game.position.legal_pits()[0])
                game.apply(moves[-1])
            south, north = saved.player(SOUTH, game), saved.player(NORTH, game)
            result = f"{south} {game.position.store(SOUTH)}, {north} {game.position.store(NORTH)}; edited"
            changed = SavedGame(saved.pits, saved.seeds, saved.level, saved.variants, moves, saved.first, result,
                                saved.heading)
            return changed, number, int(step.move), others[0]
        game.apply(step.move)
    raise AssertionError("no PDP-1 move with another legal pit")


def test_a_native_game_is_played_again_and_each_pdp1_move_is_the_one_recorded(native: Path, bridge) -> None:
    saved = read_game_record(native.read_text())
    pdp1, visitor = _counts(saved)
    done = bridge("replay", str(native))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    *boards, last = done.stdout.splitlines()
    assert f"every move checked against the reference: {len(saved.moves)} moves, all legal" in boards
    assert last == (f"{CHECKED}{pdp1} PDP-1 moves, each the one recorded, and {visitor} visitor moves typed from "
                    "the record, to the game's end")


def test_a_pdp1_move_changed_to_another_legal_one_is_named_exit_2(native: Path, bridge, tmp_path: Path) -> None:
    changed, number, played, put = _tampered(read_game_record(native.read_text()))
    edited = tmp_path / "edited.txt"
    edited.write_text(changed.text())
    done = bridge("replay", str(edited))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (f"error: {edited}: move {number}: on Debian's pdp1 the PDP-1 plays pit {played}, "
                           f"the record says pit {put}\n")
    assert "all legal" in done.stdout and CHECKED not in done.stdout  # the rules took it: only the PDP-1 did not


def test_the_browser_editions_record_is_checked_on_debians_pdp1(kalah_tape, bridge, tmp_path: Path) -> None:
    """A game of the browser edition's own code (``PageGame``, the session the Worker runs) on SIMH as WebAssembly
    under node, the page's moves a seeded random visitor's, swaps included; its record as the page is given it."""
    need("node")
    page = _Page(random.Random(3))
    PageGame(browser_settings(BROWSER_SETTINGS), page.post, page.receive, logging.getLogger("test.page"),
             transport=WasmSimh).run(games=1)
    [text] = page.records
    saved = read_game_record(text)
    assert saved.heading == HEADING and saved.first == "pdp-1" and saved.variants == Variants(pie_rule=True)
    assert SWAP in saved.moves  # the visitor swapped: the seats exchanged, on the PDP-1 as in the record
    record = tmp_path / "browser.txt"
    record.write_text(text)
    done = bridge("replay", str(record))
    assert done.returncode == 0, done.stdout + done.stderr
    pdp1, visitor = _counts(saved)
    assert done.stdout.splitlines()[-1] == (f"{CHECKED}{pdp1} PDP-1 moves, each the one recorded, and {visitor} "
                                            "visitor moves typed from the record, to the game's end")


class _Page:
    """The page in the visitor's browser, as the Worker's Python hears it: touches "play", then answers every
    question with a random legal pit, or a swap now and then when one is offered; keeps the record it is given."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.messages: deque[str] = deque([json.dumps({"type": "play"})])
        self.records: list[str] = []

    def post(self, message: dict) -> None:
        if message.get("type") == "record":
            self.records.append(message["text"])
        if message.get("type") == "state" and message["mode"] == "visitor" and message["phase"] == "your_turn":
            if message["swap"] and self.rng.random() < 0.5:
                answer = {"type": "swap", "turn": message["turn"]}
            else:
                answer = {"type": "move", "pit": self.rng.choice(message["legal"]), "turn": message["turn"]}
            self.messages.append(json.dumps(answer))

    def receive(self, seconds: float) -> str | None:
        if self.messages:
            return self.messages.popleft()
        time.sleep(min(seconds, 0.005))  # (the Worker waits for the page meanwhile)
        return None


def test_the_demonstrations_record_is_the_pdp1_playing_both_sides(bridge) -> None:
    done = bridge("replay", str(SAMPLES / "demo-sample-record.txt"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (f"{CHECKED}10 PDP-1 moves (it plays both sides), each the one recorded, "
                                            "to the game's end")


def test_a_game_left_unfinished_is_played_to_the_records_last_move(bridge) -> None:
    done = bridge("replay", str(SAMPLES / "kalah-sample-game1.txt"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (f"{CHECKED}3 PDP-1 moves, each the one recorded, and 1 visitor move "
                                            "typed from the record, to the record's last move (the game was not "
                                            "finished)")


def _replay_here(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = replay.main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_without_a_pdp1_one_line_exit_1_and_no_pdp1_checks_by_the_reference(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(replay, "PDP1_BINARY", str(tmp_path / "pdp1"))
    sample = str(SAMPLES / "demo-sample-record.txt")
    status, out, err = _replay_here(sample)
    assert (status, out) == (1, "")
    assert err == (f"error: {tmp_path / 'pdp1'} is missing: run `make setup` (it installs Debian's simh package), "
                   "or replay --no-pdp1 to check the record by the reference alone\n")
    status, out, err = _replay_here("--no-pdp1", sample)
    assert (status, err) == (0, "") and out.endswith("the record says: south 11, north 5; south wins\n")
