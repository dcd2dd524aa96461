"""``python -m python_bridge play``: a visitor plays the PDP-1 at the terminal, every move cross-checked.

The emulated typewriter prints live; when the PDP-1 asks for a move the
visitor types a line (a pit number, or ``s`` to swap when offered), which is
typed on the PDP-1's keyboard.  Every move is checked against the reference
engine, a failed emulator is restarted with the game restored, and the game
record of each game is saved as it ends (``records/``).  The game itself is
the driver's (``driver.driver``); this module is the terminal: the echo,
the spinner, the visitor's lines and the records.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.driver import Failure, FrontEnd, GameDriver
from ..driver.keyboard import (
    ask_visitor,
    flush_type_ahead,
    is_terminal,
    keys_unseen_while_busy,
    own_foreground,
    wait_for_any_key,
)
from ..driver.pacing import Pacer
from ..driver.record_files import SessionRecords
from ..driver.visitors import VisitorQuit
from ..driver.wording import count
from ..machine.front_panel import PanelSettings, describe_switches, describe_test_word
from ..machine.kalah_program import ROOT
from ..machine.simh import SimhError
from ..reference.game import Game

RECORDS = ROOT / "records"
SPIN_AFTER = 2.0  # seconds of silence before the host shows that the machine is working
WHEEL = "|/-\\"
# Silence that means a hung emulator.  A fixed level deeper than 12 may think for minutes at full
# speed (level 20: about 50 s on the machine this was measured on), so it is given far longer.
SILENCE_TIMEOUT, DEEP_SILENCE_TIMEOUT, DEEP_LEVEL = 30.0, 1800.0, 13


def silence_timeout(depth: int) -> float:
    """The silence after which the emulator at ``depth`` counts as hung (``play``'s and ``replay``'s)."""
    return DEEP_SILENCE_TIMEOUT if depth >= DEEP_LEVEL else SILENCE_TIMEOUT


@dataclass
class EchoFilter:
    """Writes the typewriter to the terminal, leaving out SIMH's echo of keys the terminal already showed."""

    out: TextIO
    expect: str = field(default="", init=False)  # the echo still to drop
    spinner: "Spinner | None" = None  # told of every output, so it never covers the paper
    keyboard: TextIO | None = None  # its type-ahead is flushed before each line is begun
    at_line_start: bool = field(default=True, init=False)

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
    stays the PDP-1's and the transcript never sees it.  It never draws over
    a line the paper has begun (the question): the driver hands the paper
    over a line at a time, each line's checks made before the next is shown,
    so the slow checks come where the paper's line is empty.
    """

    err: TextIO
    paper: "EchoFilter | None" = None  # the spinner draws only where the paper's line is empty
    lock: threading.RLock = field(default_factory=threading.RLock, init=False)
    asking: bool = field(default=True, init=False)  # the visitor is being asked (or nothing has begun): no spinner
    waiting: bool = field(default=False, init=False)  # the bridge waits for the PDP-1's output (else: it checks a move)
    quiet_since: float = field(default_factory=time.monotonic, init=False)
    shown: bool = field(default=False, init=False)
    _stop: threading.Event = field(default_factory=threading.Event, init=False)

    def __enter__(self) -> "Spinner":
        if is_terminal(self.err):
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
        """The driver is waiting for the PDP-1's output (it is thinking)."""
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
                if self.asking or quiet < SPIN_AFTER or (self.paper is not None and not self.paper.at_line_start):
                    continue  # a line begun on the paper (the question) is never drawn over
                turn += 1
                what = ("the PDP-1 is thinking" if self.waiting
                        else "checking the PDP-1's move with the reference engine")
                wheel = WHEEL[turn % len(WHEEL)]
                self.err.write(f"\r[{what}: {quiet:.0f} s {wheel}]\x1b[K")
                self.err.flush()
                self.shown = True



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
class TerminalFront(FrontEnd):
    """The driver's front end at the terminal: the paper echoed, failures said, the spinner told."""

    echo_filter: EchoFilter
    spinner: Spinner

    def echo(self, text: str) -> None:
        self.echo_filter(text)

    def failed(self, failure: Failure) -> None:
        self.echo_filter.say("\n" + failure.notice() + "\n")

    def restored(self) -> None:
        self.echo_filter.say("\n[restored: the game goes on from the same position]\n")

    def waiting(self, silent: float) -> None:
        self.spinner.on_wait(silent)


def play_at_terminal(panel: PanelSettings, records: Path) -> int:
    """The session at the terminal: games until the visitor leaves, each saved as it ends; the exit status.

    Ctrl-C, Ctrl-\\ and Ctrl-D (end of input) all end the session with the
    game in progress saved and status 0, as in ``play --authentic``.  At a
    game's end the PDP-1's own question is the only one: any line starts a
    new game.
    """
    out = sys.stdout
    echo = EchoFilter(out, keyboard=sys.stdin)
    spinner = Spinner(sys.stderr, paper=echo)
    echo.spinner = spinner
    shelf = SessionRecords(records)
    word = describe_test_word(panel.test_word())
    out.write(f"sense switches 1-6: {describe_switches(panel.switches())}   test word: {word}\n"
              f"  (^ a switch up, a one; . down.  test word {panel.test_word():06o} in octal: "
              f"{count(panel.pits, 'pit')}, {count(panel.seeds, 'seed')}, level {panel.depth or 'auto'})\n"
              "reading the Kalah tape in...  (type a pit number and Enter; Ctrl-D or Ctrl-C to leave)\n")
    driver = GameDriver(panel, TerminalFront(echo, spinner), TerminalVisitor(echo), Pacer(),
                        silence_timeout=silence_timeout(panel.depth), sleep_while_choosing=True)
    status = 0
    playing = False  # a game begun and not yet saved
    try:
        with own_foreground(sys.stdin), keys_unseen_while_busy(sys.stdin), spinner, driver:
            spinner.ask(False)
            while True:
                playing = True
                outcome = driver.play_game()
                playing = False
                shelf.save(outcome, finished=True)
                if shelf.failure:
                    break
                out.write(f"\n[{count(outcome.moves_checked, 'move')} cross-checked against the reference engine; "
                          "Ctrl-D leaves]\n")
                spinner.ask(True)
                if not wait_for_any_key(sys.stdin):  # the PDP-1 asked: any key starts a new game
                    out.write(f"[{shelf.said()}]\n")
                    break
                spinner.ask(False)
                echo.typed("")  # the key that starts the new game: SIMH's echo of it is no line of the paper
                driver.new_game()
    except (VisitorQuit, KeyboardInterrupt):
        spinner.clear()
        if playing:
            shelf.save(driver.outcome(), finished=False)
        out.write(f"\n[you left; {shelf.said()}]\n" if not shelf.failure else "\n[you left]\n")
    except CrossCheckMismatch as mismatch:
        out.write(f"\n{mismatch}\n")
        status = 1
    except SimhError as failure:
        out.write(f"\n[the emulator failed and could not be restored: {failure}]\n")
        status = 1
    finally:
        if status and playing:
            path = shelf.save(driver.outcome(), finished=False, unfinished="stopped by the failure above")
            out.write(f"[the game so far is saved in {path}]\n" if path else f"[{shelf.said()}]\n")
    if shelf.failure:
        out.write(f"\n[{shelf.failure}; here is its record instead]\n{shelf.unsaved_text}\n")
        status = 1
    out.flush()
    return status
