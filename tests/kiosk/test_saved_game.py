"""The kiosk's saved game (``kiosk.saved_game``): it round-trips, a damaged file is refused."""

from __future__ import annotations

import pytest

from python_bridge.kiosk.saved_game import GameStore, SavedGame
from python_bridge.machine.transcript import Title
from python_bridge.reference.rules import Variants


def test_a_saved_game_round_trips_and_a_damaged_file_is_refused(tmp_path) -> None:
    store = GameStore(tmp_path / "state" / "current-game.json")
    assert store.load() is None
    title = Title(4, 3, 0, Variants(pie_rule=True, remainder_void=True), "pdp-1")
    saved = SavedGame("visitor", 7, title, [2, "swap", 4], "kalah for the pdp-1\n")
    store.save(saved)
    assert store.load() == saved
    store.path.write_text('{"format": 1, "mode": "visitor"')
    with pytest.raises(ValueError, match="unreadable saved game"):
        store.load()
    store.clear()
    assert store.load() is None
