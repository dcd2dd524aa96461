"""The files a session leaves in ``records/``: names no two sessions share, and a session's game records.

Why exclusive creation and not a finer clock: two kiosks, or two terminals,
may start in the same second and share a ``records/`` folder; only the file
system can say which name is free.  A session claims a stem
(``kalah-20261201-101109``, then ``...-2``, ``...-3`` when taken) by creating
its first file with ``open(..., "x")``, which fails if the file exists, and
names everything else it writes after that stem.  ``SessionRecords`` is the
shelf of a session at the terminal (``play``, ``play --authentic``): one
record a game, ``<stem>-game1.txt``, ``-game2.txt``..., written by the one
record writer (``game_records``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..machine.transcript import GameOver, Title
from .game_records import SavedGame
from .wording import count

MAX_TRIES = 1000


def stamp() -> str:
    """The local time as a file name's stamp, to the second."""
    return time.strftime("%Y%m%d-%H%M%S")


def claim(folder: Path, stem: str, first_suffix: str) -> tuple[str, Path]:
    """Create ``folder/<stem><first_suffix>`` (or with ``-2``, ``-3``... after the stem) exclusively.

    Returns the stem claimed and the empty file created; the caller names its
    other files ``<stem><suffix>``, which no other session can have claimed.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, MAX_TRIES + 1):
        candidate = stem if n == 1 else f"{stem}-{n}"
        path = folder / f"{candidate}{first_suffix}"
        try:
            with open(path, "x", encoding="utf-8"):
                pass
        except FileExistsError:
            continue
        return candidate, path
    raise FileExistsError(f"{folder}: {MAX_TRIES} files named {stem}-N{first_suffix} exist already")


def create_new(path: Path, text: str) -> Path:
    """Write ``text`` to a file that must not exist yet (a name derived from a claimed stem)."""
    with open(path, "x", encoding="utf-8") as f:
        f.write(text)
    return path


class PlayedGame(Protocol):
    """What the driver says of a game (its ``GameOutcome``): all a record needs."""

    title: Title
    record: list[int | str]
    end: GameOver | None
    moves_checked: int
    restarts: int
    transcript: str


def game_record(game: PlayedGame, heading: str, finished: bool, unfinished: str = "the visitor left",
                **kept: object) -> SavedGame:
    """A game as kept: finished with its result, or not and why it did not end.

    The transcript holds the lines the bridge has checked: a line the PDP-1 typed while the session
    was left is in neither the record nor the transcript."""
    if finished and game.end is not None:
        result = game.end.result()
    else:
        result = f"not finished: {unfinished} after {count(len(game.record), 'move')}"
    return SavedGame.of(game.title, game.record, result=result, heading=heading, checked=game.moves_checked,
                        restarts=game.restarts, transcript=game.transcript.replace("\r", ""), **kept)


@dataclass
class SessionRecords:
    """The session's game records in ``folder``: one file a game, named after a stem no other session has."""

    folder: Path
    started: str = field(default_factory=stamp)
    stem: str | None = field(default=None, init=False)
    saved: list[Path] = field(default_factory=list, init=False)
    # why a record could not be written (the folder vanished, the disk is full)
    failure: str = field(default="", init=False)
    unsaved_text: str = field(default="", init=False)  # the record that could not be written, to be shown instead

    @property
    def next_number(self) -> int:
        return len(self.saved) + 1

    def save(self, game: PlayedGame | None, finished: bool, unfinished: str = "the visitor left") -> Path | None:
        """Write ``game`` as the session's next (``finished``, or not and why it did not end).

        None if no move was made (nothing to keep), or if the file could not be written
        (``failure`` says why, ``unsaved_text`` holds the record)."""
        if game is None or (not finished and not game.record):
            return None
        number = self.next_number
        text = game_record(game, f"game record (game {number} of the session)", finished, unfinished).text()
        try:
            if self.stem is None:
                self.stem, path = claim(self.folder, f"kalah-{self.started}", f"-game{number}.txt")
                path.write_text(text, encoding="utf-8")
            else:
                path = create_new(self.folder / f"{self.stem}-game{number}.txt", text)
        except OSError as failure:
            self.failure = f"game {number} could not be saved in {self.folder}: {failure.strerror or failure}"
            self.unsaved_text = text
            return None
        self.saved.append(path)
        return path

    def said(self) -> str:
        """One line naming what was saved."""
        if self.failure:
            return self.failure
        if not self.saved:
            return "no move was made: nothing to save"
        if len(self.saved) == 1:
            return f"the game is saved in {self.saved[0]}"
        first, last = self.saved[0].name, self.saved[-1].name
        return f"{len(self.saved)} games are saved in {self.folder}: {first} to {last}"
