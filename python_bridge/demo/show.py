"""The demonstration at the terminal: the typewriter live, the PDP-1's thinking timed, the host's captions.

``Presenter`` is what the audience sees.  It is the echo of a
``PlaySession``: the PDP-1's typewriter output comes to it as it is read,
and it shows it one character at a time at the typewriter's pace.  It reads
the output line by line itself (its own ``TranscriptParser`` and
``CrossChecker``, following the paper exactly as the audience sees it; the
session's own checker does the checking that counts), so it knows at each
line's end what has just happened: there it puts the PDP-1's thinking time
beside each of its moves and prints the presenter's captions between lines.
It is also the session's ``on_break``: the PDP-1 stops itself where its
choice starts and ends, and the thinking is stepped there in 1960 time
(``demo_pacing``), every instruction's memory cycles counted.

``Show`` runs one game: boots the tape with the read-in drawn as SIMH's
reader reads it, plays the game, and replaces a failed emulator with the
game restored (``recovery.restore_machine``), as the other commands do.
"""

from __future__ import annotations

import re
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Callable, TextIO

from ..machine.transcript import Board, Event, GameOver, Move, Swap, Title, TranscriptParser
from ..checking.crosscheck import CrossChecker
from .captions import CaptionScript, after_move_moments
from .pacing import LOADER_START, MAX_THINK, Pacer, read_in, seconds_1960, think_to_break
from ..machine.front_panel import PanelSettings
from ..reference.game import Game
from ..machine.kalah_program import KalahMachine, program_symbols
from ..reference.rules import NORTH, SOUTH, pit_index
from ..checking.keyboard import ask_visitor, flush_type_ahead
from ..checking.session import GameOutcome, PlaySession, Visitor, VisitorQuit
from ..checking.recovery import play_with_restarts, restore_machine
from ..machine.simh import FULL_SPEED, QUIET_SPEED, Closing, MachineConfig, SimhError

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
        isatty = getattr(out, "isatty", None)
        if isatty is not None and isatty():
            return cls(caption="\x1b[36m", note="\x1b[2m", reset="\x1b[0m")
        return cls()


@dataclass
class Thought:
    """One choice of the PDP-1's: measured between its breakpoints, described by the reference."""

    move: int  # the move's number in the game, from 1
    player: str  # as the typewriter names it
    depth: int
    positions: int
    instructions: int = 0
    cycles: int = 0  # memory cycles, 5 us each
    choice: str = ""  # "pit 3" or "swap", once typed

    @property
    def seconds(self) -> float:
        """True 1960 seconds: the thinking's memory cycles at 5 us."""
        return seconds_1960(self.cycles)


@dataclass
class Presenter:
    """The audience's view of the game: paced typewriter, thinking times, captions."""

    out: TextIO
    pacer: Pacer
    captions: CaptionScript | None = None
    style: Style = field(default_factory=Style)
    hide_typed_echo: bool = False  # the terminal showed the visitor's keys already
    keyboard: TextIO | None = None  # the visitor's: its type-ahead is flushed before each line is begun
    working: TextIO | None = None  # a terminal where a long think is shown to be one (never the paper)
    _working_shown: bool = False
    machine: KalahMachine | None = None  # the machine now playing (replaced after a failure)
    think_pc: int = 0
    thx_pc: int = 0
    checker: CrossChecker | None = None
    parser: TranscriptParser = field(default_factory=TranscriptParser)
    thoughts: list[Thought] = field(default_factory=list)
    _line: str = ""
    _echo: str = ""
    _thinking: Thought | None = None
    _think_started: int = 0
    _thought: Thought | None = None  # measured, its move not yet typed

    # -- the typewriter ------------------------------------------------------------------
    def __call__(self, text: str) -> None:
        """PlaySession's echo: the PDP-1's output as it was read."""
        for char in text:
            if self._echo:
                if char == self._echo[0]:
                    self._echo = self._echo[1:]
                    if not self._echo:  # the visitor's Enter ended the prompt's line on the terminal
                        self._line = ""
                    self._feed(char)
                    continue
                self._echo = ""
            if char == "\r":
                self._feed(char)
            elif char == "\n":
                self._end_line()
            else:
                self.pacer.character()
                self._write(char)
                self._line += char
                self._feed(char)
                if self.pacer.paced:
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

    def _working(self, began: float) -> None:
        """Between the steps of a paced think: after two seconds, a line on the host's terminal says
        the PDP-1 is thinking, with its 1960 time so far, so a visitor does not take it for a hang."""
        seconds = self.pacer.clock() - began
        if self.working is None or seconds < 2:
            return
        self.working.write(f"\r[the PDP-1 is thinking: {seconds:.0f} s]")
        self.working.flush()
        self._working_shown = True

    def _feed(self, text: str) -> None:
        for event in self.parser.feed(text):
            self._on_event(event)

    def _end_line(self) -> None:
        line, self._line = self._line, ""
        thought = self._thought
        if thought is not None and _PDP1_MOVE.match(line):
            self._write(f"{self.style.note}   [thinking: {format_seconds(thought.seconds)} s]{self.style.reset}")
        self.pacer.character()  # carriage return and line feed: one code, one character's time
        self._write("\n")
        self.out.flush()
        self._feed("\n")

    # -- host text -------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """A line of the host's (a caption), never inside a typewriter line."""
        if self._line:
            self._write("\n")
            self._line = ""
        for line in textwrap.wrap(text, CAPTION_WIDTH - 6) or [""]:
            self._write(f"{self.style.caption}   >> {line}{self.style.reset}\n")
        self.out.flush()

    def notice(self, text: str) -> None:
        """A message about the machine (a restart): said, and the line reading starts afresh."""
        self.say(text)
        self.parser = TranscriptParser()
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

    # -- what the paper says -----------------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        if isinstance(event, Title):
            self.checker = CrossChecker(event)
            self._caption(["start"])
            return
        checker = self.checker
        if checker is None:
            return
        if isinstance(event, (Move, Swap)):
            self._on_move(event, checker)
            return
        checker.on_event(event)
        if isinstance(event, Board):
            pos = checker.game.position
            if not pos.over and checker.pdp1_side is not None and pos.to_move != checker.pdp1_side:
                self._caption(["visitor"], player="you", Player="You")
        elif isinstance(event, GameOver):
            self._on_end(event, checker)

    def _on_move(self, event: Move | Swap, checker: CrossChecker) -> None:
        before = checker.game.position
        side = checker.side_of(event.player)
        values: dict[str, object] = {"player": NAMES[event.player][0], "Player": NAMES[event.player][1]}
        thought = self._thought if checker.is_pdp1(side) else None
        if thought is not None:
            thought.choice = f"pit {event.pit}" if isinstance(event, Move) else "swap"
            self.thoughts.append(thought)
            self._thought = None
            values.update(depth=thought.depth, positions=f"{thought.positions:,}",
                          seconds=format_seconds(thought.seconds), instructions=f"{thought.instructions:,}",
                          cycles=f"{thought.cycles:,}")
        if isinstance(event, Move):
            values.update(pit=event.pit, sown=before.board[pit_index(before.pits, side, event.pit)],
                          captured=event.captured)
        checker.on_event(event)
        number = len(checker.game.record)
        if isinstance(event, Move):
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

    # -- the PDP-1's thinking (PlaySession's on_break) -----------------------------------------
    def on_break(self, pc: int | None) -> None:
        """The PDP-1 stopped where it starts (``think``) or ends (``thx``) choosing a move."""
        assert self.machine is not None
        sim = self.machine.sim
        if pc == self.think_pc:
            self._begin_thinking(sim.instructions())
            # stepped to the exit, every cycle counted (in 1960 time when paced); the session goes on from there
            began = self.pacer.typewriter_idle()
            self._end_thinking(*think_to_break(sim, self.thx_pc, self.pacer, MAX_THINK,
                                               between=lambda: self._working(began)))
        elif pc == self.thx_pc:
            return  # the thinking was stepped to here and measured at its start
        else:
            raise SimhError(f"the PDP-1 stopped at an unexpected breakpoint {pc}")

    def _begin_thinking(self, instructions: int) -> None:
        self._think_started = instructions
        checker = self.checker
        if checker is None:
            raise SimhError("the PDP-1 started thinking before its title was read")
        _swap, _pit, depth, positions = checker.reference_choice()
        side = checker.game.position.to_move
        player = ("south" if side == SOUTH else "north") if checker.pdp1_side is None else "pdp-1"
        self._thinking = Thought(len(checker.game.record) + 1, player, depth, positions)
        name, capital = NAMES[player]
        self._caption(["think"], player=name, Player=capital, depth=depth, positions=f"{positions:,}",
                      move=len(checker.game.record) + 1)

    def _end_thinking(self, instructions: int, cycles: int) -> None:
        thought = self._thinking
        if thought is None:
            raise SimhError("the PDP-1 ended a choice it had not started")
        thought.instructions = instructions
        thought.cycles = cycles
        self._thinking = None
        self._thought = thought
        self.pacer.free_at = self.pacer.clock()


class DemoVisitor:
    """The person at the terminal with ``--visitor``: a line when the PDP-1 asks."""

    def __init__(self, presenter: Presenter, source: TextIO | None = None) -> None:
        self.presenter = presenter
        self.source = source or sys.stdin

    def choose(self, game: Game) -> str:
        """The visitor's line, once the paper shows the question: type-ahead flushed, keys the
        typewriter lacks refused (``checking.keyboard``)."""
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
    restarts: int = 0
    read_in_instructions: int = 0
    session: PlaySession | None = None

    def close(self) -> None:
        if self.presenter.machine is not None:
            self.presenter.machine.close()
            self.presenter.machine = None

    def breakpoints(self) -> tuple[int, int]:
        symbols = program_symbols()
        return symbols["think"], symbols["thx"]

    def speed(self) -> MachineConfig:
        """Paced (1960 speed) the machine idles throttled between steps; --fast runs it flat out."""
        return QUIET_SPEED if self.presenter.pacer.paced else FULL_SPEED

    def boot(self) -> None:
        """Set the panel, mount the tape, press READ IN: the read-in drawn as the reader goes."""
        think, thx = self.breakpoints()
        self.presenter.think_pc, self.presenter.thx_pc = think, thx
        machine = KalahMachine(self.panel, self.speed(), timeout=self.timeout,
                               breakpoints=(LOADER_START, self.start_address, think, thx))
        self.presenter.machine = machine
        self.read_in_instructions = read_in(machine.sim, self.start_address, self.presenter.pacer,
                                            self.reader_at, self.timeout)
        machine.sim.cont()
        self.session = PlaySession(machine, self.visitor, echo=self.presenter, on_break=self.presenter.on_break,
                                   silence_timeout=self.timeout)

    def play(self) -> GameOutcome:
        """The game to its end; a failed emulator is replaced and the game restored."""
        if self.session is None:
            self.boot()
        assert self.session is not None

        def announce(reason: str) -> None:
            self.restarts += 1  # counted as it happens: a show stopped later still says it
            self.presenter.notice(f"[the emulator failed: {reason}; "
                                  "a fresh one takes the game over from the same position]")

        def restore(checker: CrossChecker) -> KalahMachine:
            self.close()
            machine = restore_machine(self.panel, self.speed(), checker, timeout=self.timeout,
                                      breakpoints=self.breakpoints())
            self.presenter.machine = machine
            return machine

        def lost_after_end(reason: str) -> None:
            self.restarts += 1
            self.presenter.notice(f"[the emulator failed after the game ended: {reason}]")

        outcome, _restarts = play_with_restarts(self.session, restore, announce, lost_after_end)
        return outcome


__all__ = ["DemoVisitor", "Presenter", "Show", "Style", "Thought", "VisitorQuit", "format_seconds"]
