"""The current game, saved after every move, so a restarted server can restore it.

A small JSON file written atomically (a temporary file renamed over the old
one): a crash mid-write leaves the previous save, never half a file.  What
is saved is what ``recovery.checker_from_record`` needs (title and record),
the mode, and the paper so the page shows the same typewriter sheet.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..machine.transcript import Title
from ..reference.notation import SWAP
from ..reference.rules import Variants

FORMAT = 1


@dataclass(frozen=True)
class SavedGame:
    mode: str  # "visitor" or "attract"
    game_no: int
    title: Title
    record: list[int | str]
    paper: str

    def to_json(self) -> str:
        t = self.title
        return json.dumps({
            "format": FORMAT, "mode": self.mode, "game_no": self.game_no,
            "title": {"pits": t.pits, "seeds": t.seeds, "level": t.level, "first": t.first,
                      "variants": [f.lstrip("-") for f in t.variants.flags()]},
            "record": self.record, "paper": self.paper,
        })

    @classmethod
    def from_json(cls, text: str) -> "SavedGame":
        data = json.loads(text)
        if data.get("format") != FORMAT or data.get("mode") not in ("visitor", "attract"):
            raise ValueError("not a saved kiosk game")
        t = data["title"]
        variants = Variants(**{name.replace("-", "_"): True for name in t["variants"]})
        record = [m if m == SWAP else int(m) for m in data["record"]]
        title = Title(int(t["pits"]), int(t["seeds"]), int(t["level"]), variants, str(t["first"]))
        return cls(data["mode"], int(data["game_no"]), title, record, str(data["paper"]))


class GameStore:
    """Where the current game is kept between server runs."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def save(self, game: SavedGame) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(game.to_json())
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)

    def load(self) -> SavedGame | None:
        """The saved game, or None when there is none; an unreadable file raises ValueError."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:  # state_dir unusable (a file, no permission): nothing to restore from
            raise ValueError(f"cannot read the saved game {self.path}: {exc.strerror or exc}") from None
        try:
            return SavedGame.from_json(text)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"unreadable saved game {self.path}: {exc}") from None

    def clear(self) -> None:
        """Forget the saved game; with state_dir unusable there is nothing to forget (health says why)."""
        try:
            self.path.unlink()
        except OSError:
            pass
