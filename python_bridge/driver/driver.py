"""The one game driver: every game on the PDP-1 -- play, the demonstration, the kiosk, the cross-check.

Why one: loops of each front end's own (reading the typewriter, restoring a failed emulator, stepping
the thinking) had their bugs one at a time.  Here a game is owned from read-in to record:

* the machine and its restore policy: a failed or hung ``pdp1`` is replaced
  and the game restored (``restore``) up to ``max_restarts`` times a game,
  each restore tried ``restore_tries`` times; an emulator lost after the
  game's last line, or between games, loses nothing (the next game starts on
  a fresh one); one lost before a game's title is replaced once;
* the ``think``/``thx`` breakpoints: the PDP-1's thinking is stepped in
  slices, every memory cycle counted, at the pace the ``Pacer`` gives
  (unpaced, 1960 speed, the kiosk's), unless the pacer does not count;
* one ``TranscriptParser`` and one ``CrossChecker`` a game: the typewriter is
  handed to the front end a line at a time, and each line's events (checked
  first) right after it, so a front end never shows a line before the host
  has taken in the ones before it;
* the brief form (``panel.brief``): the PDP-1 types no board after a move,
  so the driver stops it where the board would be typed (``shbd``) and
  checks the board in core instead;
* the record: ``GameOutcome`` (title, moves, the checked end, restarts, the PDP-1's measured choices, the transcript).

The interface::

    with GameDriver(panel, front=FrontEnd(), visitor=None, pacer=Pacer()) as driver:  # closed however it ends
        driver.start(reader=None)         # read the tape in; with ``reader(frames)`` paced and drawn
        outcome = driver.play_game()      # title to checked end line, failures restored
        driver.new_game()                 # answer the PDP-1's offer with a key, or
        driver.new_game(panel)            # stop it and start it at 100 with another panel
        driver.resume(title, record)      # a saved game on a fresh emulator; then play_game()
        driver.look_at_keyboard(look)     # while the visitor decides: stop, check, ``look(sim)``, continue

A front end overrides ``FrontEnd``'s methods (the echo, the events, failures, the thinking: captions,
lights; its waits); the visitor (keys, touches, a script, a reference player) is a ``visitors.Visitor``.
What a callback raises (the visitor leaving) goes through untouched, the machine left for ``close``."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import CoreBoard, KalahMachine, Transport, program_symbols
from ..machine.simh import (
    FULL_SPEED,
    QUIET_SPEED,
    BreakpointReached,
    Closing,
    MachineConfig,
    Simh,
    SimhDied,
    SimhError,
    SimhTimeout,
)
from ..machine.transcript import Board, Complaint, Event, Move, NewGameOffer, Prompt, Swap, Title, TranscriptParser
from ..reference.game import Game
from ..reference.notation import format_record
from ..reference.rules import SOUTH
from .crosscheck import CrossChecker, CrossCheckMismatch
from .front_end import AFTER_END, BEFORE_TITLE, BETWEEN_GAMES, DURING, Failure, FrontEnd, GameOutcome, Thought
from .keyboard_loop import keyboard_loop, stopped_astray
from .pacing import LOADER_START, MAX_THINK, Pacer, read_in, think_to_break
from .restore import checker_from_record, restore_machine
from .search_pool import Decision, reference_decision
from .visitors import Visitor

MAX_RESTARTS = 20  # in one game; beyond that something is wrong with the machine, not the emulator
RESTORE_TRIES = 3  # a fresh emulator can fail to start too
RESTORE_PAUSE = 0.5  # seconds between two tries
WAIT_TICK = 0.5  # how often ``FrontEnd.waiting`` hears that the PDP-1 is still silent (seconds)
KEY_AFTER_CONT = 0.15  # SIMH flushes the keyboard as it continues (TCSAFLUSH): no key sooner, unless ``Simh.gone_on``
START_ADDRESS = 0o100  # where the program starts a game from the panel

__all__ = ["AFTER_END", "BEFORE_TITLE", "BETWEEN_GAMES", "DURING", "Failure", "FrontEnd", "GameOutcome", "GameDriver",
           "Thought", "play_games"]  # what the driver tells a front end, importable from here as from its own module

@dataclass
class _MachineRun:
    """What the driver knows of the emulator it drives now, made afresh with each emulator (``start``,
    a restore) and in no other place: a new emulator starts from nothing the last one knew."""

    lost: bool = False  # it failed: the next game needs a fresh emulator
    slowed: bool = False  # it runs at the driver's ``waiting_config`` now
    asked: bool = False  # the PDP-1 has asked for a key and none is typed yet
    continued_at: float = 0.0  # when a look at the keyboard loop last continued it
    parser: TranscriptParser = field(default_factory=TranscriptParser)  # its typewriter output, read so far


@dataclass
class GameDriver(Closing):
    """Plays whole games of the Kalah program on one emulator at a time; the interface is the module's."""

    panel: PanelSettings
    front: FrontEnd = field(default_factory=FrontEnd)
    visitor: Visitor | None = None  # None: the PDP-1 plays both sides
    pacer: Pacer = field(default_factory=Pacer)
    silence_timeout: float = 60.0  # longest the PDP-1 may stay silent (untimed thinking) before it counts as hung
    max_restarts: int = MAX_RESTARTS  # a game; 0: the first failure raises (the cross-check counts it)
    restore_tries: int = RESTORE_TRIES
    timeout: float = 10.0  # SIMH's answers and the read-in
    machine_config: MachineConfig | None = None  # the emulator's speed; None: as the pacer needs (``config``)
    # The speed while the PDP-1 waits for the visitor, set at the look (only there: SIMH calibrates a throttle at full
    # speed after every cont, 25-35 ms of a core), taken off at the next stop or key.  None: ``config`` throughout.
    waiting_config: MachineConfig | None = None
    decide: Callable[..., Decision] = reference_decision  # the cross-checks' searches: here, or a SearchPool's
    sleep_while_choosing: bool = False  # the pdp1 suspended while the visitor chooses (a person at a terminal)
    transport: Transport = Simh  # the SIMH it runs on: Debian's pdp1, or SIMH as WebAssembly (WasmSimh)
    tape: Path | None = None  # the game's tape, its symbols beside it (None: build/kalah.rim, punched if need be)
    machine: KalahMachine | None = field(default=None, init=False)
    checker: CrossChecker | None = field(default=None, init=False)
    transcript: str = field(default="", init=False)  # this game's typewriter output (kept across restarts)
    thoughts: list[Thought] = field(default_factory=list, init=False)  # this game's measured choices
    restarts: int = field(default=0, init=False)  # in all games so far, counted as they happen
    game_restarts: int = field(default=0, init=False)  # in the game now being played (or the last one)
    read_in_instructions: int = field(default=0, init=False)  # the last read-in's, when drawn
    probe_started: float | None = field(default=None, init=False)  # a look at the keyboard loop under way since
    probe_problem: str | None = field(default=None, init=False)  # what the last look found wrong
    _run: _MachineRun = field(default_factory=_MachineRun, init=False)  # the emulator now driven
    _pending_keys: str | None = field(default=None, init=False)  # typed for the visitor, not yet answered
    _restarts_before_game: int = field(default=0, init=False)  # made between games: the next game's record
    _resume: bool = field(default=False, init=False)  # the next play_game goes on with the checker's game
    _playing: bool = field(default=False, init=False)  # inside play_game: failures are restored there

    def __post_init__(self) -> None:
        self._symbols = symbols = program_symbols(tape=self.tape)
        self._think, self._thx, self._shbd = symbols["think"], symbols["thx"], symbols["shbd"]
        self._keyboard_loop = keyboard_loop(symbols)

    # -- the machine ----------------------------------------------------------------------------
    @property
    def config(self) -> MachineConfig:
        """The front end's choice, or: stepped at a pace, the machine idles throttled between steps;
        otherwise it runs flat out."""
        if self.machine_config is not None:
            return self.machine_config
        return QUIET_SPEED if self.pacer.paced else FULL_SPEED

    @property
    def breakpoints(self) -> tuple[int, ...]:
        """Where the PDP-1 stops itself: its thinking, stepped and counted (unless not counted), and
        in the brief form where it would type the board (``shbd``), to read the board in core."""
        return ((self._think, self._thx) if self.pacer.counted else ()) + ((self._shbd,) if self.panel.brief else ())

    def start(self, reader: Callable[[int], None] | None = None, start_address: int = START_ADDRESS) -> None:
        """Read the tape into a fresh emulator with the panel set; the program runs.

        ``reader``: the read-in is carried out step by step (at the real
        reader's 400 frames a second when paced) up to the tape's
        ``start_address``, and hears the reader's position in frames as it goes.
        """
        self.close()
        self._run = _MachineRun()
        stepped = (LOADER_START, start_address) if reader is not None else ()  # the read-in's own stops
        self.machine = KalahMachine(self.panel, self.config, timeout=self.timeout, tape=self.tape,
                                    breakpoints=stepped + self.breakpoints, transport=self.transport)
        if reader is not None:
            self.read_in_instructions = read_in(self.machine.sim, start_address, self.pacer, reader, self.timeout)
            self.machine.sim.cont()

    def close(self) -> None:
        self.probe_problem = None  # whatever the last look found was about this machine
        if self.machine is not None:
            try:
                self.machine.close()
            finally:
                self.machine = None

    @property
    def sim(self) -> Simh:
        if self.machine is None:
            raise SimhDied("no emulator is running")
        return self.machine.sim

    # -- games ----------------------------------------------------------------------------------
    def play_game(self) -> GameOutcome:
        """One game from its title (or from where ``resume`` or a failure left it) to its checked end.

        Raises ``CrossCheckMismatch`` on any difference with the reference, ``SimhError`` when the machine
        cannot be restored."""
        if self.machine is None or self._run.lost:
            self.start()
        self.game_restarts, self._restarts_before_game = self._restarts_before_game, 0
        resume, self._resume = self._resume, False
        if not resume:
            self._new_record(None)
            self._run.parser = TranscriptParser()
        self._playing = True
        try:
            try:
                return self._play_restoring(resume)
            except (SimhError, OSError) as failure:
                if self.checker is not None or self.max_restarts == 0:
                    raise
                self._lost(failure, BEFORE_TITLE)  # nothing to restore: the game starts again, once
                self.start()
                self._new_record(None)
                return self._play_restoring(False)
        finally:
            self._playing = False

    def new_game(self, panel: PanelSettings | None = None) -> None:
        """Start the next game: answer the PDP-1's new-game offer with a key, or, given ``panel`` (or
        after a game left before its end), stop the program and start it again at 100 with the panel
        set.  An emulator that fails here is replaced by a fresh one; nothing is lost."""
        finished = self.checker is not None and self.checker.finished
        if panel is not None:
            self.panel = panel
        self._resume = False
        if self.machine is None or self._run.lost:
            self.start()
            return
        try:
            sim = self.machine.sim
            if panel is None and finished:
                self._type("\r")  # "type any key for a new game."
                return
            self._run.asked = False
            self.machine.start_again(self.panel, START_ADDRESS, self._shbd,
                                     while_stopped=lambda: self._set_speed(sim, waiting=False))
        except (SimhError, OSError) as failure:
            self._lost(failure, BETWEEN_GAMES)
            self.start()

    def resume(self, title: Title, record: list[int | str]) -> bool:
        """Put a saved game (its title and record) on a fresh emulator; ``play_game`` plays it on.

        False when the record is of a finished game: nothing to play on.
        """
        checker = checker_from_record(title, record, self.decide)
        if checker.finished:
            return False
        self._new_record(checker)
        self.panel = PanelSettings(pits=title.pits, seeds=title.seeds, depth=title.level, variants=title.variants,
                                   pdp1_first=title.first == "pdp-1", brief=self.panel.brief)
        self._restore(checker)
        self._resume = True
        return True

    def _new_record(self, checker: CrossChecker | None) -> None:
        """A game's own record begins (``checker``: a saved game's, resumed): nothing of the last one stays."""
        self.checker, self.transcript, self.thoughts = checker, "", []
        self._pending_keys = None

    def outcome(self) -> GameOutcome | None:
        """The game so far (its end included once checked), or None before its title."""
        if self.checker is None:
            return None
        return GameOutcome.of(self.checker, self.transcript, self.game_restarts, self.thoughts)

    # -- the restore policy ---------------------------------------------------------------------
    def _play_restoring(self, resume: bool) -> GameOutcome:
        restarts = 0
        while True:
            try:
                return self._play(resume)
            except (SimhError, OSError) as failure:
                checker = self.checker
                if checker is not None and checker.finished:
                    self._lost(failure, AFTER_END)  # every move is checked: the result stands
                    outcome = self.outcome()
                    assert outcome is not None
                    return outcome
                if checker is None or restarts >= self.max_restarts:
                    raise
                restarts += 1
                self._count_restart(between_games=False)
                self.front.failed(Failure(_first_line(failure), DURING, format_record(checker.game.record)))
                self._restore(checker)
                resume = True

    def _restore(self, checker: CrossChecker) -> None:
        """A fresh emulator playing on ``checker``'s game (several tries: a start can fail too)."""
        self.close()
        for attempt in range(1, self.restore_tries + 1):
            try:
                self.machine = restore_machine(self.panel, self.config, checker, timeout=self.timeout,
                                               breakpoints=self.breakpoints, transport=self.transport, tape=self.tape)
                break
            except SimhError:
                if attempt == self.restore_tries:
                    raise
                self.pacer.sleep(RESTORE_PAUSE)
        self._run = _MachineRun()
        self.front.restored()

    def _lost(self, failure: BaseException, when: str) -> None:
        """An emulator failed where no game needs restoring: the next game starts on a fresh one."""
        self._count_restart(between_games=when == BETWEEN_GAMES)
        self._run.lost = True
        record = format_record(self.checker.game.record) if self.checker is not None else ""
        self.front.failed(Failure(_first_line(failure), when, record))

    def _count_restart(self, between_games: bool) -> None:
        self.restarts += 1
        if between_games:  # the last game is saved already: the next one's record counts it
            self._restarts_before_game += 1
        else:
            self.game_restarts += 1

    # -- reading the typewriter -----------------------------------------------------------------
    def _play(self, resume: bool) -> GameOutcome:
        """Read and answer the PDP-1 to the new-game offer; raise CrossCheckMismatch on any difference."""
        while True:
            sim = self.sim
            try:
                text = self._read(sim)
            except BreakpointReached as stop:
                self._on_break(sim, stop.pc)
                sim.cont()
                continue
            for line in text.splitlines(keepends=True):
                if self.front.paces_echo and sim.running:  # typed already: asleep while the paper takes its time
                    sim.suspend()  # (or it spins in its keyboard loop meanwhile; the next exchange wakes it)
                self.front.echo(line)
                offered = False
                for event in self._run.parser.feed(line):
                    offered = self._on_event(event, line) or offered
                self.transcript += line  # a line joins the transcript once its events are checked
                if offered:
                    outcome = self.outcome()
                    assert outcome is not None
                    return outcome

    def _read(self, sim: Simh) -> str:
        """The next output; while the PDP-1 is silent the front end hears how long it has been."""
        began = time.monotonic()
        while True:
            silent = time.monotonic() - began
            if silent >= self.silence_timeout:
                raise SimhTimeout(f"no output from the PDP-1 for {self.silence_timeout:.0f} s", sim.tail())
            try:
                return sim.read_some(min(WAIT_TICK, self.silence_timeout - silent))
            except SimhTimeout:
                self.front.waiting(time.monotonic() - began)

    def _on_event(self, event: Event, line: str) -> bool:
        """Check ``event`` (of ``line``), tell the front end, answer a question; True at the new-game offer."""
        if isinstance(event, Title):
            self.checker = CrossChecker(event, decide=self.decide)
        checker = self.checker
        if checker is None:
            return False
        checker.transcript_tail = (self.transcript + line)[-1500:]
        checker.on_event(event)
        if isinstance(event, (Move, Swap, Complaint)) or (
                isinstance(event, Board) and (self._pending_keys or "").strip().lower() == "b"):
            self._pending_keys = None  # the PDP-1 has answered what was typed (a board: the visitor's b)
        if isinstance(event, (Move, Swap)) and self.thoughts and not self.thoughts[-1].choice \
                and checker.is_pdp1(checker.side_of(event.player)):
            self.thoughts[-1].choice = f"pit {event.pit}" if isinstance(event, Move) else "swap"
        self.front.event(event, checker)
        if isinstance(event, (Prompt, NewGameOffer)):
            self._run.asked = True  # it waits in its keyboard loop now: looks at the keyboard may stop it
        if isinstance(event, Prompt):
            self._answer(checker)
        elif isinstance(event, NewGameOffer):
            if not checker.finished:
                raise CrossCheckMismatch("the PDP-1 offered a new game before the game ended")
            return True
        return False

    def _answer(self, checker: CrossChecker) -> None:
        if self.visitor is None:
            raise CrossCheckMismatch("the PDP-1 asked for a move in a game it plays against itself")
        if self._pending_keys is None:  # after a restart, what was typed is typed again
            self._pending_keys = self._chosen(checker.game)
        self._type(self._pending_keys + "\r")

    def _chosen(self, game: Game) -> str:
        """The visitor's keys.  With ``sleep_while_choosing`` the pdp1 sleeps meanwhile (SIGSTOP once settled; typing
        wakes it): its key loop runs flat out, a core spent for as long as a person thinks."""
        if self.sleep_while_choosing and self.machine is not None:
            self.machine.sim.wait_gone_on(self._run.continued_at + KEY_AFTER_CONT)
            self.machine.sim.suspend()
        return self.visitor.choose(game)

    @property
    def settle_left(self) -> float:
        """Seconds until SIMH's keyboard flush after the last ``cont`` is surely over (no key, no SIGSTOP before):
        none once its terminal shows the run mode that flush comes with (``gone_on``)."""
        gone_on = self.machine is not None and self.machine.sim.running and self.machine.sim.gone_on()
        return 0.0 if gone_on else max(0.0, self._run.continued_at + KEY_AFTER_CONT - time.monotonic())

    def _type(self, keys: str) -> None:
        """Type (once back at its own speed, if slowed for the wait)."""
        if self._run.slowed and not self.panel.brief:  # (in the brief form the next stop at shbd speeds it up)
            sim = self.sim
            sim.stop()
            self._set_speed(sim, waiting=False)
            sim.cont()
            self._run.continued_at = time.monotonic()
        self._run.asked = False
        self.sim.type(keys)  # (which waits for SIMH to have gone on after that cont: ``Simh.type``)

    # -- the thinking -----------------------------------------------------------------------------
    def _on_break(self, sim: Simh, pc: int | None) -> None:
        """The PDP-1 stopped where it starts (``think``) or ends (``thx``) a choice, or (the brief form)
        where the board is left in core after a move: the output before the stop is already checked."""
        if pc == self._think:
            self._think_stepped(sim)
        elif pc == self._shbd and self.panel.brief:
            checker = self.checker
            if checker is None:
                raise SimhError("the PDP-1 passed its board before its title was read", sim.tail())
            checker.check_core(CoreBoard.read(sim, self._symbols))
            self._set_speed(sim, waiting=False)  # stopped anyway: its own speed again (the look slows it, if any)
        elif pc != self._thx:  # at thx the thinking was stepped to here and measured
            raise SimhError(f"the PDP-1 stopped at an unexpected breakpoint {pc}", sim.tail())

    def _think_stepped(self, sim: Simh) -> None:
        """Step the thinking to ``thx``, every cycle counted, at the pacer's pace; the front end hears it."""
        checker = self.checker
        if checker is None:
            raise SimhError("the PDP-1 started thinking before its title was read", sim.tail())
        _swap, _pit, depth, positions = checker.reference_choice()
        side = checker.game.position.to_move
        player = ("south" if side == SOUTH else "north") if checker.pdp1_side is None else "pdp-1"
        thought = Thought(len(checker.game.record) + 1, player, depth, positions)
        self.front.thinking(thought, sim)
        self.pacer.typewriter_idle()
        began = time.perf_counter()
        thought.instructions, thought.cycles = think_to_break(
            sim, self._thx, self.pacer, MAX_THINK, between=lambda cycles: self.front.slice(sim, cycles))
        thought.host_seconds = time.perf_counter() - began
        self.pacer.free_at = self.pacer.clock()  # the typewriter starts again when the thinking ends
        self.thoughts.append(thought)
        self.front.thought(thought)

    @property
    def slowed(self) -> bool:
        """Whether the machine runs at ``waiting_config``'s speed now (the PDP-1 waiting for the visitor)."""
        return self._run.slowed

    @property
    def asked(self) -> bool:
        """Whether the PDP-1 has asked for a key and waits for it (none typed yet)."""
        return self._run.asked

    def _set_speed(self, sim: Simh, waiting: bool) -> None:
        """On the stopped machine: ``waiting_config``'s speed while the PDP-1 waits for the visitor, its
        own otherwise (nothing to do without a ``waiting_config``, or when it is at that speed already)."""
        if self.waiting_config is None or waiting == self._run.slowed:
            return
        sim.command((self.waiting_config if waiting else self.config).throttle_command())
        self._run.slowed = waiting

    # -- while the visitor decides ----------------------------------------------------------------
    def look_at_keyboard(self, look: Callable[[Simh], None] | None = None) -> None:
        """While the PDP-1 waits for a key: stop it, check its PC is in the keyboard loop, let ``look``
        read what it likes (the console lights), continue.

        A ``pdp1`` that does not answer (stopped, hung) or answers from
        elsewhere raises during a game (the game is restored) and is replaced
        for the next game after it.  The next key waits for SIMH to have gone on (``Simh.type``).
        """
        if self.machine is None or self._run.lost or not self._run.asked:
            return  # (not asked yet: the PDP-1 may be typing, or about to stop itself at a breakpoint)
        sim = self.machine.sim
        try:
            if not sim.alive:
                raise SimhDied("the pdp1 process exited while the PDP-1 waited for a key", sim.tail())
            if not sim.running:
                return
            self.probe_started = time.monotonic()
            try:
                self.probe_problem = stopped_astray(sim, self._keyboard_loop)
            finally:
                self.probe_started = None
            if self.probe_problem:
                raise SimhError(self.probe_problem, sim.tail())
            try:
                self._set_speed(sim, waiting=True)
                if look is not None:
                    look(sim)
            finally:
                sim.cont()
                self._run.continued_at = time.monotonic()
        except (SimhError, OSError) as failure:
            if self._playing:
                raise
            self._lost(failure, BETWEEN_GAMES)


def _first_line(failure: BaseException) -> str:
    return (str(failure).splitlines() or [type(failure).__name__])[0]


def play_games(panel: PanelSettings, visitor: Visitor | None, games: int, front: FrontEnd | None = None,
               pacer: Pacer | None = None, max_restarts: int = MAX_RESTARTS) -> list[GameOutcome]:
    """``games`` whole games on one emulator, each answered with the offer's key, every move checked."""
    outcomes = []
    with GameDriver(panel, front or FrontEnd(), visitor, pacer or Pacer(),
                    max_restarts=max_restarts) as driver:
        for n in range(games):
            if n:
                driver.new_game()
            outcomes.append(driver.play_game())
    return outcomes
