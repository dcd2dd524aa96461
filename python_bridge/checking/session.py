"""A game in play mode on the emulated PDP-1, every move cross-checked.

``PlaySession`` reads the typewriter as it prints, turns it into events,
hands each to the cross-checker, and when the program asks for the
visitor's move asks a ``Visitor`` (a person at the terminal, or a reference
player for automated cross-checks) and types the answer.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

from ..machine.transcript import Complaint, Event, GameOver, Move, NewGameOffer, Prompt, Swap, Title, TranscriptParser
from .crosscheck import CrossChecker, CrossCheckMismatch
from ..reference.game import Game
from ..machine.kalah_program import KalahMachine
from ..reference.search import best_move
from ..reference.notation import format_record
from ..machine.simh import BreakpointReached, SimhTimeout

WAIT_TICK = 0.5  # how often on_wait hears that the PDP-1 is still silent (seconds)


class VisitorQuit(Exception):
    """The visitor ended the session (end of input or interrupt)."""


class Visitor(Protocol):
    """Whoever answers the PDP-1's "your move?": returns the keys to type (without the carriage return)."""

    def choose(self, game: Game) -> str: ...


@dataclass
class RandomVisitor:
    """Plays a random legal move (swapping now and then when offered); seeded, so games repeat."""

    rng: random.Random

    def choose(self, game: Game) -> str:
        if game.swap_offered and self.rng.random() < 0.5:
            return "s"
        return str(self.rng.choice(game.position.legal_pits()))


@dataclass
class SearchVisitor:
    """Plays the reference search's move at a fixed depth (never swaps)."""

    depth: int

    def choose(self, game: Game) -> str:
        return str(best_move(game.position, self.depth, game.variants).pit)


@dataclass
class GameOutcome:
    """What one game produced."""

    title: Title
    record: list[int | str]
    end: GameOver | None
    moves_checked: int
    choices_checked: int
    transcript: str

    def record_text(self) -> str:
        return format_record(self.record)

    @classmethod
    def of(cls, checker: CrossChecker, transcript: str) -> "GameOutcome":
        """What the game ``checker`` followed produced, its end included once it was printed and checked."""
        return cls(checker.title, list(checker.game.record), checker.end, checker.moves_checked,
                   checker.choices_checked, transcript)


@dataclass
class PlaySession:
    """Drives one machine in play mode through whole games."""

    machine: KalahMachine
    visitor: Visitor | None  # None: the PDP-1 plays both sides
    echo: Callable[[str], None] | None = None  # live typewriter output, e.g. to a terminal
    on_event: Callable[[Event, CrossChecker | None], None] | None = None
    silence_timeout: float = 60.0  # longest the PDP-1 may stay silent (thinking) before it counts as hung
    on_break: Callable[[int | None], None] | None = None  # called at each breakpoint (set by the caller), then cont
    on_wait: Callable[[float], None] | None = None  # told every WAIT_TICK how long the PDP-1 has been silent
    parser: TranscriptParser = field(default_factory=TranscriptParser)
    checker: CrossChecker | None = None
    pending_keys: str | None = None  # typed for the visitor, not yet answered by the PDP-1
    transcript: str = ""  # this game's typewriter output (kept across restarts)

    def play_game(self, resume: bool = False) -> GameOutcome:
        """Play to the new-game offer; raise CrossCheckMismatch on any difference.

        ``resume``: go on with the game the checker holds (after the machine
        was restarted and the game deposited), rather than wait for a title.
        """
        sim = self.machine.sim
        if not resume:
            self.checker = None
            self.pending_keys = None
            self.transcript = ""
        while True:
            try:
                text = self._read(sim)
            except BreakpointReached as stop:
                if self.on_break is None:
                    raise
                self.on_break(stop.pc)
                sim.cont()
                continue
            self.transcript += text
            if self.echo:
                self.echo(text)
            for event in self.parser.feed(text):
                if isinstance(event, Title):
                    self.checker = CrossChecker(event)
                checker = self.checker
                if checker is None:
                    continue
                checker.transcript_tail = sim.tail(1500)
                checker.on_event(event)
                if isinstance(event, (Move, Swap, Complaint)):
                    self.pending_keys = None  # the PDP-1 has answered what was typed
                if self.on_event:
                    self.on_event(event, checker)
                if isinstance(event, Prompt):
                    self._answer(checker)
                elif isinstance(event, NewGameOffer):
                    if not checker.finished:
                        raise CrossCheckMismatch("the PDP-1 offered a new game before the game ended")
                    return GameOutcome.of(checker, self.transcript)

    def _read(self, sim) -> str:
        """The next output; while the PDP-1 is silent (thinking) ``on_wait`` hears how long it has been."""
        if self.on_wait is None:
            return sim.read_some(self.silence_timeout)
        began = time.monotonic()
        while True:
            silent = time.monotonic() - began
            if silent >= self.silence_timeout:
                raise SimhTimeout(f"no output from the PDP-1 for {self.silence_timeout:.0f} s", sim.tail())
            try:
                return sim.read_some(min(WAIT_TICK, self.silence_timeout - silent))
            except SimhTimeout:
                self.on_wait(time.monotonic() - began)

    def _answer(self, checker: CrossChecker) -> None:
        if self.visitor is None:
            raise CrossCheckMismatch("the PDP-1 asked for a move in a game it plays against itself")
        if self.pending_keys is None:  # after a restart, what was typed is typed again
            self.pending_keys = self.visitor.choose(checker.game)
        self.machine.sim.type(self.pending_keys + "\r")

    def new_game(self) -> None:
        """Answer the new-game offer (any key) so the program re-reads the panel and starts again."""
        self.parser = TranscriptParser()
        self.machine.sim.type("\r")


def play_games(machine: KalahMachine, visitor: Visitor | None, games: int,
               echo: Callable[[str], None] | None = None) -> list[GameOutcome]:
    """Play ``games`` whole games on one machine, cross-checking every move."""
    session = PlaySession(machine, visitor, echo=echo)
    outcomes = []
    for n in range(games):
        if n:
            session.new_game()
        outcomes.append(session.play_game())
    return outcomes


__all__ = ["GameOutcome", "PlaySession", "RandomVisitor", "SearchVisitor", "Visitor", "play_games"]
