"""The kiosk's one emulator and its games, in a thread of its own.

Why a thread: the emulator is driven through blocking pexpect calls (the
project's ``Simh``), and the PDP-1 must be talked to from one place only.
The web server (asyncio) hands the page's touches over through ``submit``
(a bounded queue) and receives what to show through ``publish`` (called from
this thread, thread-safe on the server's side).

A game is a ``PlaySession`` on a ``KalahMachine``: every move cross-checked.
Around it this module adds what the exhibit needs:

* modes: attract (the PDP-1 against ``AttractPlayer``, paced) and visitor
  (the page's touches); "touch to play" abandons an attract game at once,
  an idle visitor game counts down and returns to attract mode;
* the PDP-1's thinking is run in ``Simh.step`` slices with every
  instruction's memory cycles counted (``machine.cycles``), so its 1960 time
  is exact at authentic speed (200,000 cycles, of 5 us, a second) and
  the console lights are examined between slices, while no key is pending;
  at the keyboard loop the machine is stopped, examined and continued every
  0.5 s, and no key is typed within 0.15 s of such a ``cont``;
* the visitor's choices (game size, strength) made in attract mode or after
  a game set the next visitor game's panel; attract mode goes back to the
  museum's own settings;
* the typewriter paper is paced at 10 characters a second when authentic;
* failures: a dead or hung ``pdp1`` is replaced and the game restored
  (``recovery.restore_machine``); a cross-check mismatch is logged with its
  reproduction command and a clean new game starts; after a server restart
  the saved game is restored (``recovery.checker_from_record``);
* turns: every question (the PDP-1 asking for a move, a new game) has a
  number, ``turn`` in every state message; a move or swap answering an
  earlier one is refused, so a double tap plays at most one move;
* while the visitor decides, the PDP-1 is looked at every
  ``watchdog_seconds``: stopped (^E), its PC must be in the program's
  keyboard loop (``gc1``), then it continues; one that does not answer is
  replaced at once, not when the visitor moves;
* the counters persist in ``state_dir`` (``counters``), and health lists
  every problem it sees (``health``).
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..machine.transcript import Board, Complaint, Event, GameOver, Move, Swap, Title, TranscriptParser
from ..checking.crosscheck import CrossChecker, CrossCheckMismatch
from ..machine.front_panel import PanelSettings
from ..reference.game import Game
from ..machine.kalah_program import KalahMachine, program_symbols
from ..reference.notation import format_record
from ..checking.session import GameOutcome, PlaySession
from ..checking.recovery import checker_from_record, restore_machine
from ..machine.cycles import CycleCounter, seconds
from ..machine.simh import FULL_SPEED, QUIET_SPEED, BreakpointReached, MachineConfig, Simh, SimhDied, SimhError
from .config import KioskConfig
from .counters import KioskStats, load_counters, save_counters
from .health import disk_problem, emulator_problem, log_problem
from .lights import ConsoleLights, sample
from .messages import ClientMessage
from .paper import Paper
from .players import AttractPlayer
from .saved_game import GameStore, SavedGame
from .view import board_view, last_move_view, result_view

SLICE_FAST = 65_536  # instructions between two looks at the lights when the thinking is not paced (SIMH's history)
MAX_THINK = 60_000_000  # instructions, over 500 s of 1960 time; the default level needs about a million
MAX_RESTARTS_A_GAME = 10
LIGHTS_EVERY = 0.1  # seconds of wall time between two lights messages while the PDP-1 thinks
WAITING_LIGHTS_EVERY = 0.5  # ... and between two looks at the keyboard loop (each a stop, an examine, a cont)
WAITING_LIGHTS_AFTER = 0.3  # the first look this long after the question (its last character is long typed)
KEY_AFTER_CONT = 0.15  # SIMH flushes the keyboard as it continues (TCSAFLUSH): no key this soon after a look
NOTICE_ONE_MOMENT = "One moment\u2026"
STALE_TAP = "that tap was for an earlier turn"
PROBE_SLACK = 1.0  # seconds a keyboard-loop look may take before health calls the emulator silent


class GameAborted(Exception):
    """Leave the game in play for a new one in ``next_mode`` (a touch in attract mode, an idle visitor)."""

    def __init__(self, next_mode: str, why: str) -> None:
        super().__init__(why)
        self.next_mode = next_mode


class Stopping(Exception):
    """The server is shutting down."""


@dataclass
class Command:
    """One accepted message from the page, with the way to answer its sender."""

    message: ClientMessage
    reply: Callable[[dict], None]


class _TouchVisitor:
    """The ``Visitor`` PlaySession asks: the runner answers according to the mode."""

    def __init__(self, runner: "KioskRunner") -> None:
        self.runner = runner

    def choose(self, game: Game) -> str:
        return self.runner.choose(game)


class KioskRunner:
    def __init__(self, config: KioskConfig, publish: Callable[[dict], None],
                 log: logging.Logger | None = None) -> None:
        self.config = config
        self.publish = publish
        self.log = log or logging.getLogger("kiosk")
        self.store = GameStore(config.saved_game)
        self.stats = KioskStats()
        self.save_problem: str | None = None  # why the last save of the game or the counters failed
        self.log_file: Path | None = config.log_file  # None: state_dir was unusable at start (stderr only)
        self.turn = 0  # the question now open (see messages.py)
        self._probe_started: float | None = None  # a look at the keyboard loop under way since then
        self._probe_problem: str | None = None
        self.inbox: queue.Queue[Command] = queue.Queue(maxsize=32)
        self.mode = "attract"
        self.game_no = 0
        self.machine: KalahMachine | None = None
        self.session: PlaySession | None = None
        self.panel: PanelSettings = config.panel(False)
        self.heartbeat = time.monotonic()
        self._lock = threading.Lock()  # guards the view, paper and lights the server reads
        self._view: dict = {"type": "state", "mode": "attract", "phase": "starting", "game": 0,
                            "board": board_view(None), "legal": [], "swap": False, "last": None,
                            "result": None, "countdown": None, "notice": None, "speed": config.speed,
                            "choices": self._choices_view(config.default_choice()),
                            "page": {"language": config.language, "languages": list(config.languages),
                                     "sound": config.sound},
                            "turn": 0}
        self.choice = config.default_choice()  # the visitor's game size and strength for the next visitor game
        self._paper = Paper()
        self._lights: ConsoleLights | None = None
        self._lights_shown_at = 0.0
        self._continued_at = 0.0
        self._last_touch = time.monotonic()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._faults: list[Callable[[Simh], None]] = []
        self._visitor = _TouchVisitor(self)
        symbols = program_symbols()
        # the PDP-1 stops itself where its thinking starts and ends: never in the middle of typing
        # (a machine stopped while a character is being typed loses that character)
        self._think_start, self._think_end = symbols["think"], symbols["thx"]
        self._breakpoints = (self._think_start, self._think_end)
        self._keyboard_loop = (symbols["gc1"], symbols["gc1"] + 1)  # getc's wait: szf i 1 / jmp gc1

    # -- the thread ------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="kiosk-runner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close_machine()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run(self) -> None:
        """Play games until stopped; nothing that goes wrong in one game ends the loop."""
        self._load_counters()
        saved = self._load_saved()
        next_mode = saved.mode if saved else "attract"
        try:
            while not self._stopping.is_set():
                try:
                    if saved is not None:
                        outcome = self._resume_saved(saved)
                        saved = None
                    else:
                        self._begin(next_mode)
                        outcome = self._play(resume=False)
                    next_mode = self._after_game(outcome)
                except Stopping:
                    if self.session is not None and self.session.checker is not None \
                            and not self.session.checker.finished:
                        self.log.info("game %d (%s) stopped with the server after %s; saved, resumed at the next "
                                      "start", self.game_no, self.mode, self._record_so_far())
                    break
                except GameAborted as aborted:
                    saved = None
                    self.stats.aborted_games += 1
                    self.log.info("game %d (%s) left after %s: %s", self.game_no, self.mode, self._record_so_far(),
                                  aborted)
                    self._keep_counters()
                    self.store.clear()
                    next_mode = aborted.next_mode
                except CrossCheckMismatch as mismatch:
                    saved = None
                    self.stats.mismatches += 1
                    self.log.error("game %d (%s): cross-check mismatch after %s; the game restarts\n%s",
                                   self.game_no, self.mode, self._record_so_far(), mismatch)
                    self._keep_counters()
                    self._fresh_start_after_failure()
                    next_mode = self.mode
                except (SimhError, OSError) as failure:
                    saved = None
                    self.stats.errors += 1
                    self.log.error("game %d (%s): the emulator failed beyond restoring (%s) after %s; "
                                   "a new game starts", self.game_no, self.mode, str(failure).splitlines()[0],
                                   self._record_so_far())
                    self._keep_counters()
                    self._fresh_start_after_failure()
                    next_mode = self.mode
                except Exception:  # a bug of ours: logged, and the kiosk goes on with a new game
                    saved = None
                    self.stats.errors += 1
                    self.log.exception("game %d (%s): unexpected error after %s; a new game starts", self.game_no,
                                       self.mode, self._record_so_far())
                    self._keep_counters()
                    self._fresh_start_after_failure()
                    next_mode = self.mode
        finally:
            self._close_machine()
            self._keep_counters()
            self.log.info("runner stopped")

    def _record_so_far(self) -> str:
        """"N moves (record ...)" of the game in play, for the log line of a game that did not finish."""
        checker = self.session.checker if self.session is not None else None
        if checker is None:
            return "0 moves (no title yet)"
        record = checker.game.record
        return f"{len(record)} moves (record {format_record(record) or '-'})"

    def _load_counters(self) -> None:
        try:
            load_counters(self.config.counters_file, self.stats)
        except (OSError, ValueError) as exc:
            self.log.error("cannot read the counters (%s): counting from zero", getattr(exc, "strerror", None) or exc)
        self.stats.server_starts += 1
        self._keep_counters()

    def _keep_counters(self) -> None:
        try:
            save_counters(self.config.counters_file, self.stats)
        except OSError as exc:
            self._saving_failed("the counters", exc)
        else:
            if self.save_problem and self.save_problem.startswith("the counters"):
                self.save_problem = None

    def _saving_failed(self, what: str, exc: OSError) -> None:
        problem = f"{what} cannot be saved in {self.config.state_dir}: {exc.strerror or exc}"
        if problem != self.save_problem:  # one line when it starts failing, not one a move
            self.log.error("%s (kept in memory)", problem)
        self.save_problem = problem

    def _fresh_start_after_failure(self) -> None:
        self.store.clear()
        self._close_machine()
        self._update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        try:
            self._pause(1.0)
        except (GameAborted, Stopping):  # the loop looks at both itself
            pass

    # -- what the server asks ----------------------------------------------------------------
    def submit(self, message: ClientMessage, reply: Callable[[dict], None]) -> str | None:
        """Queue a message from the page; return why it is refused, or None when accepted."""
        with self._lock:
            view = dict(self._view)
        kind = message.kind
        if kind in ("move", "swap") and message.turn != view["turn"]:
            return STALE_TAP
        if kind == "move":
            if view["mode"] != "visitor" or view["phase"] != "your_turn":
                return "not your turn"
            if message.pit not in view["legal"]:
                return f"pit {message.pit} cannot be played now"
        elif kind == "swap" and not (view["phase"] == "your_turn" and view["swap"]):
            return "no swap on offer now"
        elif kind == "new_game" and not (view["mode"] == "visitor" and view["phase"] == "game_over"):
            return "a game is in progress"
        elif kind == "choose":
            if not (view["mode"] == "attract" or view["phase"] == "game_over"):
                return "choices are made before a game"
            what, which = message.choice or ("", "")
            if which not in (self.config.games if what == "game" else self.config.strengths):
                return f"{which} is not offered here"
        try:
            self.inbox.put_nowait(Command(message, reply))
        except queue.Full:
            return "busy: try again"
        return None

    def snapshot(self) -> dict:
        """Everything a page needs to draw the kiosk as it is now (sent on every (re)connection)."""
        with self._lock:
            return {"type": "hello", "state": dict(self._view),
                    "paper": {"game": self.game_no, "base": self._paper.base, "text": self._paper.text},
                    "lights": self._lights.message() if self._lights else None}

    def loop_problem(self) -> str | None:
        """Why the game loop is not making progress, or None (what systemd's watchdog is fed on)."""
        silent = time.monotonic() - self.heartbeat
        if not self.alive:
            return "the game loop has stopped"
        if silent >= 2 * self.config.watchdog_seconds + 10:
            return f"the game loop is stuck: no progress for {silent:.0f} s"
        return None

    def health(self) -> dict:
        """The runner's part of ``/health``: status, the problems it sees, what it is doing, the counters."""
        with self._lock:
            phase, mode = self._view["phase"], self._view["mode"]
        sim = self.machine.sim if self.machine else None
        silent = time.monotonic() - self.heartbeat
        problems: list[str] = [problem] if (problem := self.loop_problem()) else []
        if sim is not None and (problem := emulator_problem(sim.pid)):
            problems.append(problem)
        probing = self._probe_started
        if probing is not None and time.monotonic() - probing > PROBE_SLACK:
            problems.append("the PDP-1 does not answer at its keyboard loop")
        elif self._probe_problem:
            problems.append(self._probe_problem)
        for problem in (self.save_problem, log_problem(self.log_file),
                        disk_problem(self.config.state_dir, self.config.min_free_mb)):
            if problem:
                problems.append(problem)
        return {"status": "ok" if not problems else "failing", "problems": problems, "mode": mode, "phase": phase,
                "game": self.game_no, "turn": self.turn,
                "pdp1_pid": sim.pid if sim else None, "pdp1_alive": bool(sim and sim.alive),
                "seconds_since_progress": round(silent, 1),
                "uptime_seconds": round(time.time() - self.stats.started, 1),
                "total_uptime_seconds": round(self.stats.total_uptime_seconds, 1), **self.stats.counts()}

    def inject_at_next_think(self, fault: Callable[[Simh], None]) -> None:
        """Run ``fault(sim)`` on this thread when the PDP-1 next starts thinking (machine stopped).

        For tests that damage the real machine (a changed board word makes a
        cross-check mismatch) without racing this thread for the emulator.
        """
        self._faults.append(fault)

    # -- the view ----------------------------------------------------------------------------
    def _update(self, **changes: object) -> None:
        with self._lock:
            self._view.update(changes, mode=self.mode, game=self.game_no, turn=self.turn)
            message = dict(self._view)
        self.publish(message)

    def _choices_view(self, chosen: dict) -> dict:
        """The choices offered, and the ones the next visitor game is played with."""
        return {"games": list(self.config.games), "strengths": list(self.config.strengths), **chosen}

    def _beat(self) -> None:
        self.heartbeat = time.monotonic()
        if self._stopping.is_set():
            raise Stopping()

    # -- the page's touches -------------------------------------------------------------------
    def _take(self, timeout: float) -> Command | None:
        """The next command that needs the caller's attention; touches and "play" are handled here."""
        self._beat()
        try:
            command = self.inbox.get(timeout=min(timeout, 0.25)) if timeout > 0 else self.inbox.get_nowait()
        except queue.Empty:
            return None
        self._last_touch = time.monotonic()
        with self._lock:
            counting = self._view["countdown"] is not None
        if counting:
            self._update(countdown=None)
        kind = command.message.kind
        if kind == "choose" and command.message.choice is not None:
            what, which = command.message.choice
            self.choice = {**self.choice, what: which}
            self._update(choices=self._choices_view(self.choice))
            command.reply({"type": "ok", "what": "choose"})
            return None
        if kind == "play" and self.mode == "attract":
            command.reply({"type": "ok", "what": "play"})
            raise GameAborted("visitor", "a visitor touched the screen")
        if kind in ("touch", "play"):
            return None
        return command

    @staticmethod
    def _reject(command: Command, reason: str) -> None:
        command.reply({"type": "rejected", "reason": reason})

    def _pause(self, seconds: float) -> None:
        """Wait, answering the page meanwhile (a touch in attract mode ends the wait and the game)."""
        end = time.monotonic() + seconds
        while True:
            command = self._take(max(0.0, end - time.monotonic()))  # the page is heard even with no pause
            if command is not None:
                self._reject(command, "not your turn")
            if time.monotonic() >= end:
                return

    def _idle_check(self) -> None:
        idle = time.monotonic() - self._last_touch
        if idle < self.config.idle_seconds:
            with self._lock:
                shown = self._view["countdown"]
            if shown is not None:  # the idle time was restarted (a restore, the visitor's turn)
                self._update(countdown=None)
            return
        left = self.config.idle_seconds + self.config.countdown_seconds - idle
        if left <= 0:
            raise GameAborted("attract", "nobody touched the screen: back to attract mode")
        with self._lock:
            shown = self._view["countdown"]
        if shown != math.ceil(left):
            self._update(countdown=math.ceil(left))

    # -- the games ---------------------------------------------------------------------------
    def _load_saved(self) -> SavedGame | None:
        try:
            saved = self.store.load()
        except ValueError as exc:
            self.log.error("%s: starting afresh", exc)
            self.store.clear()
            return None
        if saved is not None:
            self.log.info("server restarted: restoring game %d (%s) at record %s", saved.game_no, saved.mode,
                          format_record(saved.record) or "(no move yet)")
        return saved

    def _pdp1_first(self, mode: str) -> bool:
        if mode == "attract":  # who opens alternates (and AttractPlayer varies the openings)
            return self.game_no % 2 == 0
        first = self.config.first
        return first == "pdp-1" or (first == "alternate" and self.stats.visitor_games % 2 == 1)

    def _begin(self, mode: str) -> None:
        """A new game in ``mode``: the program started again at 100 (a fresh emulator if need be)."""
        back_to_attract = mode == "attract" and self.mode != "attract"
        self.mode = mode
        self.game_no += 1
        if back_to_attract:  # the next visitor starts from the museum's own settings
            self.choice = self.config.default_choice()
            self._update(choices=self._choices_view(self.choice))
        settings = self.config.chosen(self.choice["game"], self.choice["strength"]) if mode == "visitor" else self.config
        self.panel = settings.panel(self._pdp1_first(mode))
        self._new_page()
        if self.machine is not None:
            try:
                sim = self.machine.sim
                if sim.running:
                    sim.stop()
                sim.discard_output()
                sim.set_switches(self.panel.switches())
                sim.set_test_word(self.panel.test_word())
                self.machine.panel = self.panel
                sim.go(0o100)
            except SimhError as failure:
                self.log.warning("restarting the program failed (%s): a fresh emulator", str(failure).splitlines()[0])
                self._close_machine()
        if self.machine is None:
            self.machine = KalahMachine(self.panel, self._speed(), timeout=self.config.watchdog_seconds,
                                        breakpoints=self._breakpoints)
        self.session = self._new_session(self.machine)
        self.log.info("game %d starts: %s mode, %s first", self.game_no, mode,
                      "the PDP-1" if self.panel.pdp1_first else "the " + ("visitor" if mode == "visitor" else "demo player"))

    def _speed(self) -> MachineConfig:
        """Paced by stepping (1960 speed) the machine idles throttled; unpaced it runs flat out."""
        return QUIET_SPEED if 0 < self.config.thinking_pace <= 1_000_000 else FULL_SPEED

    def _new_session(self, machine: KalahMachine) -> PlaySession:
        return PlaySession(machine, self._visitor, echo=self._echo, on_event=self._on_event,
                           silence_timeout=self.config.watchdog_seconds, on_break=self._on_break)

    def _new_page(self, paper: str = "") -> None:
        self._last_touch = time.monotonic()
        self.turn += 1  # a new game: every tap on the old board is stale
        with self._lock:
            self._paper = Paper(paper)
        self._update(phase="starting", board=board_view(None), legal=[], swap=False, last=None, result=None,
                     countdown=None, notice=None)
        self.publish({"type": "paper", "game": self.game_no, "at": 0, "text": paper, "reset": True})

    def _resume_saved(self, saved: SavedGame) -> GameOutcome:
        """After a server restart: the saved game on a fresh emulator, from its record."""
        self.mode = saved.mode
        self.game_no = saved.game_no
        t = saved.title
        self.panel = PanelSettings(pits=t.pits, seeds=t.seeds, depth=t.level, variants=t.variants,
                                   pdp1_first=t.first == "pdp-1")
        self._new_page(saved.paper)
        checker = checker_from_record(t, saved.record)
        if checker.finished:  # saved just as it ended: nothing to play on
            raise GameAborted(saved.mode, "the saved game had ended")
        self._update(board=board_view(checker))
        self.stats.restored_after_server_restart += 1
        self._keep_counters()
        self.session = None
        self.session = self._new_session(self._restore(checker))
        self.session.checker = checker
        return self._play(resume=True)

    def _restore(self, checker: CrossChecker) -> KalahMachine:
        """A fresh emulator playing on ``checker``'s game (several tries: a start can fail too)."""
        self._update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        self._close_machine()
        for attempt in range(1, 4):
            try:
                self.machine = restore_machine(self.panel, self._speed(), checker, timeout=self.config.watchdog_seconds,
                                               breakpoints=self._breakpoints)
                break
            except SimhError as failure:
                self.log.warning("restoring the game failed (try %d): %s", attempt, str(failure).splitlines()[0])
                if attempt == 3:
                    raise
                self._pause(0.5)
        assert self.machine is not None
        if self.session is not None:
            self.session.machine = self.machine
            self.session.parser = TranscriptParser()
        self._last_touch = time.monotonic()  # the wait was the machine's, not the visitor's
        self._update(notice=None)
        return self.machine

    def _play(self, resume: bool) -> GameOutcome:
        """One game to its end, the emulator replaced and the game restored whenever it fails."""
        restarts_here = 0
        while True:
            assert self.session is not None
            try:
                return self.session.play_game(resume=resume)
            except (SimhError, OSError) as failure:
                checker = self.session.checker
                if checker is not None and checker.finished:
                    # the emulator died after the game's last move: every move is checked and
                    # nothing is left to restore; the next game starts on a fresh emulator
                    self.stats.restarts += 1
                    self._keep_counters()
                    self.log.warning("game %d: the emulator failed after the game ended (%s); record %s; "
                                     "the next game starts on a fresh emulator", self.game_no,
                                     str(failure).splitlines()[0], format_record(checker.game.record))
                    return GameOutcome.of(checker, self.session.transcript)
                if checker is None or restarts_here >= MAX_RESTARTS_A_GAME:
                    raise
                restarts_here += 1
                self.stats.restarts += 1
                self._keep_counters()
                self.log.warning("game %d: the emulator failed (%s); restart %d, restoring the game at record %s",
                                 self.game_no, str(failure).splitlines()[0], self.stats.restarts,
                                 format_record(checker.game.record) or "(no move yet)")
                self._restore(checker)
                resume = True

    def _after_game(self, outcome: GameOutcome) -> str:
        self.stats.games_played += 1
        if self.mode == "visitor":
            self.stats.visitor_games += 1
        else:
            self.stats.attract_games += 1
        end = outcome.end
        self.log.info("game %d (%s) over: %s; record %s; %d moves cross-checked", self.game_no, self.mode,
                      " ".join(f"{p} {s}" for p, s in end.scores) if end else "?",
                      outcome.record_text(), outcome.moves_checked)
        self._keep_counters()
        self.store.clear()
        self._last_touch = time.monotonic()
        if self.mode == "attract":
            try:
                self._pause(self.config.end_pause)
            except GameAborted as touched:  # the game is over: a touch now only starts the next one
                return touched.next_mode
            return "attract"
        offered = time.monotonic()
        while True:
            try:
                self._look_at_keyboard(offered)  # the PDP-1 waits for a key to offer a new game
            except SimhError as failure:  # nothing to restore: the next game starts on a fresh emulator
                self.stats.restarts += 1
                self.log.warning("game %d: the emulator failed after the game (%s); restart %d", self.game_no,
                                 str(failure).splitlines()[0], self.stats.restarts)
                self._keep_counters()
                self._close_machine()
            command = self._take(0.25)
            if command is not None:
                if command.message.kind == "new_game":
                    command.reply({"type": "ok", "what": "new_game"})
                    self._keys_safe()
                    return "visitor"
                self._reject(command, "the game is over")
            self._idle_check()

    # -- PlaySession's callbacks -----------------------------------------------------------
    def _name(self) -> str:
        return "You" if self.mode == "visitor" else "Demo"

    def _echo(self, text: str) -> None:
        """The typewriter: onto the paper (paced at 10 characters a second when authentic)."""
        self._beat()
        pace = self.config.paper_pace
        if not pace:
            self._type_on_paper(text)
            return
        for char in text:
            self._type_on_paper(char)
            if char != "\r":
                self._pause(1 / pace)

    def _type_on_paper(self, text: str) -> None:
        with self._lock:
            at, paper_text = self._paper.append(text)
        if paper_text:
            self.publish({"type": "paper", "game": self.game_no, "at": at, "text": paper_text})

    def _on_event(self, event: Event, checker: CrossChecker | None) -> None:
        self._beat()
        if checker is None:
            return
        if isinstance(event, Title):
            self._update(board=board_view(checker), phase="typing")
            self._save(checker)
        elif isinstance(event, (Move, Swap)):
            self._update(board=board_view(checker), last=last_move_view(event, checker, self._name()),
                         phase="typing", legal=[], swap=False)
            self._save(checker)
        elif isinstance(event, Board):
            self._update(board=board_view(checker))
        elif isinstance(event, GameOver):
            self._update(phase="game_over", result=result_view(event, self._name()), legal=[], swap=False,
                         board=board_view(checker))
        elif isinstance(event, Complaint):
            self.log.warning("game %d: the PDP-1 complained %r", self.game_no, event.text)

    def _save(self, checker: CrossChecker) -> None:
        with self._lock:
            paper = self._paper.text
        try:
            self.store.save(SavedGame(self.mode, self.game_no, checker.title, list(checker.game.record), paper))
        except OSError as exc:
            self._saving_failed("the game", exc)
        else:
            if self.save_problem and self.save_problem.startswith("the game"):
                self.save_problem = None

    def choose(self, game: Game) -> str:
        """The visitor's (or the demo player's) move, when the PDP-1 asks for it."""
        if self.session is not None and self.session.checker is not None:
            self._save(self.session.checker)  # the paper is complete up to the question: the best moment
        asked = time.monotonic()
        self.turn += 1  # a new question: a tap for an earlier one is stale from now on
        if self.mode == "attract":
            self._update(phase="demo_turn")
            end = asked + self.config.attract_pause
            while (left := end - time.monotonic()) > 0:
                self._pause(min(left, 0.25))
                self._look_at_keyboard(asked)
            return self._answer_when_keys_are_safe(AttractPlayer(
                self.config.attract_seed or int(self.stats.started), self.game_no,
                self.config.attract_random_moves, self.config.attract_depth).choose(game))
        legal = game.position.legal_pits()
        self._last_touch = time.monotonic()  # idle means the visitor's own time, not the PDP-1's
        turn = self.turn
        self._update(phase="your_turn", legal=legal, swap=game.swap_offered)
        while True:
            if self.machine is not None and not self.machine.sim.alive:
                raise SimhDied("the pdp1 process exited while the visitor was choosing")
            self._look_at_keyboard(asked)
            command = self._take(0.25)
            if command is not None:
                kind, pit = command.message.kind, command.message.pit
                if kind in ("move", "swap") and command.message.turn != turn:
                    self._reject(command, STALE_TAP)
                elif kind == "move" and pit in legal:
                    self._update(phase="typing", legal=[], swap=False)
                    return self._answer_when_keys_are_safe(str(pit))
                elif kind == "swap" and game.swap_offered:
                    self._update(phase="typing", legal=[], swap=False)
                    return self._answer_when_keys_are_safe("s")
                else:
                    self._reject(command, f"pit {pit} cannot be played now" if kind == "move" else "not now")
            self._idle_check()

    def _look_at_keyboard(self, asked: float) -> None:
        """While the PDP-1 waits for a key: stopped (^E), looked at, continued; every
        ``WAITING_LIGHTS_EVERY`` seconds, the first ``WAITING_LIGHTS_AFTER`` after the question.

        One look serves the console and health: the lamps are examined for the
        page, and the PC must be in the program's keyboard loop.  A ``pdp1``
        that does not answer (stopped, hung) raises SimhTimeout and one that
        answers from elsewhere SimhError; either is replaced at once
        (``_play``).  Only here, where nothing is being typed and no key is
        pending: the answer is typed after this returns, no sooner than
        ``KEY_AFTER_CONT`` after the ``cont`` (``_keys_safe``).
        """
        now = time.monotonic()
        if now - asked < WAITING_LIGHTS_AFTER or now - self._lights_shown_at < WAITING_LIGHTS_EVERY:
            return
        sim = self.machine.sim if self.machine else None
        if sim is None or not sim.running:
            return
        self._lights_shown_at = now
        self._probe_started = now
        try:
            pc = sim.stop()
        except BreakpointReached as reached:  # a breakpoint here would be the program gone astray
            pc = reached.pc
        finally:
            self._probe_started = None
        self._beat()
        if pc not in self._keyboard_loop:
            self._probe_problem = f"the PDP-1 should wait for a key but its PC is {pc:o}" if pc is not None \
                else "the PDP-1 should wait for a key but stopped elsewhere"
            raise SimhError(self._probe_problem, sim.tail())
        self._probe_problem = None
        try:
            lights = sample(sim, 0, phase="waiting")
        finally:
            sim.cont()
            self._continued_at = time.monotonic()
        self._show_lights(lights)

    def _keys_safe(self) -> None:
        """Wait until a key typed now cannot fall into the flush of a ``cont`` just made."""
        wait = self._continued_at + KEY_AFTER_CONT - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def _answer_when_keys_are_safe(self, answer: str) -> str:
        self._keys_safe()
        return answer

    def _on_break(self, pc: int | None) -> None:
        """The PDP-1 stopped at one of the kiosk's breakpoints; PlaySession continues it afterwards."""
        if pc == self._think_start:
            self._think()
        elif pc != self._think_end:
            raise SimhError(f"the PDP-1 stopped at an unexpected breakpoint {pc}")

    def _think(self) -> None:
        """Run the PDP-1's thinking in slices: paced in 1960 time if asked, the lights between slices.

        The machine is stopped at the start of ``think`` (a breakpoint) and
        is stepped until the breakpoint at its end: it types nothing
        meanwhile, and nothing the visitor typed is pending.
        """
        assert self.session is not None
        sim = self.session.machine.sim
        while self._faults:
            self._faults.pop(0)(sim)
        pace = self.config.thinking_pace  # memory cycles a second
        # paced: a look at the lights every 0.1 s, about 1.9 cycles an instruction
        slice_ = max(1000, pace // 20) if pace else SLICE_FAST
        counter = CycleCounter(sim)
        started = time.monotonic()
        shown = 0.0
        self._update(phase="thinking")
        while True:
            try:
                output, _pc = counter.step(slice_)
            except BreakpointReached as reached:
                if reached.pc != self._think_end:
                    raise
                break
            if output:  # nothing is typed while thinking; keep it for the transcript all the same
                sim.unread(output)
            if counter.instructions > MAX_THINK:
                raise SimhError(f"the PDP-1 thought for more than {MAX_THINK} instructions", sim.tail())
            now = time.monotonic()
            if now - shown >= LIGHTS_EVERY:
                shown = now
                self._show_lights(sample(sim, counter.cycles, phase="thinking"))
            if pace:
                self._pause(started + counter.cycles / pace - time.monotonic())
            else:
                self._take_now()
        if pace:
            self._pause(started + counter.cycles / pace - time.monotonic())
        self.log.info("game %d: the PDP-1 thought %d instructions, %d memory cycles, %.2f s of 1960 time",
                      self.game_no, counter.instructions, counter.cycles, seconds(counter.cycles))
        lights = sample(sim, counter.cycles, phase="thinking")
        self._show_lights(lights, done=True)
        self._update(phase="typing")

    def _show_lights(self, lights: ConsoleLights, done: bool = False) -> None:
        with self._lock:
            self._lights = lights
        self.publish({**lights.message(), "done": done})

    def _take_now(self) -> None:
        command = self._take(0)
        if command is not None:
            self._reject(command, "not your turn")

    def _close_machine(self) -> None:
        self._probe_problem = None  # whatever the last look found was about this machine
        if self.machine is not None:
            try:
                self.machine.close()
            finally:
                self.machine = None
