"""``python -m python_bridge play``: a visitor plays the PDP-1 at the terminal, every move cross-checked.

The emulated typewriter prints live; when the PDP-1 asks for a move the
visitor types a line (a pit number, or ``s`` to swap when offered), which is
typed on the PDP-1's keyboard.  Every move is checked against the reference
engine, a failed emulator is restarted with the game restored, and the game
record is saved when the program ends (``records/``).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..checking.crosscheck import CrossCheckMismatch
from ..machine.front_panel import PanelSettings, describe_switches, describe_test_word
from ..reference.game import Game
from ..machine.kalah_program import ROOT
from ..reference.notation import format_record
from ..checking.recovery import RecoveringGame
from ..checking.session import VisitorQuit
from ..machine.simh import FULL_SPEED, SimhError

RECORDS = ROOT / "records"


@dataclass
class EchoFilter:
    """Writes the typewriter to the terminal, leaving out SIMH's echo of keys the terminal already showed."""

    out: TextIO
    expect: str = ""  # the echo still to drop

    def typed(self, keys: str) -> None:
        self.expect = keys + "\r\n"

    def __call__(self, text: str) -> None:
        while self.expect and text:
            if text[0] == self.expect[0]:
                text, self.expect = text[1:], self.expect[1:]
            else:
                self.expect = ""
        self.out.write(text.replace("\r", ""))
        self.out.flush()


@dataclass
class TerminalVisitor:
    """The person at the terminal: reads a line when the PDP-1 asks for a move."""

    echo: EchoFilter
    source: TextIO = field(default_factory=lambda: sys.stdin)

    def choose(self, game: Game) -> str:
        line = self.source.readline()
        if not line:
            raise VisitorQuit()
        keys = line.rstrip("\r\n")
        self.echo.typed(keys)
        return keys


def save_record(game: RecoveringGame, started: str, folder: Path = RECORDS) -> Path | None:
    """Write the game's settings, record and transcript to ``folder``; return the file."""
    session = game.session
    if session is None or session.checker is None:
        return None
    checker = session.checker
    t = checker.title
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"kalah-{started}.txt"
    lines = [
        "Kalah on the PDP-1: game record",
        f"pits {t.pits}  seeds {t.seeds}  level {t.level or 'auto'}  rules: {t.variants.describe()}",
        f"first: {t.first}",
        f"record: {format_record(checker.game.record)}",
        f"moves cross-checked: {checker.moves_checked}  emulator restarts: {game.restarts}",
        "",
        "typewriter transcript:",
        session.transcript.replace("\r", ""),
    ]
    path.write_text("\n".join(lines))
    return path


def play_at_terminal(panel: PanelSettings, records: Path) -> int:
    """The session at the terminal: games until the visitor leaves, each saved; the exit status."""
    out = sys.stdout
    echo = EchoFilter(out)
    started = time.strftime("%Y%m%d-%H%M%S")

    def body() -> int:
        out.write(f"sense switches 1-6: {describe_switches(panel.switches())}   "
                  f"test word: {describe_test_word(panel.test_word())}\n"
                  "reading the Kalah tape in...  (type a pit number and Enter; Ctrl-D to leave)\n")
        game = RecoveringGame(panel, TerminalVisitor(echo), FULL_SPEED,
                              echo=echo, notice=lambda msg: out.write("\n" + msg + "\n"),
                              silence_timeout=30)
        status = 0
        try:
            with game:
                while True:
                    outcome = game.play_game()
                    out.write(f"\n[{outcome.moves_checked} moves cross-checked against the reference engine]\n")
                    out.write("another game? [y/N] ")
                    out.flush()
                    if not sys.stdin.readline().strip().lower().startswith("y"):
                        break
                    game.new_game()
        except (VisitorQuit, KeyboardInterrupt):
            out.write("\n[leaving]\n")
        except CrossCheckMismatch as mismatch:
            out.write(f"\n{mismatch}\n")
            status = 1
        except SimhError as failure:
            out.write(f"\n[the emulator failed and could not be restored: {failure}]\n")
            status = 1
        finally:
            path = save_record(game, started, records)
            if path:
                out.write(f"[game record saved in {path}]\n")
        return status

    return body()
