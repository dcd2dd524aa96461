"""The current game, saved after every move, so a restarted server can restore it.

Kept as a game record in the one record format (``driver.game_records``), with the kiosk's two
lines, ``mode`` (visitor or attract) and ``game`` (its number since the server started counting),
and the page's paper as its transcript: ``python -m python_bridge replay`` checks it like any
record.  Written atomically (a temporary file renamed over the old one): a crash mid-write leaves
the previous save, never half a file.  A saved game an older version left as JSON
(``current-game.json``) is still read once, so an upgrade loses no game in play.
"""

from __future__ import annotations

import json
from pathlib import Path

from tools.atomic_file import write_atomically

from ..driver.game_records import RecordError, SavedGame, read_game_record
from ..exhibit.game_session import IN_PLAY
from ..machine.transcript import Title
from ..reference.notation import SWAP
from ..reference.rules import Variants

MODES = ("visitor", "attract")
LEGACY_FORMAT = 1  # the JSON an older kiosk saved


def kiosk_game(mode: str, game_no: int, title: Title, moves: list[int | str], paper: str) -> SavedGame:
    """The kiosk's game in play, as a record."""
    return SavedGame.of(title, moves, result=IN_PLAY, heading=f"kiosk game {game_no} ({mode})",
                        fields=(("mode", mode), ("game", str(game_no))), transcript=paper)


def mode_of(saved: SavedGame) -> str:
    return saved.value_of("mode")


def number_of(saved: SavedGame) -> int:
    return int(saved.value_of("game", "0"))


def _legacy(text: str) -> SavedGame:
    """An older kiosk's JSON saved game."""
    data = json.loads(text)
    if data.get("format") != LEGACY_FORMAT or data.get("mode") not in MODES:
        raise ValueError("not a saved kiosk game")
    t = data["title"]
    variants = Variants(**{name.replace("-", "_"): True for name in t["variants"]})
    moves = [m if m == SWAP else int(m) for m in data["record"]]
    title = Title(int(t["pits"]), int(t["seeds"]), int(t["level"]), variants, str(t["first"]))
    return kiosk_game(data["mode"], int(data["game_no"]), title, moves, str(data["paper"]))


class GameStore:
    """Where the current game is kept between server runs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.legacy = path.with_suffix(".json")

    def save(self, game: SavedGame) -> None:
        write_atomically(self.path, game.text())

    def load(self) -> SavedGame | None:
        """The saved game, or None when there is none; an unreadable file raises ValueError."""
        for path, read in ((self.path, read_game_record), (self.legacy, _legacy)):
            try:
                text = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                continue
            except OSError as exc:  # state_dir unusable (a file, no permission): nothing to restore from
                raise ValueError(f"cannot read the saved game {path}: {exc.strerror or exc}") from None
            try:
                saved = read(text)
                if mode_of(saved) not in MODES or number_of(saved) < 1:
                    raise ValueError("not a kiosk's game: no mode and game number")
            except (KeyError, TypeError, ValueError, RecordError) as exc:
                raise ValueError(f"unreadable saved game {path}: {exc}") from None
            return saved
        return None

    def clear(self) -> None:
        """Forget the saved game; with state_dir unusable there is nothing to forget (health says why)."""
        for path in (self.path, self.legacy):
            try:
                path.unlink()
            except OSError:
                pass
