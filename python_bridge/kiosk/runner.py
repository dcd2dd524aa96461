"""The kiosk's one emulator and its games, in a thread of its own.

Why a thread: the emulator is driven through blocking pexpect calls (the
project's ``Simh``), and the PDP-1 must be talked to from one place only.
The web server (asyncio) hands the page's touches over through ``submit``
(a bounded queue) and receives what to show through ``publish`` (called from
this thread, thread-safe on the server's side).

A game is played by the one game driver (``checking.driver``): every move
cross-checked, the thinking stepped and counted, a failed emulator replaced
and the game restored.  This module is its front end, and adds what the
exhibit needs:

* modes: attract (the PDP-1 against ``AttractPlayer``, paced) and visitor
  (the page's touches); "touch to play" abandons an attract game at once,
  an idle visitor game counts down and returns to attract mode;
* the driver's pacer runs the thinking at ``thinking_pace`` (200,000 memory
  cycles a second at authentic speed) and waits through ``_pause``, so the
  page is answered meanwhile; the console lights are examined between
  slices; at the keyboard loop the machine is looked at every 0.5 s
  (``GameDriver.look_at_keyboard``);
* the visitor's choices (game size, strength) made in attract mode or after
  a game set the next visitor game's panel; attract mode goes back to the
  museum's own settings;
* the typewriter paper is paced at 10 characters a second when authentic;
* failures: the driver replaces a dead or hung ``pdp1`` and restores the
  game, and the runner logs and counts it; a cross-check mismatch is logged
  with its reproduction command and a clean new game starts; after a server
  restart the saved game is restored (``GameDriver.resume``);
* turns: every question (the PDP-1 asking for a move, a new game) has a
  number, ``turn`` in every state message; a move or swap answering an
  earlier one is refused, so a double tap plays at most one move;
* while the visitor decides, the PDP-1 is looked at every
  ``watchdog_seconds``: stopped (^E), its PC must be in the program's
  keyboard loop, then it continues; one that does not answer is replaced at
  once, not when the visitor moves;
* the counters persist in ``state_dir`` (``counters``), and health lists
  every problem it sees (``health``).
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ..checking.crosscheck import CrossChecker, CrossCheckMismatch
from ..checking.driver import AFTER_END, BETWEEN_GAMES, Failure, FrontEnd, GameDriver, GameOutcome, Thought
from ..checking.pacing import Pacer
from ..machine.front_panel import PanelSettings
from ..machine.simh import FULL_SPEED, IDLE_SPEED, QUIET_SPEED, Simh, SimhError
from ..machine.transcript import Board, Complaint, Event, GameOver, Move, Swap, Title
from ..reference.game import Game
from ..reference.notation import format_record
from .config import KioskConfig
from .counters import KioskStats, load_counters, save_counters
from .health import disk_problem, emulator_problem, log_problem
from .lights import ConsoleLights, sample
from .messages import ClientMessage
from .paper import Paper
from .players import AttractPlayer
from .saved_game import GameStore, SavedGame
from .view import board_view, last_move_view, result_view

LIGHTS_EVERY = 0.1  # seconds of wall time between two lights messages while the PDP-1 thinks
WAITING_LIGHTS_EVERY = 1.0  # ... and between two looks at the keyboard loop (each a stop, an examine, a cont:
# every cont recalibrates the throttle at full speed for a moment, so fewer looks keep an idle kiosk near 10 % of a core)
WAITING_LIGHTS_AFTER = 0.3  # the first look this long after the question (its last character is long typed)
NOTICE_ONE_MOMENT = "one_moment"  # the page words it in its language
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
    """The ``Visitor`` the driver asks: the runner answers according to the mode."""

    def __init__(self, runner: "KioskRunner") -> None:
        self.runner = runner

    def choose(self, game: Game) -> str:
        return self.runner.choose(game)


class _KioskFront(FrontEnd):
    """The driver's front end: everything it hears goes to the runner (its paper, view, lights, log)."""

    def __init__(self, runner: "KioskRunner") -> None:
        self.runner = runner

    def echo(self, text: str) -> None:
        self.runner._echo(text)

    def event(self, event: Event, checker: CrossChecker) -> None:
        self.runner._on_event(event, checker)

    def failed(self, failure: Failure) -> None:
        self.runner._on_failure(failure)

    def restored(self) -> None:
        self.runner._on_restored()

    def thinking(self, thought: Thought, sim: Simh) -> None:
        self.runner._on_thinking(sim)

    def slice(self, sim: Simh, cycles: int) -> None:
        self.runner._on_slice(sim, cycles)

    def thought(self, thought: Thought) -> None:
        self.runner._on_thought(thought)


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
        self.inbox: queue.Queue[Command] = queue.Queue(maxsize=32)
        self._new_game_asked: Command | None = None  # a new game asked for while the last line was typed
        self.mode = "attract"
        self.game_no = 0
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
        self._last_touch = time.monotonic()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._faults: list[Callable[[Simh], None]] = []
        self._shown_at = 0.0  # when the thinking's lights were last sent
        # the driver stops the PDP-1 where its thinking starts and ends: never in the middle of typing
        # (a machine stopped while a character is being typed loses that character).  Paced, the thinking
        # is stepped and counted on an emulator throttled loosely.  Fast, it runs free and flat out
        # (counting every cycle made replies slow: no 1960 seconds are shown then).  Either way the
        # emulator is slowed further while the PDP-1 waits for a touch: its keyboard loop never spins a
        # core all day.
        paced = bool(config.thinking_pace)
        self.driver = GameDriver(config.panel(False), _KioskFront(self), _TouchVisitor(self),
                                 Pacer(config.thinking_pace or None, counted=paced, sleep=self._pause),
                                 silence_timeout=config.watchdog_seconds, timeout=config.watchdog_seconds,
                                 machine_config=QUIET_SPEED if paced else FULL_SPEED,
                                 waiting_config=IDLE_SPEED)

    @property
    def panel(self) -> PanelSettings:
        """The panel of the game in play (the driver's: set for each game, or from a saved one)."""
        return self.driver.panel

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
                        outcome = self.driver.play_game()
                    next_mode = self._after_game(outcome)
                except Stopping:
                    if self.driver.checker is not None and not self.driver.checker.finished:
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
                except SimhError as failure:
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
        checker = self.driver.checker
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
        sim = self.driver.machine.sim if self.driver.machine else None
        silent = time.monotonic() - self.heartbeat
        problems: list[str] = [problem] if (problem := self.loop_problem()) else []
        if sim is not None and (problem := emulator_problem(sim.pid)):
            problems.append(problem)
        probing = self.driver.probe_started
        if probing is not None and time.monotonic() - probing > PROBE_SLACK:
            problems.append("the PDP-1 does not answer at its keyboard loop")
        elif self.driver.probe_problem:
            problems.append(self.driver.probe_problem)
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
        """Run ``fault(sim)`` on this thread when the PDP-1 next starts thinking (machine stopped; only at a
        counted pace, ``think_rate``, where the PDP-1 stops there).

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
            if command is not None and command.message.kind == "new_game":
                # accepted at the game's end while its last line is still being typed: kept for then
                self._new_game_asked = command
            elif command is not None:
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
        settings = (self.config.chosen(self.choice["game"], self.choice["strength"]) if mode == "visitor"
                    else replace(self.config, level=self.config.attract_level))
        panel = settings.panel(self._pdp1_first(mode))
        self._new_page()
        self.driver.new_game(panel)  # the program started again at 100 (on a fresh emulator if need be)
        self.log.info("game %d starts: %s mode, %s first", self.game_no, mode,
                      "the PDP-1" if panel.pdp1_first else "the " + ("visitor" if mode == "visitor" else "demo player"))

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
        self._new_page(saved.paper)
        self._update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        if not self.driver.resume(saved.title, saved.record):  # saved just as it ended: nothing to play on
            raise GameAborted(saved.mode, "the saved game had ended")
        self._update(board=board_view(self.driver.checker))
        self.stats.restored_after_server_restart += 1
        self._keep_counters()
        return self.driver.play_game()

    # -- the driver's front end ----------------------------------------------------------------
    def _on_failure(self, failure: Failure) -> None:
        """The emulator failed: counted, logged; while a game is restored the page says "one moment"."""
        self.stats.restarts += 1
        self._keep_counters()
        if failure.restored:
            self.log.warning("game %d: the emulator failed (%s); restart %d, restoring the game at record %s",
                             self.game_no, failure.reason, self.stats.restarts, failure.record or "(no move yet)")
            self._update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        elif failure.when == AFTER_END:
            self.log.warning("game %d: the emulator failed after the game ended (%s); record %s; "
                             "the next game starts on a fresh emulator", self.game_no, failure.reason, failure.record)
        elif failure.when == BETWEEN_GAMES:
            self.log.warning("game %d: the emulator failed between games (%s); restart %d: a fresh emulator",
                             self.game_no, failure.reason, self.stats.restarts)
        else:
            self.log.warning("game %d: the emulator failed %s (%s); restart %d: a fresh emulator",
                             self.game_no, failure.when, failure.reason, self.stats.restarts)

    def _on_restored(self) -> None:
        self._last_touch = time.monotonic()  # the wait was the machine's, not the visitor's
        self._update(notice=None)

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
        try:
            while True:
                self._look_at_keyboard(offered)  # the PDP-1 waits for a key; one that fails is replaced
                command, self._new_game_asked = self._new_game_asked or self._take(0.25), None
                if command is not None:
                    if command.message.kind == "new_game":
                        command.reply({"type": "ok", "what": "new_game"})
                        return "visitor"
                    self._reject(command, "the game is over")
                self._idle_check()
        except GameAborted as idle:  # the game was played to its end: counted as played, not as left
            self.log.info("game %d (%s): %s", self.game_no, self.mode, idle)
            return idle.next_mode

    # -- what the driver hands over --------------------------------------------------------
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
            self._update(board=board_view(checker), last=last_move_view(event, checker),
                         phase="typing", legal=[], swap=False)
            self._save(checker)
        elif isinstance(event, Board):
            self._update(board=board_view(checker))
        elif isinstance(event, GameOver):
            self._update(phase="game_over", result=result_view(event), legal=[], swap=False,
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
        if self.driver.checker is not None:
            self._save(self.driver.checker)  # the paper is complete up to the question: the best moment
        asked = time.monotonic()
        self.turn += 1  # a new question: a tap for an earlier one is stale from now on
        if self.mode == "attract":
            self._update(phase="demo_turn")
            end = asked + self.config.attract_pause
            while (left := end - time.monotonic()) > 0:
                self._pause(min(left, 0.25))
                self._look_at_keyboard(asked)
            return AttractPlayer(self.config.attract_seed or int(self.stats.started), self.game_no,
                                 self.config.attract_random_moves, self.config.attract_depth).choose(game)
        legal = game.position.legal_pits()
        self._last_touch = time.monotonic()  # idle means the visitor's own time, not the PDP-1's
        turn = self.turn
        self._update(phase="your_turn", legal=legal, swap=game.swap_offered)
        while True:
            self._look_at_keyboard(asked)
            command = self._take(0.25)
            if command is not None:
                kind, pit = command.message.kind, command.message.pit
                if kind in ("move", "swap") and command.message.turn != turn:
                    self._reject(command, STALE_TAP)
                elif kind == "move" and pit in legal:
                    self._update(phase="typing", legal=[], swap=False)
                    return str(pit)
                elif kind == "swap" and game.swap_offered:
                    self._update(phase="typing", legal=[], swap=False)
                    return "s"
                else:
                    self._reject(command, f"pit {pit} cannot be played now" if kind == "move" else "not now")
            self._idle_check()

    def _look_at_keyboard(self, asked: float) -> None:
        """While the PDP-1 waits for a key: looked at by the driver (stopped, its PC checked, continued)
        every ``WAITING_LIGHTS_EVERY`` seconds, the first ``WAITING_LIGHTS_AFTER`` after the question.

        One look serves the console and health: the lamps are examined for the
        page, and the PC must be in the program's keyboard loop.  A ``pdp1``
        that does not answer, or answers from elsewhere, is replaced at once
        (during a game the game is restored).
        """
        now = time.monotonic()
        if now - asked < WAITING_LIGHTS_AFTER or now - self._lights_shown_at < WAITING_LIGHTS_EVERY:
            return
        self._lights_shown_at = now
        self.driver.look_at_keyboard(lambda sim: self._show_lights(sample(sim, 0, phase="waiting")))
        self._beat()

    def _on_thinking(self, sim: Simh) -> None:
        """The PDP-1 starts thinking (stopped at ``think``): the faults tests asked for, then the view."""
        while self._faults:
            self._faults.pop(0)(sim)
        self._shown_at = 0.0
        self._update(phase="thinking")

    def _on_slice(self, sim: Simh, cycles: int) -> None:
        """Between two slices of the thinking: the lights every ``LIGHTS_EVERY``, the page answered."""
        now = time.monotonic()
        if now - self._shown_at >= LIGHTS_EVERY:
            self._shown_at = now
            self._show_lights(sample(sim, cycles, phase="thinking"))
        self._take_now()

    def _on_thought(self, thought: Thought) -> None:
        self.log.info("game %d: the PDP-1 thought %d instructions, %d memory cycles, %.2f s of 1960 time",
                      self.game_no, thought.instructions, thought.cycles, thought.seconds)
        self._show_lights(sample(self.driver.sim, thought.cycles, phase="thinking"), done=True)
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
        self.driver.close()
