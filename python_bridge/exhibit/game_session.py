"""One game on one PDP-1, shown to a page: what every front end of the exhibit plays a game with.

Why apart from its owners: the kiosk's runner is the gallery (attract mode between visitors, the
counters, a game saved across server restarts, health), the online exhibit's game is a visitor's game
with an ID kept in a database; a game session is what every game needs whoever owns it -- the one game
driver with this page as its front end, the state the page draws (board, phase, paper, console
lights), the turn rule that makes a double tap one move, the page's messages answered while the PDP-1
types or thinks, the visitor's idle countdown, and a waiting PDP-1 that costs nothing (suspended while
the visitor thinks).

It runs on its owner's thread (the emulator is driven through blocking calls from one place
only); ``submit`` and ``snapshot`` may be called from any thread.  What the owner decides is asked
through ``SessionOwner``: its heartbeat, the demonstration player's move, where a game in progress
is kept, and what a failed emulator means to it.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from typing import Callable

from ..driver.crosscheck import CrossChecker
from ..driver.driver import Failure, FrontEnd, GameDriver, Thought
from ..driver.game_records import SavedGame
from ..driver.pacing import Pacer
from ..driver.search_pool import Decision, reference_decision
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import Transport
from ..machine.simh import FULL_SPEED, IDLE_SPEED, QUIET_SPEED, Simh
from ..machine.transcript import Board, Complaint, Event, GameOver, Move, Swap, Title
from ..reference.game import Game
from .lights import ConsoleLights, sample
from .messages import ClientMessage
from .paper import Paper
from .session_owner import Command, GameAborted, SessionOwner
from .settings import GameSettings
from .view import board_view, last_move_view, result_view

LIGHTS_EVERY = 0.1  # seconds of wall time between two lights messages while the PDP-1 thinks
LOOK_EVERY = 0.25  # seconds a waiting session waits for its page before it looks up (its owner's stop, the idle)
ALIVE_EVERY = 1.0  # seconds between two looks at a suspended pdp1's process (one killed meanwhile is replaced)
NOTICE_ONE_MOMENT = "one_moment"  # the page words it in its language
STALE_TAP = "that tap was for an earlier turn"
IN_PLAY = "not finished: the game is in play"  # the result line of a game kept while it is played
STOPPED = "not finished: stopped, the PDP-1 chose otherwise than the reference"  # a game a mismatch ended
CHOSE = ("pdp-1 chose", "reference chose")  # and its record's lines naming the two choices that differed
ENDED = ("game_over", "mismatch")  # the phases after a game, played to its end or stopped: a new game may follow


class GameSession(FrontEnd):
    """One game at a time on one emulator, drawn by the page; the driver's front end and its visitor.

    A PDP-1 that waits for its visitor's move costs nothing: once the question is on the paper the
    machine is looked at once (stopped, its PC found in the keyboard loop, its lamps read, continued) and
    then suspended (SIGSTOP); its process is looked at every ``ALIVE_EVERY`` (one killed meanwhile is
    replaced and the game restored at once), and it is woken (SIGCONT) before a key is typed, a new game
    is started or the game is left."""

    _looked_at: float | None = None  # the question whose machine was looked at (its ``asked`` time)
    answered_at: float | None = None  # when the visitor's last move was taken
    _counted_at = 0.0  # the 1960 seconds counted (thinking and typing) when it was

    def __init__(self, config: GameSettings, publish: Callable[[dict], None], owner: SessionOwner,
                 log: logging.Logger, decide: Callable[..., Decision] = reference_decision,
                 transport: Transport = Simh) -> None:
        self.config = config
        self.publish = publish
        self.owner = owner
        self.log = log
        self.turn = 0  # the question now open (see messages.py)
        self.look_every = LOOK_EVERY
        # (game, moves played) of the question asked and not yet answered: a PDP-1 replaced while it is open
        # asks it again, and it keeps its turn (the page's tap for it is played, not refused as stale)
        self._open_question: tuple[int, int] | None = None
        self.mode = "attract"
        self.game_no = 0
        self.inbox: queue.Queue[Command] = queue.Queue(maxsize=32)
        self._new_game_asked: Command | None = None  # a new game asked for while the last line was typed
        self._lock = threading.Lock()  # guards the view, paper and lights the server reads
        self._view: dict = {"type": "state", "mode": "attract", "phase": "starting", "game": 0,
                            "board": board_view(None), "legal": [], "swap": False, "last": None,
                            "result": None, "mismatch": None, "countdown": None, "notice": None, "speed": config.speed,
                            "choices": self.choices_view(config.default_choice()),
                            "page": {"language": config.language, "languages": list(config.languages),
                                     "sound": config.sound, "contact": config.accessibility_contact},
                            "turn": 0}
        self.choice = config.default_choice()  # the visitor's game size and strength for the next visitor game
        self.language = config.language  # the page's language, as it last said
        self._paper = Paper()
        self._typewriter_free = 0.0  # when the paced typewriter may type its next character
        self.typed = 0  # characters typed at the typewriter's pace, so far
        self._lights: ConsoleLights | None = None
        self._lights_shown_at = 0.0
        self.last_touch = time.monotonic()
        self._faults: list[Callable[[Simh], None]] = []
        self._shown_at = 0.0  # when the thinking's lights were last sent
        # the driver stops the PDP-1 where its thinking starts and ends: never in the middle of typing
        # (a machine stopped while a character is being typed loses that character).  Paced, the thinking
        # is stepped and counted on an emulator throttled loosely.  Fast, it runs free and flat out
        # (counting every cycle made replies slow: no 1960 seconds are shown then).  Either way the
        # emulator is slowed further while the PDP-1 waits for a touch: its keyboard loop never spins a
        # core all day.
        paced = bool(config.thinking_pace)
        self.driver = GameDriver(config.panel(False), self, self,
                                 Pacer(config.thinking_pace or None, counted=paced, sleep=self.pause),
                                 silence_timeout=config.watchdog_seconds, timeout=config.watchdog_seconds,
                                 machine_config=QUIET_SPEED if paced else FULL_SPEED,
                                 waiting_config=IDLE_SPEED, decide=decide, transport=transport, tape=config.tape)

    def close(self) -> None:
        self.driver.close()  # (a suspended machine is woken to be closed)

    # -- what the server asks ----------------------------------------------------------------
    def submit(self, message: ClientMessage, reply: Callable[[dict], None]) -> str | None:
        """Queue a message from the page; return why it is refused, or None when accepted."""
        with self._lock:
            view = dict(self._view)
        kind = message.kind
        if kind == "language":  # at any time: the page's own choice, kept with the game
            self.language = message.language or self.language
            return None
        if kind in ("move", "swap") and message.turn != view["turn"]:
            return STALE_TAP
        if kind == "move":
            if view["mode"] != "visitor" or view["phase"] != "your_turn":
                return "not your turn"
            if message.pit not in view["legal"]:
                return f"pit {message.pit} cannot be played now"
        elif kind == "swap" and not (view["phase"] == "your_turn" and view["swap"]):
            return "no swap on offer now"
        elif kind == "new_game" and not (view["mode"] == "visitor" and view["phase"] in ENDED):
            return "a game is in progress"
        elif kind == "choose":
            if not (view["mode"] == "attract" or view["phase"] in ENDED):
                return "choices are made before a game"
            if (refused := self.not_offered(message.choice)) is not None:
                return refused
        try:
            self.inbox.put_nowait(Command(message, reply))
        except queue.Full:
            return "busy: try again"
        return None

    def view(self) -> dict:
        """The state the page draws now (a copy)."""
        with self._lock:
            return dict(self._view)

    def snapshot(self) -> dict:
        """Everything a page needs to draw the kiosk as it is now (sent on every (re)connection)."""
        with self._lock:
            return {"type": "hello", "state": dict(self._view),
                    "paper": {"game": self.game_no, "base": self._paper.base, "text": self._paper.text},
                    "lights": self._lights.message() if self._lights else None}

    def inject_at_next_think(self, fault: Callable[[Simh], None]) -> None:
        """Run ``fault(sim)`` on this thread when the PDP-1 next starts thinking (machine stopped; only at a counted
        pace, ``think_rate``, where the PDP-1 stops there): for tests that damage the real machine (a changed board
        word makes a cross-check mismatch) without racing this thread for the emulator."""
        self._faults.append(fault)

    # -- the view ----------------------------------------------------------------------------
    def update(self, **changes: object) -> None:
        with self._lock:
            self._view.update(changes, mode=self.mode, game=self.game_no, turn=self.turn)
            message = dict(self._view)
        self.publish(message)

    def not_offered(self, choice: tuple[str, str] | None) -> str | None:
        """Why a visitor's choice (what, which) is refused here, or None: one the museum offers."""
        what, which = choice or ("", "")
        if which not in (self.config.games if what == "game" else self.config.strengths):
            return f"{which} is not offered here"
        return None

    def set_choice(self, choice: dict) -> None:
        """The game size and strength the next visitor game is played with, shown on the page."""
        self.choice = dict(choice)
        self.update(choices=self.choices_view(self.choice))

    def choices_view(self, chosen: dict) -> dict:
        """The choices offered, and the ones the next visitor game is played with."""
        return {"games": list(self.config.games), "strengths": list(self.config.strengths), **chosen}

    # -- the page's touches -------------------------------------------------------------------
    def take(self, timeout: float) -> Command | None:
        """The next command that needs the caller's attention; touches and "play" are handled here."""
        self.owner.beat()
        try:
            command = self.inbox.get(timeout=min(timeout, self.look_every)) if timeout > 0 else self.inbox.get_nowait()
        except queue.Empty:
            return None
        self.last_touch = time.monotonic()
        with self._lock:
            counting = self._view["countdown"] is not None
        if counting:
            self.update(countdown=None)
        kind = command.message.kind
        if kind == "choose" and command.message.choice is not None:
            what, which = command.message.choice
            self.set_choice({**self.choice, what: which})
            command.reply({"type": "ok", "what": "choose"})
            return None
        if kind == "play" and self.mode == "attract":
            command.reply({"type": "ok", "what": "play"})
            raise GameAborted("visitor", "a visitor touched the screen")
        if kind in ("touch", "play"):
            return None
        return command

    def next_command(self, timeout: float) -> Command | None:
        """A new game asked for while the last line was typed (kept by ``pause``), else ``take``'s."""
        command, self._new_game_asked = self._new_game_asked or self.take(timeout), None
        return command

    @staticmethod
    def reject(command: Command, reason: str) -> None:
        command.reply({"type": "rejected", "reason": reason})

    def pause(self, seconds: float) -> None:
        """Wait, answering the page meanwhile (a touch in attract mode ends the wait and the game)."""
        end = time.monotonic() + seconds
        while True:
            command = self.take(max(0.0, end - time.monotonic()))  # the page is heard even with no pause
            if command is not None and command.message.kind == "new_game":
                # accepted at the game's end while its last line is still being typed: kept for then
                self._new_game_asked = command
            elif command is not None:
                self.reject(command, "not your turn")
            if time.monotonic() >= end:
                return

    def idle_check(self) -> None:
        idle = time.monotonic() - self.last_touch
        if idle < self.config.idle_seconds:
            with self._lock:
                shown = self._view["countdown"]
            if shown is not None:  # the idle time was restarted (a restore, the visitor's turn)
                self.update(countdown=None)
            return
        left = self.config.idle_seconds + self.config.countdown_seconds - idle
        if left <= 0:
            raise GameAborted("attract", "nobody touched the screen: back to attract mode")
        with self._lock:
            shown = self._view["countdown"]
        if shown != math.ceil(left):
            self.update(countdown=math.ceil(left))

    def start_game(self, mode: str, panel: PanelSettings) -> None:
        """A new game in ``mode`` (``visitor`` or ``attract``) with ``panel``: the program started again at
        100, on a fresh emulator if need be; ``driver.play_game()`` then plays it."""
        self.wake()
        self.mode = mode
        self.game_no += 1
        self.new_page()
        self.driver.new_game(panel)

    def resume_game(self, saved: SavedGame, mode: str, game_no: int) -> bool:
        """A saved game put back on a fresh emulator, its paper on the page ("one moment" meanwhile);
        False when it had ended (nothing to play on).  ``driver.play_game()`` then plays it on."""
        self.wake()
        self.mode = mode
        self.game_no = game_no
        self.new_page(saved.transcript)
        self.update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        if not self.driver.resume(saved.title, saved.moves):
            return False
        self.update(board=board_view(self.driver.checker))
        return True

    def new_page(self, paper: str = "") -> None:
        self.last_touch = time.monotonic()
        self.answered_at = None  # (a reply is timed within one game)
        self.turn += 1  # a new game: every tap on the old board is stale
        self._open_question = None
        with self._lock:
            self._paper = Paper(paper)
        self.update(phase="starting", board=board_view(None), legal=[], swap=False, last=None, result=None,
                     mismatch=None, countdown=None, notice=None)
        self.publish({"type": "paper", "game": self.game_no, "at": 0, "text": paper, "reset": True})

    # -- what the driver hands over (the session is its front end) -----------------------------------------------------
    def failed(self, failure: Failure) -> None:
        """The emulator failed: while the game is restored the page says "one moment"; the owner counts it."""
        if failure.restored:
            self.update(phase="one_moment", notice=NOTICE_ONE_MOMENT, legal=[], swap=False)
        self.owner.failed(failure)

    def stopped(self, mismatch: dict) -> None:
        """The PDP-1 did what the reference did not (``mismatch``: ``view.mismatch_view``'s): the game stops where it
        stands, and the page says so until a new game is asked for, as after a game's end."""
        self.last_touch = time.monotonic()  # (the idle time counts from here: the visitor reads what happened)
        self.update(phase="mismatch", mismatch=mismatch, legal=[], swap=False, countdown=None, notice=None)

    def restored(self) -> None:
        self.last_touch = time.monotonic()  # the wait was the machine's, not the visitor's
        self.update(notice=None)

    @property
    def paces_echo(self) -> bool:
        return bool(self.config.paper_pace)

    def echo(self, text: str) -> None:
        """The typewriter: onto the paper (paced at 10 characters a second when authentic)."""
        self.owner.beat()
        pace = self.config.paper_pace
        if not pace:
            self._type_on_paper(text)
            return
        for char in text:
            if char == "\r":
                self._type_on_paper(char)
                continue
            # each character a character's time after the one before, kept by the clock and not by the
            # sleeps, so that a busy host's late wakings do not add up over a reply
            start = max(time.monotonic(), self._typewriter_free)
            self.pause(start - time.monotonic())
            self._type_on_paper(char)
            self._typewriter_free = start + 1 / pace
            self.typed += 1

    def _type_on_paper(self, text: str) -> None:
        with self._lock:
            at, paper_text = self._paper.append(text)
        if paper_text:
            self.publish({"type": "paper", "game": self.game_no, "at": at, "text": paper_text})

    def event(self, event: Event, checker: CrossChecker | None) -> None:
        self.owner.beat()
        if checker is None:
            return
        # a move is kept before the page is shown it: what a page has seen played, a restart still has
        if isinstance(event, Title):
            self._save(checker)
            self.update(board=board_view(checker), phase="typing")
        elif isinstance(event, (Move, Swap)):
            self._save(checker)
            self.update(board=board_view(checker), last=last_move_view(event, checker),
                         phase="typing", legal=[], swap=False)
        elif isinstance(event, Board):
            self.update(board=board_view(checker))
        elif isinstance(event, GameOver):
            self.update(phase="game_over", result=result_view(event), legal=[], swap=False,
                         board=board_view(checker))
        elif isinstance(event, Complaint):
            self.log.warning("game %d: the PDP-1 complained %r", self.game_no, event.text)

    def _save(self, checker: CrossChecker) -> None:
        """The game so far, with the paper up to now, to its owner (who keeps it across a restart)."""
        with self._lock:
            paper = self._paper.text
        self.owner.keep(SavedGame.of(checker.title, list(checker.game.record), result=IN_PLAY, transcript=paper))

    def choose(self, game: Game) -> str:
        """The visitor's (or the demo player's) move, when the PDP-1 asks for it; the machine asleep meanwhile.

        A visitor's reply is timed here, from the move's arrival to this question (the PDP-1's thinking and
        typing, as the server sees them) and, when paced, set beside its 1960 time: how closely the host
        keeps the 1960 pace (both told to the owner)."""
        if self.driver.checker is not None:
            self._save(self.driver.checker)  # the paper is complete up to the question: the best moment
        asked = time.monotonic()
        self._timed(asked)
        question = (self.game_no, len(game.record))
        if question != self._open_question:  # (the same question, asked again by a restored PDP-1: its turn)
            self.turn += 1  # a new question: a tap for an earlier one is stale from now on
        self._open_question = question
        try:
            if self.mode == "attract":
                self.update(phase="demo_turn")
                keys = self.owner.demo_move(game, self, asked)
            else:
                keys = self._visitor_move(game, asked)
                self.answered_at, self._counted_at = time.monotonic(), self.counted_1960_s()
            self._open_question = None
            return keys
        finally:
            self.wake()

    @property
    def next_turn(self) -> int:
        """The turn the next question will be asked with: this one's while it is open (a PDP-1 replaced
        meanwhile asks it again), else the next (what a game kept now resumes at)."""
        return self.turn if self._open_question is not None else self.turn + 1

    def counted_1960_s(self) -> float:
        """The 1960 seconds of this game's paced replies so far: the thinking's counted cycles (at 200,000 a
        second) and the characters the typewriter typed (at its 10 a second)."""
        pace = self.config.paper_pace
        return self.driver.pacer.paced_seconds + (self.typed / pace if pace else 0.0)

    def _timed(self, asked: float) -> None:
        """The reply to the visitor's last move, if one is open, told to the owner."""
        if self.answered_at is None:
            return
        wall = asked - self.answered_at
        self.answered_at = None
        self.owner.replied(wall)
        if self.driver.pacer.paced:
            self.owner.paced(self.counted_1960_s() - self._counted_at, wall)

    def _visitor_move(self, game: Game, asked: float) -> str:
        legal = game.position.legal_pits()
        self.last_touch = time.monotonic()  # idle means the visitor's own time, not the PDP-1's
        turn = self.turn
        self.update(phase="your_turn", legal=legal, swap=game.swap_offered)
        while True:
            self.look_at_keyboard(asked)
            command = self.take(self.look_every)
            if command is not None:
                kind, pit = command.message.kind, command.message.pit
                if kind in ("move", "swap") and command.message.turn != turn:
                    self.reject(command, STALE_TAP)
                elif kind == "move" and pit in legal:
                    self.update(phase="typing", legal=[], swap=False)
                    return str(pit)
                elif kind == "swap" and game.swap_offered:
                    self.update(phase="typing", legal=[], swap=False)
                    return "s"
                else:
                    self.reject(command, f"pit {pit} cannot be played now" if kind == "move" else "not now")
            self.idle_check()

    def look_at_keyboard(self, asked: float) -> None:
        """While the PDP-1 waits for a key (asked at ``asked``): looked at once by the driver as it asks (stopped,
        its PC checked, its lamps read for the page, slowed, continued), then suspended once SIMH has surely gone
        on; after the look, asleep or not yet, its process is looked at every ``ALIVE_EVERY``.

        A ``pdp1`` that does not answer the look, answers from elsewhere or has
        died since it (asleep, or killed before it could be put to sleep) is
        replaced at once (during a game the game is restored).
        """
        machine = self.driver.machine
        now = time.monotonic()
        if machine is None or not self.driver.asked:
            return
        if self._looked_at != asked:  # once a question
            self._looked_at = asked
            self._lights_shown_at = now
            self.driver.look_at_keyboard(lambda sim: self._show_lights(sample(sim, 0, phase="waiting")))
        elif now - self._lights_shown_at >= ALIVE_EVERY:
            self._lights_shown_at = now
            if not machine.sim.alive:  # killed since the look: the driver's look finds it gone, and it is replaced
                machine.sim.wake()
                self.driver.look_at_keyboard()
        machine = self.driver.machine  # (a machine that failed the look is replaced, the game restored)
        # not suspended until SIMH has surely gone on after the look: a pdp1 stopped before it has, flushes
        # the keyboard as it goes on after SIGCONT, and the visitor's key typed meanwhile would be lost
        if machine is not None and machine.sim.running and self.driver.asked and self.driver.settle_left == 0:
            machine.sim.suspend()
        self.owner.beat()

    def wake(self) -> None:
        """The machine woken from its wait (SIGCONT), before anything is asked of it."""
        machine = self.driver.machine
        if machine is not None:
            machine.sim.wake()

    @property
    def suspended(self) -> bool:
        """Whether the PDP-1 sleeps while it waits for its visitor (its process stopped on purpose)."""
        machine = self.driver.machine
        return machine is not None and machine.sim.suspended

    def thinking(self, thought: Thought, sim: Simh) -> None:
        """The PDP-1 starts thinking (stopped at ``think``): the faults tests asked for, then the view."""
        while self._faults:
            self._faults.pop(0)(sim)
        self._shown_at = 0.0
        self.update(phase="thinking")

    def slice(self, sim: Simh, cycles: int) -> None:
        """Between two slices of the thinking: the lights every ``LIGHTS_EVERY``, the page answered."""
        now = time.monotonic()
        if now - self._shown_at >= LIGHTS_EVERY:
            self._shown_at = now
            self._show_lights(sample(sim, cycles, phase="thinking"))
        self._take_now()

    def thought(self, thought: Thought) -> None:
        self.log.info("game %d: the PDP-1 thought %d instructions, %d memory cycles, %.2f s of 1960 time",
                      self.game_no, thought.instructions, thought.cycles, thought.seconds)
        self._show_lights(sample(self.driver.sim, thought.cycles, phase="thinking"), done=True)
        self.update(phase="typing")

    def _show_lights(self, lights: ConsoleLights, done: bool = False) -> None:
        with self._lock:
            self._lights = lights
        self.publish({**lights.message(), "done": done})

    def _take_now(self) -> None:
        command = self.take(0)
        if command is not None:
            self.reject(command, "not your turn")

