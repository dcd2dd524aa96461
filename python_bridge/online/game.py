"""One visitor's game online: the exhibit's ``GameSession`` (the one game driver, a page as its front end)
on a thread and an emulator of its own, its record kept in the store after every move.

Why the exhibit's session and not a loop of our own: a game online is the exhibit's game without the
gallery around it (no attract mode, no counters of a screen); the session already holds the page's
state, the turn rule, the paper, the lights, the idle time and the waiting machine's sleep.  This
module is the session's owner: where the game is kept, what a failed emulator means, and when the
machine is given back (the game finished, left idle, or the server stopping).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.driver import Failure
from ..driver.game_records import RecordError, SavedGame, read_game_record
from ..driver.search_pool import Decision, reference_decision
from ..exhibit.game_session import CHOSE, IN_PLAY, NOTICE_ONE_MOMENT, STOPPED, GameSession
from ..exhibit.session_owner import GameAborted, Stopping, Waiting
from ..exhibit.view import mismatch_view
from ..machine.simh import SimhError
from ..reference.game import Game
from .leases import Leases
from .settings import OnlineSettings
from .store import GameStore, LeaseLost, StoreError

ID_BYTES = 16  # 128 random bits: an ID of 22 URL-safe characters, never guessed
ID_CHARACTERS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_REPLIES_KEPT = 1_000_000  # reply times kept for the load benchmark (8 MB at most)
RESUME_TURNS = 2  # turns a resumed game takes before its question: the new page, and the question itself
SAVE_RETRY_S = (0.25, 5.0)  # a save the database refused is tried again after this, doubling, up to that
HOLD_LOOK_S = 0.1  # how often a game held for its lease looks again


class GameLost(Exception):
    """Another server drives this game now: this one stops at once, saving nothing more."""


def new_game_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def well_formed(game_id: str) -> bool:
    """An ID as ``new_game_id`` makes them (anything else is answered at once, never looked up)."""
    return len(game_id) == len(new_game_id()) and not set(game_id) - ID_CHARACTERS


@dataclass
class Counters:
    """What the host has done since it started (``/health``)."""

    games_played: int = 0
    replies: list[float] = field(default_factory=list)  # seconds from a move's arrival to the next question
    mismatches: int = 0
    restarts: int = 0
    errors: int = 0
    records_refused: int = 0  # browser games' records the reference refused (browser_records)
    reply_1960_s: float = 0.0  # the PDP-1's paced replies: their 1960 seconds, counted (thinking and typing)
    reply_wall_s: float = 0.0  # and the wall seconds they took (how closely the host kept the pace)
    lock: threading.Lock = field(default_factory=threading.Lock)
    observers: list[Callable[[float], None]] = field(default_factory=list)  # told each reply (the metrics)

    def add(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)

    def paced(self, counted: float, wall: float) -> None:
        with self.lock:
            self.reply_1960_s += counted
            self.reply_wall_s += wall

    def replied(self, seconds: float) -> None:
        with self.lock:
            if len(self.replies) < MAX_REPLIES_KEPT:
                self.replies.append(round(seconds, 3))
        for observe in self.observers:
            observe(seconds)


class OnlineGame:
    """A game with an ID: waiting for a machine, on one, or kept (finished, or left to be resumed)."""

    def __init__(self, game_id: str, settings: OnlineSettings, store: GameStore, leases: Leases, counters: Counters,
                 publish: Callable[[str, dict], None], released: Callable[["OnlineGame"], None],
                 log: logging.Logger, saved: SavedGame | None = None,
                 decide: Callable[..., Decision] = reference_decision) -> None:
        self.id = game_id
        self.leases = leases
        self.lost = threading.Event()  # another server took the game: stop, save nothing
        self.page_gone = threading.Event()  # no page has been connected for a while: keep it and give it up
        self.sent_here = False  # its page was sent to this server for room: it is not sent on again
        self.settings = settings
        self.config = settings.game_config()
        self.store = store
        self.counters = counters
        self.log = log
        self.saved = saved  # a game kept earlier, to be resumed on the next machine
        self.finished = False
        self.began = 0.0  # when its machine was given
        self._released = released
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.session = GameSession(self.config, lambda message: publish(self.id, message), self, log, decide)

    # -- the session's owner (exhibit.game_session.SessionOwner) -----------------------------------------
    def beat(self) -> None:
        """Called as the game makes progress: stop, or leave, when told to; hold while the lease may be stale."""
        self._check()
        if not self.leases.fresh():
            self._hold()
        if self.page_gone.is_set():
            raise GameAborted("visitor", "its page has gone")

    def _check(self) -> None:
        if self._stop.is_set():
            raise Stopping()
        if self.lost.is_set():
            raise GameLost(f"game {self.id}: another server drives it now")

    def _hold(self) -> None:
        """Drive nothing until the leases are renewed ("one moment" on the page meanwhile): the server was
        stopped, or the database does not answer, and another server may have taken the game."""
        self.session.update(notice=NOTICE_ONE_MOMENT)
        while not self.leases.fresh():
            self._check()
            time.sleep(HOLD_LOOK_S)
        self._check()
        self.session.update(notice=None)

    def demo_move(self, game: Game, session: Waiting, asked: float) -> str:
        raise GameAborted("attract", "no demonstration player online")  # online games are never in attract mode

    def keep(self, saved: SavedGame) -> None:
        # the number the visitor's next question will be asked with (``GameSession.next_turn``): kept, so that
        # a game resumed after the server's restart asks it with the same number
        open_turn = self.session.next_turn
        self._store(replace(saved, heading=f"online game {self.id}", result=IN_PLAY,
                            fields=(("game", self.id), ("turn", str(open_turn)), ("language", self.session.language))))

    def replied(self, seconds: float) -> None:
        self.counters.replied(seconds)

    def paced(self, counted: float, wall: float) -> None:
        self.counters.paced(counted, wall)

    def failed(self, failure: Failure) -> None:
        self.counters.add("restarts")
        self.log.warning("game %s: the emulator failed (%s)%s", self.id, failure.reason,
                         "; restoring the game" if failure.restored else "")

    # -- the game's life ----------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Given a machine: play (or resume) on a thread of its own until the game ends, idles or stops."""
        self.began = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"game-{self.id[:8]}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.session.close()

    def _run(self) -> None:
        try:
            if not self.leases.take(self.id, self._waiting_for_lease, self._stop.is_set):
                return
            if self.saved is not None:
                turn = self.saved.value_of("turn")
                if turn.isdigit():  # resume_game and the next question each take a turn: the same number as before
                    self.session.turn = int(turn) - RESUME_TURNS
                if not self.session.resume_game(self.saved, "visitor", 1):
                    self.finished = True
                    return
                self.saved = None
            else:
                choice = self.session.choice
                settings = self.config.chosen(choice["game"], choice["strength"])
                self.session.start_game("visitor", settings.panel(settings.first == "pdp-1"))
            outcome = self.session.driver.play_game()
            self.finished = True
            self.counters.add("games_played")
            if outcome.end is not None:
                self._keep_finished(outcome.end.result())
            self.log.info("game %s over: %s, %d moves cross-checked", self.id,
                          outcome.end.result() if outcome.end else "?", outcome.moves_checked)
        except GameAborted as idle:
            self.log.info("game %s left: %s (kept, to be resumed by its ID)", self.id, idle)
        except Stopping:
            pass
        except GameLost as lost:
            self.log.warning("%s: stopped driving it", lost)
        except CrossCheckMismatch as mismatch:
            self.counters.add("mismatches")
            self.log.error("game %s: cross-check mismatch; the game is stopped\n%s", self.id, mismatch)
            try:
                self._stop_for(mismatch)
            except (GameLost, Stopping):
                pass  # (another server has the game now, or this one stops: a page coming back is shown what is kept)
        except SimhError as failure:
            self.counters.add("errors")
            self.log.error("game %s: the emulator failed beyond restoring: %s", self.id, str(failure).splitlines()[0])
        except Exception:  # noqa: BLE001 -- one game's bug must not end the server
            self.counters.add("errors")
            self.log.exception("game %s: unexpected error", self.id)
        finally:
            self.session.driver.close()  # the machine is given back at once
            if not self.lost.is_set():
                self.leases.give_up(self.id)
            self._released(self)

    def _waiting_for_lease(self) -> None:
        """Another server holds the game (its page came here): "one moment" until its lease is free."""
        self.log.info("game %s: another server holds it; waiting for its lease", self.id)
        self.session.update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)

    def _stop_for(self, mismatch: CrossCheckMismatch) -> None:
        """The game stopped by a mismatch: its page told (``GameSession.stopped``), and the game kept so, its
        result ``STOPPED`` and both choices with it, so that a page coming back by its ID is shown the same and
        the PDP-1 is not asked the same question again (nothing more is played on this ID: ``finished``)."""
        self.finished = True
        checker = self.session.driver.checker
        if checker is not None:  # (kept before the page is told, as every move is)
            chose = zip(CHOSE, (mismatch.pdp1, mismatch.reference), strict=True)
            self._store(SavedGame.of(checker.title, list(checker.game.record), result=STOPPED,
                                     heading=f"online game {self.id}",
                                     fields=(("game", self.id), ("language", self.session.language),
                                             *((key, str(value)) for key, value in chose if value is not None)),
                                     transcript=self.session.snapshot()["paper"]["text"]))
        self.session.stopped(mismatch_view(mismatch.pdp1, mismatch.reference))

    def _keep_finished(self, result: str) -> None:
        checker = self.session.driver.checker
        if checker is None:
            return
        record = SavedGame.of(checker.title, list(checker.game.record), result=result,
                              heading=f"online game {self.id}",
                              fields=(("game", self.id), ("language", self.session.language)),
                              transcript=self.session.snapshot()["paper"]["text"])
        self._store(record, finished=True)

    def _store(self, record: SavedGame, finished: bool = False) -> None:
        """Saved under this server's lease before the page sees the move (its acknowledgement); a database
        that does not answer is tried again, doubling the wait, the game held with "one moment" meanwhile:
        a move is never lost, and never played twice (``GameLost`` once another server holds the game)."""
        delay, held = SAVE_RETRY_S[0], False
        while True:
            try:
                self.store.save(self.id, record.text(), finished, owner=self.leases.name)
                break
            except LeaseLost:
                self.lost.set()
                raise GameLost(f"game {self.id}: another server drives it now") from None
            except StoreError as failure:
                if not held:
                    self.log.error("game %s: %s; holding the game until it can be saved", self.id, failure)
                    self.session.update(notice=NOTICE_ONE_MOMENT)
                    held = True
                if self._stop.wait(delay):
                    raise Stopping() from None
                delay = min(2 * delay, SAVE_RETRY_S[1])
        if held:
            self.log.info("game %s: saved again", self.id)
            self.session.update(notice=None)


def kept_mismatch(saved: SavedGame) -> dict | None:
    """The page's ``mismatch`` of a game kept as stopped by one (``OnlineGame._stop_for``), or None for any other."""
    if saved.result != STOPPED:
        return None
    chose = [saved.value_of(key) or None for key in CHOSE]
    pdp1, reference = (int(value) if value and value.isdigit() else value for value in chose)
    return mismatch_view(pdp1, reference)


def saved_game(store: GameStore, game_id: str) -> tuple[SavedGame, bool] | None:
    """A kept game (its record and whether it finished), or None when the store has no such game."""
    kept = store.load(game_id)
    if kept is None:
        return None
    try:
        return read_game_record(kept[0]), kept[1]
    except RecordError:
        return None
