"""The demonstration at the terminal: the typewriter live, the PDP-1's thinking timed, the host's captions.

``Presenter`` is what the audience sees: the driver's front end
(``driver.driver``).  The PDP-1's typewriter output comes to it a line at
a time and it shows it one character at a time at the typewriter's pace;
each line's events (checked by the driver's one cross-checker) come right
after the line, so it puts the PDP-1's thinking time beside each of its
moves and prints the presenter's captions between lines.  The driver steps
the PDP-1's thinking in 1960 time between the ``think`` and ``thx``
breakpoints, every instruction's memory cycles counted, and tells the
presenter as it starts and ends.

``Show`` runs one game on the driver: the tape booted with the read-in drawn
as SIMH's reader reads it, the game played, a failed emulator replaced with
the game restored.
"""

from __future__ import annotations

import re
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Callable, TextIO

from ..driver.crosscheck import CrossChecker
from ..driver.driver import Failure, FrontEnd, GameDriver, GameOutcome, Thought
from ..driver.keyboard import ask_visitor, flush_type_ahead, is_terminal
from ..driver.pacing import Pacer
from ..driver.visitors import Visitor, VisitorQuit
from ..machine.front_panel import PanelSettings
from ..machine.simh import Closing, Simh
from ..machine.transcript import Board, Event, GameOver, Move, Swap, Title
from ..reference.game import Game
from ..reference.rules import NORTH, SOUTH, pit_index
from .captions import CaptionScript, after_move_moments

NAMES = {"south": ("south", "South"), "north": ("north", "North"), "pdp-1": ("the PDP-1", "The PDP-1"),
         "you": ("you", "You")}
_PDP1_MOVE = re.compile(r"(pdp-1|south|north) (?:plays \d|swaps\.)")
CAPTION_WIDTH = 78


def format_seconds(seconds: float) -> str:
    return f"{seconds:.1f}" if seconds >= 0.95 else f"{seconds:.2f}"


@dataclass(frozen=True)
class Style:
    """How host text stands apart from the typewriter's: colour on a terminal, plain in a file."""

    caption: str = ""
    note: str = ""
    reset: str = ""

    @classmethod
    def for_stream(cls, out: TextIO) -> "Style":
        if is_terminal(out):
            return cls(caption="\x1b[36m", note="\x1b[2m", reset="\x1b[0m")
        return cls()


@dataclass
class Presenter(FrontEnd):
    """The audience's view of the game: paced typewriter, thinking times, captions."""

    out: TextIO
    pacer: Pacer
    captions: CaptionScript | None = None
    style: Style = field(default_factory=Style)
    hide_typed_echo: bool = False  # the terminal showed the visitor's keys already
    keyboard: TextIO | None = None  # the visitor's: its type-ahead is flushed before each line is begun
    working: TextIO | None = None  # a terminal where a long think is shown to be one (never the paper)
    thoughts: list[Thought] = field(default_factory=list)  # the PDP-1's choices, as measured
    checker: CrossChecker | None = field(default=None, init=False)
    _working_shown: bool = field(default=False, init=False)
    _line: str = field(default="", init=False)
    _echo: str = field(default="", init=False)
    _thought: Thought | None = field(default=None, init=False)  # measured, its move not yet typed
    _think_began: float = field(default=0.0, init=False)

    # -- the typewriter ------------------------------------------------------------------
    @property
    def paces_echo(self) -> bool:
        return bool(self.pacer.typing_rate)

    def echo(self, text: str) -> None:
        """The PDP-1's output as the driver read it, a line at a time."""
        for char in text:
            if self._echo:
                if char == self._echo[0]:
                    self._echo = self._echo[1:]
                    if not self._echo:  # the visitor's Enter ended the prompt's line on the terminal
                        self._line = ""
                    continue
                self._echo = ""
            if char == "\r":
                continue
            if char == "\n":
                self._end_line()
            else:
                self.pacer.character()
                self._write(char)
                self._line += char
                if self.pacer.typing_rate:
                    self.out.flush()
        self.out.flush()

    def typed(self, keys: str) -> None:
        """The visitor typed ``keys`` and Enter: SIMH's echo of them is not shown again."""
        self._echo = keys + "\r\n" if self.hide_typed_echo else ""

    def _write(self, text: str) -> None:
        if self._working_shown and self.working is not None:
            self.working.write("\r\x1b[K")  # the thinking line goes before the typewriter prints
            self.working.flush()
            self._working_shown = False
        if self.keyboard is not None and not self._line:  # a line begins (the question is one)
            flush_type_ahead(self.keyboard)
        self.out.write(text)

    def _end_line(self) -> None:
        line, self._line = self._line, ""
        thought = self._thought
        if thought is not None and _PDP1_MOVE.match(line):
            self._write(f"{self.style.note}   [thinking: {format_seconds(thought.seconds)} s]{self.style.reset}")
        self.pacer.character()  # carriage return and line feed: one code, one character's time
        self._write("\n")
        self.out.flush()

    # -- host text -------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """A line of the host's (a caption), never inside a typewriter line."""
        if self._line:
            self._write("\n")
            self._line = ""
        for line in textwrap.wrap(text, CAPTION_WIDTH - 6) or [""]:
            self._write(f"{self.style.caption}   >> {line}{self.style.reset}\n")
        self.out.flush()

    def failed(self, failure: Failure) -> None:
        """A message about the machine: said, and the echo to hide forgotten."""
        if failure.restored:
            self.say(f"[the emulator failed: {failure.reason}; a fresh one takes the game over from the same position]")
        else:
            self.say(f"[the emulator failed {failure.when}: {failure.reason}]")
        self._echo = ""

    def _caption(self, moments: list[str], **values: object) -> None:
        if self.captions is None or self.checker is None:
            return
        caption = self.captions.caption(moments, {**self._common_values(), **values})
        if caption:
            self.say(caption)

    def _common_values(self) -> dict[str, object]:
        assert self.checker is not None
        title, pos = self.checker.title, self.checker.game.position
        if self.checker.pdp1_side is None:
            bottom, top = NAMES["south"], NAMES["north"]
        else:
            bottom, top = NAMES["you"], NAMES["pdp-1"]
        return {
            "pits": title.pits, "seeds": title.seeds, "level": title.level or "auto",
            "search": (f"{title.level} half-moves (plies) deep" if title.level
                       else "as deep as ten seconds of 1960 thinking allow"),
            "move": len(self.checker.game.record),
            "south": pos.store(SOUTH), "north": pos.store(NORTH),
            "bottom": bottom[0], "Bottom": bottom[1], "top": top[0], "Top": top[1],
        }

    # -- what the paper says (the driver's events, each checked) ------------------------------------
    def event(self, event: Event, checker: CrossChecker) -> None:
        self.checker = checker
        if isinstance(event, Title):
            self._caption(["start"])
        elif isinstance(event, (Move, Swap)):
            self._on_move(event, checker)
        elif isinstance(event, Board):
            pos = checker.game.position
            if not pos.over and checker.pdp1_side is not None and pos.to_move != checker.pdp1_side:
                self._caption(["visitor"], player="you", Player="You")
        elif isinstance(event, GameOver):
            self._on_end(event, checker)

    def _on_move(self, event: Move | Swap, checker: CrossChecker) -> None:
        before = checker.last_position_before
        assert before is not None
        values: dict[str, object] = {"player": NAMES[event.player][0], "Player": NAMES[event.player][1]}
        thought = self._thought if checker.is_pdp1(checker.side_of(event.player)) else None
        if thought is not None:
            self._thought = None
            values.update(depth=thought.depth, positions=f"{thought.positions:,}",
                          seconds=format_seconds(thought.seconds), instructions=f"{thought.instructions:,}",
                          cycles=f"{thought.cycles:,}")
        number = len(checker.game.record)
        if isinstance(event, Move):
            side = checker.side_of(event.player)
            values.update(pit=event.pit, sown=before.board[pit_index(before.pits, side, event.pit)],
                          captured=event.captured)
            moments = after_move_moments(number, event.captured, event.extra_turn, False)
        else:
            moments = after_move_moments(number, 0, False, True)
        self._caption(moments, **values)

    def _on_end(self, end: GameOver, checker: CrossChecker) -> None:
        (first, first_score), (second, second_score) = end.scores
        winner = end.winner or "nobody"
        high, low = max(first_score, second_score), min(first_score, second_score)
        names = NAMES.get(winner, ("nobody", "Nobody"))
        result = f"a draw, {high} to {low}" if end.winner is None else f"{names[0]} wins {high} to {low}"
        self._caption(["end"], winner=names[0], Winner=names[1], score=f"{high} to {low}", result=result,
                      moves=len(checker.game.record),
                      thinking=format_seconds(sum(t.seconds for t in self.thoughts)))

    # -- the PDP-1's thinking (stepped by the driver) -------------------------------------------
    def thinking(self, thought: Thought, sim: Simh) -> None:
        name, capital = NAMES[thought.player]
        self._caption(["think"], player=name, Player=capital, depth=thought.depth,
                      positions=f"{thought.positions:,}", move=thought.move)
        self._think_began = self.pacer.clock()

    def slice(self, sim: Simh, cycles: int) -> None:
        """Between the steps of a paced think: after two seconds, a line on the host's terminal says
        the PDP-1 is thinking, with its time so far, so a visitor does not take it for a hang."""
        seconds = self.pacer.clock() - self._think_began
        if self.working is None or seconds < 2:
            return
        self.working.write(f"\r[the PDP-1 is thinking: {seconds:.0f} s]")
        self.working.flush()
        self._working_shown = True

    def thought(self, thought: Thought) -> None:
        self._thought = thought
        self.thoughts.append(thought)


class DemoVisitor:
    """The person at the terminal with ``--visitor``: a line when the PDP-1 asks."""

    def __init__(self, presenter: Presenter, source: TextIO | None = None) -> None:
        self.presenter = presenter
        self.source = source or sys.stdin

    def choose(self, game: Game) -> str:
        """The visitor's line, once the paper shows the question: type-ahead flushed, keys the
        typewriter lacks refused (``driver.keyboard``)."""
        self.presenter.pacer.typewriter_idle()
        keys = ask_visitor(game, self.source, self.presenter.out)
        self.presenter.typed(keys)
        return keys


@dataclass
class Show(Closing):
    """One game of the demonstration on a fresh emulator, read in from the tape as the audience watches."""

    panel: PanelSettings
    presenter: Presenter
    visitor: Visitor | None
    start_address: int
    reader_at: Callable[[int], None]
    timeout: float = 30.0
    driver: GameDriver = field(init=False)

    def __post_init__(self) -> None:
        self.driver = GameDriver(self.panel, self.presenter, self.visitor, self.presenter.pacer,
                                 silence_timeout=self.timeout, timeout=self.timeout)

    @property
    def restarts(self) -> int:
        return self.driver.restarts

    @property
    def read_in_instructions(self) -> int:
        return self.driver.read_in_instructions

    def close(self) -> None:
        self.driver.close()

    def boot(self) -> None:
        """Set the panel, mount the tape, press READ IN: the read-in drawn as the reader goes."""
        self.driver.start(reader=self.reader_at, start_address=self.start_address)

    def play(self) -> GameOutcome:
        """The game to its end; a failed emulator is replaced and the game restored."""
        return self.driver.play_game()


__all__ = ["DemoVisitor", "Presenter", "Show", "Style", "Thought", "VisitorQuit", "format_seconds"]
