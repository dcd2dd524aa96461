"""``python -m python_bridge play``: a visitor plays the PDP-1 at the terminal, every move cross-checked.

The emulated typewriter prints live; when the PDP-1 asks for a move the
visitor types a line (a pit number, or ``s`` to swap when offered), which is
typed on the PDP-1's keyboard.  Every move is checked against the reference
engine, a failed emulator is restarted with the game restored, and the game
record is saved when the program ends (``records/``).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..checking.crosscheck import CrossCheckMismatch
from ..checking.keyboard import ask_visitor, ask_yes, flush_type_ahead, keys_unseen_while_busy
from ..checking.wording import count
from ..checking.record_files import claim, create_new, stamp
from ..machine.front_panel import PanelSettings, describe_switches, describe_test_word
from ..reference.game import Game
from ..machine.kalah_program import ROOT
from ..reference.notation import format_record
from ..checking.recovery import RecoveringGame
from ..checking.session import GameOutcome, VisitorQuit
from ..machine.simh import FULL_SPEED, SimhError

RECORDS = ROOT / "records"
SPIN_AFTER = 2.0  # seconds of silence before the host shows that the machine is working
WHEEL = "|/-\\"
# Silence that means a hung emulator.  A fixed level deeper than 12 may think for minutes at full
# speed (level 20: about 50 s on the machine this was measured on), so it is given far longer.
SILENCE_TIMEOUT, DEEP_SILENCE_TIMEOUT, DEEP_LEVEL = 30.0, 1800.0, 13


@dataclass
class EchoFilter:
    """Writes the typewriter to the terminal, leaving out SIMH's echo of keys the terminal already showed."""

    out: TextIO
    expect: str = ""  # the echo still to drop
    spinner: "Spinner | None" = None  # told of every output, so it never covers the paper
    keyboard: TextIO | None = None  # its type-ahead is flushed before each line is begun
    at_line_start: bool = True

    def typed(self, keys: str) -> None:
        self.expect = keys + "\r\n"

    def __call__(self, text: str) -> None:
        while self.expect and text:
            if text[0] == self.expect[0]:
                text, self.expect = text[1:], self.expect[1:]
            else:
                self.expect = ""
        self.say(text)

    def _write(self, text: str) -> None:
        """Print; before a line is begun, drop the type-ahead: the question is a line's beginning, so
        no key typed before it appeared answers it.  (Once a line, not every write: a flush also drops
        a Ctrl-C the terminal has not yet taken in, and fewer flushes make that rarer.)"""
        text = text.replace("\r", "")
        for piece in text.splitlines(keepends=True):
            if self.at_line_start and self.keyboard is not None:
                flush_type_ahead(self.keyboard)
            self.out.write(piece)
            self.at_line_start = piece.endswith("\n")
        self.out.flush()

    def say(self, text: str) -> None:
        """The host's own line (a restart notice): printed as the typewriter is, never over the spinner."""
        if self.spinner is None:
            self._write(text)
            return
        with self.spinner.lock:
            self.spinner.activity()
            self._write(text)


@dataclass
class Spinner:
    """While nothing is printed for a while, a line on the host's terminal says the machine is working.

    Why a thread of its own: the wait is either the PDP-1 thinking (the
    bridge waits for its output) or the bridge checking the PDP-1's move with
    the reference engine, which at the deepest levels takes longer than the
    emulated PDP-1 itself; neither loop can draw.  It writes to ``err`` only
    when that is a terminal, never while the visitor is being asked, and
    erases itself before anything else is printed, so the paper on the screen
    stays the PDP-1's and the transcript never sees it.
    """

    err: TextIO
    lock: threading.RLock = field(default_factory=threading.RLock)
    asking: bool = True  # the visitor is being asked (or nothing has begun): no spinner
    waiting: bool = False  # the bridge waits for the PDP-1's output (else: it checks a move)
    quiet_since: float = field(default_factory=time.monotonic)
    shown: bool = False
    _stop: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> "Spinner":
        if _is_terminal(self.err):
            threading.Thread(target=self._run, name="spinner", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.clear()

    def activity(self) -> None:
        """Something is about to be printed: erase the spinner, start the quiet time afresh."""
        with self.lock:
            self.clear()
            self.waiting = False
            self.quiet_since = time.monotonic()

    def on_wait(self, _silent: float) -> None:
        """PlaySession's on_wait: the bridge is waiting for the PDP-1 (it is thinking)."""
        self.waiting = True

    def ask(self, asking: bool) -> None:
        with self.lock:
            self.clear()
            self.asking = asking
            self.quiet_since = time.monotonic()

    def clear(self) -> None:
        with self.lock:
            if self.shown:
                self.err.write("\r\x1b[K")
                self.err.flush()
                self.shown = False

    def _run(self) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # Ctrl-C must wake the main thread
        turn = 0
        while not self._stop.wait(0.25):
            with self.lock:
                quiet = time.monotonic() - self.quiet_since
                if self.asking or quiet < SPIN_AFTER:
                    continue
                turn += 1
                what = "the PDP-1 is thinking" if self.waiting else "checking the PDP-1's move with the reference engine"
                wheel = WHEEL[turn % len(WHEEL)]
                self.err.write(f"\r[{what}: {quiet:.0f} s {wheel}]\x1b[K")
                self.err.flush()
                self.shown = True


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass
class TerminalVisitor:
    """The person at the terminal: reads a line when the PDP-1 asks for a move."""

    echo: EchoFilter
    source: TextIO = field(default_factory=lambda: sys.stdin)

    def choose(self, game: Game) -> str:
        spinner = self.echo.spinner
        if spinner is not None:
            spinner.ask(True)
        try:
            keys = ask_visitor(game, self.source, self.echo.out)
        finally:
            if spinner is not None:
                spinner.ask(False)
        self.echo.typed(keys)
        return keys


@dataclass
class SessionRecords:
    """The session's game records in ``folder``: one file a game, named after a stem no other session has."""

    folder: Path
    started: str = field(default_factory=stamp)
    stem: str | None = None
    saved: list[Path] = field(default_factory=list)
    failure: str = ""  # why a record could not be written (the folder vanished, the disk is full)

    def save(self, game: RecoveringGame, outcome: GameOutcome | None, unfinished: str = "the visitor left") -> Path | None:
        """Write the game now held (ended: ``outcome``; else None and why it did not end).

        None if the game never began, or if the file could not be written (``failure`` says why).
        """
        session = game.session
        if session is None or session.checker is None:
            return None
        number = len(self.saved) + 1
        text = record_text(game, outcome, number, unfinished)
        try:
            if self.stem is None:
                self.stem, path = claim(self.folder, f"kalah-{self.started}", f"-game{number}.txt")
                path.write_text(text, encoding="utf-8")
            else:
                path = create_new(self.folder / f"{self.stem}-game{number}.txt", text)
        except OSError as failure:
            self.failure = f"game {number} could not be saved in {self.folder}: {failure.strerror or failure}"
            return None
        self.saved.append(path)
        return path

    def said(self) -> str:
        """One line naming what was saved."""
        if self.failure:
            return self.failure
        if not self.saved:
            return "no game was begun: nothing to save"
        if len(self.saved) == 1:
            return f"the game is saved in {self.saved[0]}"
        first, last = self.saved[0].name, self.saved[-1].name
        return f"{len(self.saved)} games are saved in {self.folder}: {first} to {last}"


def record_text(game: RecoveringGame, outcome: GameOutcome | None, number: int,
                unfinished: str = "the visitor left") -> str:
    """A game's record: settings, moves, result, true figures, and the typewriter transcript."""
    session = game.session
    assert session is not None and session.checker is not None
    checker = session.checker
    t = checker.title
    if outcome is not None and outcome.end is not None:
        result = outcome.end.result()
    else:
        result = f"not finished: {unfinished} after {count(len(checker.game.record), 'move')}"
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


def play_at_terminal(panel: PanelSettings, records: Path) -> int:
    """The session at the terminal: games until the visitor leaves, each saved as it ends; the exit status.

    Ctrl-C and Ctrl-D (end of input) both end the session with the game in
    progress saved and status 0, as in ``play --authentic``.
    """
    out = sys.stdout
    spinner = Spinner(sys.stderr)
    echo = EchoFilter(out, spinner=spinner, keyboard=sys.stdin)
    shelf = SessionRecords(records)
    word = describe_test_word(panel.test_word())
    out.write(f"sense switches 1-6: {describe_switches(panel.switches())}   test word: {word}\n"
              f"  (^ a switch up, a one; . down.  test word {panel.test_word():06o} in octal: "
              f"{count(panel.pits, 'pit')}, {count(panel.seeds, 'seed')}, level {panel.depth or 'auto'})\n"
              "reading the Kalah tape in...  (type a pit number and Enter; Ctrl-D or Ctrl-C to leave)\n")
    silence = DEEP_SILENCE_TIMEOUT if panel.depth >= DEEP_LEVEL else SILENCE_TIMEOUT
    game = RecoveringGame(panel, TerminalVisitor(echo), FULL_SPEED,
                          echo=echo, notice=lambda msg: echo.say("\n" + msg + "\n"),
                          silence_timeout=silence, on_wait=spinner.on_wait)
    status = 0
    unsaved = False  # a game begun and not yet saved
    try:
        with keys_unseen_while_busy(sys.stdin), spinner, game:
            spinner.ask(False)
            while True:
                unsaved = True
                outcome = game.play_game()
                shelf.save(game, outcome)
                unsaved = False
                if shelf.failure:
                    out.write(f"\n[{shelf.failure}]\n")
                    status = 1
                    break
                out.write(f"\n[{count(outcome.moves_checked, 'move')} cross-checked against the reference engine]\n")
                spinner.ask(True)
                if not ask_yes("another game? [y/N] ", out):
                    out.write(f"[{shelf.said()}]\n")
                    break
                spinner.ask(False)
                echo.typed("")  # the key that starts the new game: SIMH's echo of it is no line of the paper
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
            path = shelf.save(game, None, "stopped by the failure above")
            out.write(f"[the game so far is saved in {path}]\n" if path else f"[{shelf.said()}]\n")
    out.flush()
    return 1 if shelf.failure else status
