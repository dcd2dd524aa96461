"""The kiosk's saved game (``kiosk.saved_game``): a record in the one format; it round-trips, replays,
an older kiosk's JSON is still read, a damaged file is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.driver.game_records import read_game_record
from python_bridge.kiosk.saved_game import GameStore, kiosk_game, mode_of, number_of
from python_bridge.machine.transcript import Title
from python_bridge.reference.rules import Variants

ROOT = Path(__file__).resolve().parents[2]
TITLE = Title(4, 3, 0, Variants(pie_rule=True, remainder_void=True), "pdp-1")


def test_a_saved_game_round_trips_and_a_damaged_file_is_refused(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "state" / "current-game.txt")
    assert store.load() is None
    saved = kiosk_game("visitor", 7, TITLE, [2, "swap", 4], "kalah for the pdp-1\n")
    store.save(saved)
    loaded = store.load()
    assert loaded == saved and loaded is not None
    assert (mode_of(loaded), number_of(loaded), loaded.title, loaded.moves) == ("visitor", 7, TITLE, [2, "swap", 4])
    store.path.write_text(store.path.read_text().replace("mode: visitor", "mode: dancing"))
    with pytest.raises(ValueError, match="unreadable saved game"):
        store.load()
    store.path.write_text("Kalah on the PDP-1: game record\npits 4")
    with pytest.raises(ValueError, match="unreadable saved game"):
        store.load()
    store.clear()
    assert store.load() is None


def test_the_saved_game_is_a_record_replay_checks(tmp_path: Path) -> None:
    path = tmp_path / "current-game.txt"
    GameStore(path).save(kiosk_game("attract", 3, TITLE, [1, "swap", 2], "kalah for the pdp-1\n"))
    assert read_game_record(path.read_text()).heading == "kiosk game 3 (attract)"
    # (its moves are made up, not a PDP-1's: the format and the rules are checked, by the reference alone)
    done = subprocess.run([sys.executable, "-m", "python_bridge", "replay", "--no-pdp1", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "the record stops here with" in done.stdout and "3 moves, all legal" in done.stdout


def test_an_older_kiosks_json_game_is_still_restored_and_then_forgotten(tmp_path: Path) -> None:
    legacy = tmp_path / "current-game.json"
    legacy.write_text(json.dumps({
        "format": 1, "mode": "visitor", "game_no": 5,
        "title": {"pits": 4, "seeds": 3, "level": 0, "first": "pdp-1", "variants": ["pie-rule", "remainder-void"]},
        "record": [2, "swap", 4], "paper": "kalah for the pdp-1\n"}))
    store = GameStore(tmp_path / "current-game.txt")
    loaded = store.load()
    assert loaded is not None and (mode_of(loaded), number_of(loaded), loaded.title) == ("visitor", 5, TITLE)
    assert loaded.transcript == "kalah for the pdp-1\n"
    store.clear()
    assert not legacy.exists() and store.load() is None
