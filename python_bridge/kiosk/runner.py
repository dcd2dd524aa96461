"""The kiosk's gallery: one game session after another, in a thread of its own.

Why a thread: the emulator is driven through blocking pexpect calls (the
project's ``Simh``), and the PDP-1 must be talked to from one place only.
The web server (asyncio) hands the page's touches over through ``submit``
(a bounded queue) and receives what to show through ``publish`` (called from
this thread, thread-safe on the server's side).

A game is played by a ``GameSession`` (``game_session``): the one game driver
(``driver.driver``) with the page as its front end, every move
cross-checked, the thinking stepped and counted, a failed emulator replaced
and the game restored.  This module is the gallery around it, and adds what
the exhibit needs (some of it carried out by the session, as noted):

* modes: attract (the PDP-1 against ``AttractPlayer``, paced) and visitor
  (the page's touches); "touch to play" abandons an attract game at once,
  an idle visitor game counts down and returns to attract mode;
* the driver's pacer runs the thinking at ``thinking_pace`` (200,000 memory
  cycles a second at authentic speed) and waits through ``_pause``, so the
  page is answered meanwhile; the console lights are examined between
  slices; at the keyboard loop the machine is looked at once, then
  suspended until a key is typed (``GameSession.look_at_keyboard``);
* the visitor's choices (game size, strength) made in attract mode or after
  a game set the next visitor game's panel; attract mode goes back to the
  museum's own settings;
* the typewriter paper is paced at 10 characters a second when authentic;
* failures: the driver replaces a dead or hung ``pdp1`` and restores the
  game, and the runner logs and counts it; a cross-check mismatch is logged
  with its reproduction command: a visitor's game stops, the page saying
  so until a new game is asked for, an attract game gives way to a clean
  one; after a server restart the saved game is restored (``GameDriver.resume``);
* turns: every question (the PDP-1 asking for a move, a new game) has a
  number, ``turn`` in every state message; a move or swap answering an
  earlier one is refused, so a double tap plays at most one move;
* while the visitor decides, the PDP-1 is looked at once: stopped (^E), its
  PC must be in the program's keyboard loop, then it continues and is
  suspended; one that does not answer, or dies in its sleep, is replaced at
  once, not when the visitor moves; one that does not answer once woken is
  found by the watchdog;
* the counters persist in ``state_dir`` (``counters``), and health lists
  every problem it sees (``health``).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.driver import AFTER_END, BETWEEN_GAMES, Failure, GameOutcome
from ..driver.game_records import SavedGame
from ..exhibit.game_session import ENDED, NOTICE_ONE_MOMENT, GameSession
from ..exhibit.health import disk_problem, emulator_problem, log_problem
from ..exhibit.messages import ClientMessage
from ..exhibit.metrics import ExhibitMetrics, Figures
from ..exhibit.session_owner import GameAborted, Stopping, Waiting
from ..exhibit.view import mismatch_view
from ..machine.front_panel import PanelSettings
from ..machine.simh import Simh, SimhError
from ..reference.game import Game
from ..reference.notation import format_record
from .config import KioskConfig
from .counters import KioskStats, load_counters, save_counters
from .players import AttractPlayer
from .saved_game import GameStore, kiosk_game, mode_of, number_of

# Seconds a keyboard-loop look may take before health calls the emulator silent.  A look takes milliseconds,
# a ^E that SIMH's flush threw away costs STOP_RETRY (0.5 s) more, and a loaded host adds its share: health
# that flapped on those would page an operator for nothing; a machine silent this long is not answering.
PROBE_SLACK = 5.0


class KioskRunner:
    """The gallery's game loop; the page's messages go to its game session."""

    def __init__(self, config: KioskConfig, publish: Callable[[dict], None],
                 log: logging.Logger | None = None) -> None:
        self.config = config
        self.log = log or logging.getLogger("kiosk")
        self.store = GameStore(config.saved_game)
        self.stats = KioskStats()
        self.save_problem: str | None = None  # why the last save of the game or the counters failed
        self.log_file: Path | None = config.log_file  # None: state_dir was unusable at start (stderr only)
        self.heartbeat = time.monotonic()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.session = GameSession(config, publish, self, self.log)
        self.metrics = ExhibitMetrics(self.figures)

    @property
    def driver(self):
        return self.session.driver

    @property
    def game_no(self) -> int:
        return self.session.game_no

    @property
    def mode(self) -> str:
        return self.session.mode

    @property
    def panel(self) -> PanelSettings:
        """The panel of the game in play (the driver's: set for each game, or from a saved one)."""
        return self.driver.panel

    def submit(self, message: ClientMessage, reply: Callable[[dict], None]) -> str | None:
        """Queue a message from the page; return why it is refused, or None when accepted."""
        return self.session.submit(message, reply)

    def snapshot(self) -> dict:
        """Everything a page needs to draw the kiosk as it is now (sent on every (re)connection)."""
        return self.session.snapshot()

    def inject_at_next_think(self, fault: Callable[[Simh], None]) -> None:
        """For tests: ``fault(sim)`` when the PDP-1 next starts thinking (see ``GameSession``)."""
        self.session.inject_at_next_think(fault)

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
        next_mode = mode_of(saved) if saved else "attract"
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
                except Exception as failure:  # noqa: BLE001 -- nothing that goes wrong in one game ends the loop
                    saved = None
                    next_mode = self._game_failed(failure)
        finally:
            self._close_machine()
            self._keep_counters()
            self.log.info("runner stopped")

    def _game_failed(self, failure: Exception) -> str:
        """A game that cannot go on: counted and logged by its kind, and a clean new game on a fresh emulator; the
        next game's mode.

        A cross-check mismatch (logged with its reproduction), an emulator that could not be restored, or
        a bug of ours (logged with its traceback): the kiosk goes on all the same.  A mismatch in a visitor's
        game stops it before the visitor's eyes: the page says what happened (``GameSession.stopped``) until they
        ask for a new game, or leave it (the idle countdown, then attract mode), as after a game's end."""
        where = f"game {self.game_no} ({self.mode})"
        if isinstance(failure, CrossCheckMismatch):
            self.stats.mismatches += 1
            visitor = self.mode == "visitor"
            self.log.error("%s: cross-check mismatch after %s; %s\n%s", where, self._record_so_far(),
                           "the game is stopped" if visitor else "the game restarts", failure)
            if visitor:
                self._keep_counters()
                self.store.clear()
                self._close_machine()
                self.session.stopped(mismatch_view(failure.pdp1, failure.reference))
                return self._next_after_game(time.monotonic())
        elif isinstance(failure, SimhError):
            self.stats.errors += 1
            self.log.error("%s: the emulator failed beyond restoring (%s) after %s; a new game starts", where,
                           str(failure).splitlines()[0], self._record_so_far())
        else:
            self.stats.errors += 1
            self.log.error("%s: unexpected error after %s; a new game starts", where, self._record_so_far(),
                           exc_info=failure)
        self._keep_counters()
        self._fresh_start_after_failure()
        return self.mode

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
        self.session.update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        try:
            self.session.pause(1.0)
        except (GameAborted, Stopping):  # the loop looks at both itself
            pass

    def loop_problem(self) -> str | None:
        """Why the game loop is not making progress, or None (what systemd's watchdog is fed on)."""
        silent = time.monotonic() - self.heartbeat
        if not self.alive:
            return "the game loop has stopped"
        if silent >= 2 * self.config.watchdog_seconds + 10:
            return f"the game loop is stuck: no progress for {silent:.0f} s"
        return None

    def figures(self) -> Figures:
        """What ``/metrics`` shows at a scrape: a visitor's game running or not, the counters, health."""
        view = self.session.view()
        running = int(view["mode"] == "visitor" and view["phase"] not in (*ENDED, "starting"))
        s = self.stats
        return Figures(running=running, waiting=0, played=s.games_played, mismatches=s.mismatches,
                       restarts=s.restarts, errors=s.errors, healthy=self.health()["status"] == "ok")

    def replied(self, seconds: float) -> None:
        self.metrics.replied(seconds, self.config.speed)

    def paced(self, counted: float, wall: float) -> None:
        """A paced reply's 1960 seconds beside its wall seconds: the kiosk keeps no running sum of them (its
        pace is measured by ``make bench-kiosk``); the reply's wall time is in the metrics already."""

    def health(self) -> dict:
        """The runner's part of ``/health``: status, the problems it sees, what it is doing, the counters."""
        view = self.session.view()
        phase, mode = view["phase"], view["mode"]
        sim = self.driver.machine.sim if self.driver.machine else None
        silent = time.monotonic() - self.heartbeat
        problems: list[str] = [problem] if (problem := self.loop_problem()) else []
        if sim is not None and (problem := emulator_problem(sim.pid, asleep=sim.suspended)):
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
                "game": self.game_no, "turn": self.session.turn,
                "pdp1_pid": sim.pid if sim else None, "pdp1_alive": bool(sim and sim.alive),
                "seconds_since_progress": round(silent, 1),
                "uptime_seconds": round(time.time() - self.stats.started, 1),
                "total_uptime_seconds": round(self.stats.total_uptime_seconds, 1), **self.stats.counts()}

    # -- what the session asks of its owner ---------------------------------------------------
    def beat(self) -> None:
        self.heartbeat = time.monotonic()
        if self._stopping.is_set():
            raise Stopping()

    def demo_move(self, game: Game, session: Waiting, asked: float) -> str:
        """The demonstration player's move, ``attract_pause`` after the question (so visitors can follow)."""
        end = asked + self.config.attract_pause
        while (left := end - time.monotonic()) > 0:
            session.look_at_keyboard(asked)  # (first: a machine not yet looked at spins at full speed)
            session.pause(min(left, 0.25))
        return AttractPlayer(self.config.attract_seed or int(self.stats.started), session.game_no,
                             self.config.attract_random_moves, self.config.attract_depth).choose(game)

    def keep(self, saved: SavedGame) -> None:
        try:
            self.store.save(kiosk_game(self.mode, self.game_no, saved.title, saved.moves, saved.transcript))
        except OSError as exc:
            self._saving_failed("the game", exc)
        else:
            if self.save_problem and self.save_problem.startswith("the game"):
                self.save_problem = None

    def failed(self, failure: Failure) -> None:
        """The emulator failed: counted and logged (the session's page says "one moment" meanwhile)."""
        self.stats.restarts += 1
        self._keep_counters()
        if failure.restored:
            self.log.warning("game %d: the emulator failed (%s); restart %d, restoring the game at record %s",
                             self.game_no, failure.reason, self.stats.restarts, failure.record or "(no move yet)")
        elif failure.when == AFTER_END:
            self.log.warning("game %d: the emulator failed after the game ended (%s); record %s; "
                             "the next game starts on a fresh emulator", self.game_no, failure.reason, failure.record)
        elif failure.when == BETWEEN_GAMES:
            self.log.warning("game %d: the emulator failed between games (%s); restart %d: a fresh emulator",
                             self.game_no, failure.reason, self.stats.restarts)
        else:
            self.log.warning("game %d: the emulator failed %s (%s); restart %d: a fresh emulator",
                             self.game_no, failure.when, failure.reason, self.stats.restarts)

    # -- the games ---------------------------------------------------------------------------
    def _load_saved(self) -> SavedGame | None:
        try:
            saved = self.store.load()
        except ValueError as exc:
            self.log.error("%s: starting afresh", exc)
            self.store.clear()
            return None
        if saved is not None:
            self.log.info("server restarted: restoring game %d (%s) at record %s", number_of(saved), mode_of(saved),
                          format_record(saved.moves) or "(no move yet)")
        return saved

    def _pdp1_first(self, mode: str) -> bool:
        """Whether the PDP-1 opens the next game (asked before it is numbered)."""
        if mode == "attract":  # who opens alternates (and AttractPlayer varies the openings)
            return (self.game_no + 1) % 2 == 0
        first = self.config.first
        return first == "pdp-1" or (first == "alternate" and self.stats.visitor_games % 2 == 1)

    def _begin(self, mode: str) -> None:
        """A new game in ``mode``: the program started again at 100 (a fresh emulator if need be)."""
        session = self.session
        back_to_attract = mode == "attract" and session.mode != "attract"
        if back_to_attract:  # the next visitor starts from the museum's own settings
            session.set_choice(self.config.default_choice())
        choice = session.choice
        settings = (self.config.chosen(choice["game"], choice["strength"]) if mode == "visitor"
                    else replace(self.config, level=self.config.attract_level))
        panel = settings.panel(self._pdp1_first(mode))
        session.start_game(mode, panel)
        self.log.info("game %d starts: %s mode, %s first", self.game_no, mode,
                      "the PDP-1" if panel.pdp1_first else "the " + ("visitor" if mode == "visitor" else "demo player"))

    def _resume_saved(self, saved: SavedGame) -> GameOutcome:
        """After a server restart: the saved game on a fresh emulator, from its record."""
        if not self.session.resume_game(saved, mode_of(saved), number_of(saved)):  # saved just as it ended
            raise GameAborted(mode_of(saved), "the saved game had ended")
        self.stats.restored_after_server_restart += 1
        self._keep_counters()
        return self.driver.play_game()

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
        session = self.session
        session.last_touch = time.monotonic()
        offered = time.monotonic()
        if self.mode == "attract":
            try:
                while True:  # the result up for end_pause, the PDP-1 asleep in its new-game offer meanwhile
                    session.look_at_keyboard(offered)
                    session.pause(max(0.0, min(offered + self.config.end_pause - time.monotonic(), 0.25)))
                    if time.monotonic() >= offered + self.config.end_pause:
                        return "attract"
            except GameAborted as touched:  # the game is over: a touch now only starts the next one
                return touched.next_mode
        return self._next_after_game(offered)

    def _next_after_game(self, offered: float) -> str:
        """After a visitor's game (played to its end, or stopped), from ``offered``: "visitor" when they ask for a
        new game, the idle countdown's mode when they leave it."""
        session = self.session
        try:
            while True:
                session.look_at_keyboard(offered)  # the PDP-1 waits for a key; one that fails is replaced
                command = session.next_command(0.25)
                if command is not None:
                    if command.message.kind == "new_game":
                        command.reply({"type": "ok", "what": "new_game"})
                        return "visitor"
                    session.reject(command, "the game is over")
                session.idle_check()
        except GameAborted as idle:  # the game was played to its end: counted as played, not as left
            self.log.info("game %d (%s): %s", self.game_no, self.mode, idle)
            return idle.next_mode
        except Stopping:  # (the loop sees the server stopping itself)
            return self.mode

    def _close_machine(self) -> None:
        self.session.close()
