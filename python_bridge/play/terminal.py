"""``python -m python_bridge play``: a visitor plays the PDP-1 at the terminal, every move cross-checked.

The emulated typewriter prints live; when the PDP-1 asks for a move the
visitor types a line (a pit number, or ``s`` to swap when offered), which is
typed on the PDP-1's keyboard.  Every move is checked against the reference
engine, a failed emulator is restarted with the game restored, and the game
record is saved when the program ends (``records/``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..checking.crosscheck import CrossCheckMismatch
from ..checking.keyboard import ask_visitor, ask_yes
from ..checking.record_files import claim, create_new, stamp
from ..machine.front_panel import PanelSettings, describe_switches, describe_test_word
from ..reference.game import Game
from ..machine.kalah_program import ROOT
from ..reference.notation import format_record
from ..checking.recovery import RecoveringGame
from ..checking.session import GameOutcome, VisitorQuit
from ..machine.simh import FULL_SPEED, SimhError

RECORDS = ROOT / "records"
SPIN_AFTER = 2.0  # seconds of silence before the host shows that the PDP-1 is working
# Silence that means a hung emulator.  A fixed level deeper than 12 may think for minutes at full
# speed (level 20: about 50 s on the machine this was measured on), so it is given far longer.
SILENCE_TIMEOUT, DEEP_SILENCE_TIMEOUT, DEEP_LEVEL = 30.0, 1800.0, 13


@dataclass
class EchoFilter:
    """Writes the typewriter to the terminal, leaving out SIMH's echo of keys the terminal already showed."""

    out: TextIO
    expect: str = ""  # the echo still to drop
    spinner: "Spinner | None" = None  # cleared before the typewriter prints again

    def typed(self, keys: str) -> None:
        self.expect = keys + "\r\n"

    def __call__(self, text: str) -> None:
        if self.spinner is not None:
            self.spinner.clear()
        while self.expect and text:
            if text[0] == self.expect[0]:
                text, self.expect = text[1:], self.expect[1:]
            else:
                self.expect = ""
        self.out.write(text.replace("\r", ""))
        self.out.flush()


@dataclass
class Spinner:
    """While the PDP-1 thinks long, a line on the host's terminal (never the transcript) says it works.

    Written to ``err`` only when that is a terminal, and erased before the
    typewriter prints again, so the paper on the screen stays the PDP-1's.
    """

    err: TextIO
    shown: bool = False

    def __call__(self, silent: float) -> None:
        if silent < SPIN_AFTER or not _is_terminal(self.err):
            return
        wheel = "|/-\\"[int(silent * 2) % 4]
        self.err.write(f"\r[the PDP-1 is thinking: {silent:.0f} s {wheel}]")
        self.err.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass
class TerminalVisitor:
    """The person at the terminal: reads a line when the PDP-1 asks for a move."""

    echo: EchoFilter
    source: TextIO = field(default_factory=lambda: sys.stdin)

    def choose(self, game: Game) -> str:
        keys = ask_visitor(game, self.source, self.echo.out)
        self.echo.typed(keys)
        return keys


@dataclass
class SessionRecords:
    """The session's game records in ``folder``: one file a game, named after a stem no other session has."""

    folder: Path
    started: str = field(default_factory=stamp)
    stem: str | None = None
    saved: list[Path] = field(default_factory=list)

    def save(self, game: RecoveringGame, outcome: GameOutcome | None) -> Path | None:
        """Write the game now held (ended: ``outcome``; left early: None); None if it never began."""
        session = game.session
        if session is None or session.checker is None:
            return None
        number = len(self.saved) + 1
        text = record_text(game, outcome, number)
        if self.stem is None:
            self.stem, path = claim(self.folder, f"kalah-{self.started}", f"-game{number}.txt")
            path.write_text(text, encoding="utf-8")
        else:
            path = create_new(self.folder / f"{self.stem}-game{number}.txt", text)
        self.saved.append(path)
        return path

    def said(self) -> str:
        """One line naming what was saved."""
        if not self.saved:
            return "no game was begun: nothing to save"
        if len(self.saved) == 1:
            return f"the game is saved in {self.saved[0]}"
        return f"{len(self.saved)} games are saved in {self.folder}: {', '.join(p.name for p in self.saved)}"


def record_text(game: RecoveringGame, outcome: GameOutcome | None, number: int) -> str:
    """A game's record: settings, moves, result, true figures, and the typewriter transcript."""
    session = game.session
    assert session is not None and session.checker is not None
    checker = session.checker
    t = checker.title
    if outcome is not None and outcome.end is not None:
        scores = ", ".join(f"{player} {score}" for player, score in outcome.end.scores)
        result = f"{scores}; {outcome.end.winner + ' wins' if outcome.end.winner else 'a draw'}"
    else:
        result = f"not finished: the visitor left after {_count(len(checker.game.record), 'move')}"
    lines = [
        f"Kalah on the PDP-1: game record (game {number} of the session)",
        f"pits {t.pits}  seeds {t.seeds}  level {t.level or 'auto'}  rules: {t.variants.describe()}",
        f"first: {t.first}",
        f"record: {format_record(checker.game.record)}",
        f"result: {result}",
        f"moves cross-checked: {checker.moves_checked}  emulator restarts: {game.game_restarts}",
        "",
        "typewriter transcript:",
        session.transcript.replace("\r", ""),
    ]
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def play_at_terminal(panel: PanelSettings, records: Path) -> int:
    """The session at the terminal: games until the visitor leaves, each saved as it ends; the exit status.

    Ctrl-C and Ctrl-D (end of input) both end the session with the game in
    progress saved and status 0, as in ``play --authentic``.
    """
    out = sys.stdout
    spinner = Spinner(sys.stderr)
    echo = EchoFilter(out, spinner=spinner)
    shelf = SessionRecords(records)
    word = describe_test_word(panel.test_word())
    out.write(f"sense switches 1-6: {describe_switches(panel.switches())}   test word: {word}\n"
              f"  (the panel: ^ is a switch up, a one; the test word {panel.test_word():06o} in octal digits "
              f"of three: {panel.pits} pits, {panel.seeds} seeds, level {panel.depth or 'auto'})\n"
              "reading the Kalah tape in...  (type a pit number and Enter; Ctrl-D to leave)\n")
    silence = DEEP_SILENCE_TIMEOUT if panel.depth >= DEEP_LEVEL else SILENCE_TIMEOUT
    game = RecoveringGame(panel, TerminalVisitor(echo), FULL_SPEED,
                          echo=echo, notice=lambda msg: out.write("\n" + msg + "\n"),
                          silence_timeout=silence, on_wait=spinner)
    status = 0
    unsaved = False  # a game begun and not yet saved
    try:
        with game:
            while True:
                unsaved = True
                outcome = game.play_game()
                shelf.save(game, outcome)
                unsaved = False
                out.write(f"\n[{_count(outcome.moves_checked, 'move')} cross-checked against the reference engine]\n")
                out.write("another game? [y/N] ")
                out.flush()
                if not ask_yes():
                    out.write(f"[{shelf.said()}]\n")
                    break
                game.new_game()
    except (VisitorQuit, KeyboardInterrupt):
        spinner.clear()
        if unsaved:
            shelf.save(game, None)
        out.write(f"\n[you left; {shelf.said()}]\n")
    except CrossCheckMismatch as mismatch:
        out.write(f"\n{mismatch}\n")
        status = 1
    except SimhError as failure:
        out.write(f"\n[the emulator failed and could not be restored: {failure}]\n")
        status = 1
    finally:
        if status and unsaved:
            path = shelf.save(game, None)
            if path:
                out.write(f"[the game so far is saved in {path}]\n")
    out.flush()
    return status
