"""The browser edition's games: the exhibit's ``GameSession`` (the one game driver, the page as its front end)
in the visitor's own browser, on SIMH's pdp1 compiled to WebAssembly, every move cross-checked there.

Why the exhibit's session and not a loop of its own: a game in the browser is an online game without the
server -- no store, no lease, no waiting line.  The page and its protocol are the online exhibit's
(``exhibit.messages``); its messages come through the Worker instead of a WebSocket.  This module is the
session's owner, as ``online.game`` is on a server: it answers the messages a server's app answers before a
game (``choose``, ``play``, ``language``, ``touch``), starts each game on the machine, and at each game's end
gives the page its record in the one record format (``driver.game_records``) for the visitor to keep and, on a
site that keeps its visitors' records (``records``: its ``settings.toml``'s), for the page to send it there
(``POST /records``, checked again there).  A cross-check mismatch stops the game as a server stops it: the
session's ``mismatch`` phase on the page, the report in the browser's console, and the stopped game's record
offered all the same (the museum's evidence, should the visitor send it), but not sent to the site: it keeps
finished games, and the reference would refuse this one.
"""

from __future__ import annotations

import logging
from typing import Callable

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.driver import Failure
from ..driver.game_records import SavedGame
from ..exhibit.game_session import CHOSE, STOPPED, GameSession
from ..exhibit.messages import BadMessage, parse_message
from ..exhibit.session_owner import GameAborted, Waiting
from ..exhibit.settings import GameSettings
from ..exhibit.view import mismatch_view
from ..machine.kalah_program import Transport
from ..reference.game import Game
from .inbox import PageInbox

HEADING = "game record (played in a visitor's browser: SIMH 3.8.1's pdp1 as WebAssembly)"
IDLE_LOOK_S = 1.0  # how long one wait for the page lasts between games (the idle visitor is looked at meanwhile)
# how long the session waits for its page before it looks up, while the visitor thinks: each wake is the visitor's
# own machine's work (a Worker's wait resumed, Python run), and in a browser nothing else needs a look sooner (no
# server stopping; the idle countdown counts in seconds)
LOOK_EVERY_S = 1.0


class PageGame:
    """The session's owner in a Worker: ``post`` sends the page a message, ``receive`` waits for the page's."""

    def __init__(self, config: GameSettings, post: Callable[[dict], None], receive: Callable[[float], str | None],
                 log: logging.Logger, transport: Transport, records: str = "") -> None:
        self.config = config
        self.records = records  # where the page sends each record (a path on its own site), "" when nowhere
        self.post = post
        self.log = log
        self.playing = False  # a game runs on the machine
        self.asked: str | None = None  # between games: "play" or "new_game", once the page asks
        self.over = False  # the last game ended (a new one may be asked for)
        self.session = GameSession(config, post, self, log, transport=transport)
        self.inbox = PageInbox(receive, self.deliver)
        self.session.inbox = self.inbox
        self.session.look_every = LOOK_EVERY_S

    # -- the page's messages (what a server's app does with them) --------------------------------------------------
    def deliver(self, raw: str) -> None:
        """One message from the page, checked as a server checks it; refused with one line when it changes nothing."""
        try:
            message = parse_message(raw)
        except BadMessage as bad:
            self.post({"type": "rejected", "reason": str(bad)})
            return
        kind, session = message.kind, self.session
        if kind == "language" or self.playing:
            reason = session.submit(message, self.post)
        elif kind == "choose":  # (before the first game, or after one: for the next, as "New game" keeps them)
            reason = session.not_offered(message.choice)
            if reason is None and message.choice is not None:
                session.set_choice({**session.choice, message.choice[0]: message.choice[1]})
        elif kind == "play" and not self.over or kind == "new_game" and self.over:
            self.asked, reason = kind, None
        elif kind == "touch":
            reason = None
        else:
            reason = "the game is over" if self.over else "the game starts when you touch play"
        if reason is not None:
            self.post({"type": "rejected", "reason": reason})

    def hello(self) -> None:
        """Everything the page draws, as a server's ``hello`` gives it on every connection."""
        self.post({**self.session.snapshot(), "control": True})

    # -- the games --------------------------------------------------------------------------------------------------
    def run(self, games: int | None = None) -> None:
        """Games, each when the page asks for it, until ``games`` have been played (for ever when None)."""
        self.hello()
        played = 0
        while games is None or played < games:
            self._wait_for_the_page()
            self._play_one()
            played += 1

    def _wait_for_the_page(self) -> None:
        self.asked = None
        while self.asked is None:
            self.inbox.hear(IDLE_LOOK_S)  # (between games nothing is queued: ``deliver`` answers)
        if self.asked == "new_game":
            self.post({"type": "ok", "what": "new_game"})

    def _play_one(self) -> None:
        session = self.session
        settings = self.config.chosen(session.choice["game"], session.choice["strength"])
        self.over, self.playing = False, True
        try:
            session.start_game("visitor", settings.panel(settings.first == "pdp-1"))
            outcome = session.driver.play_game()
            if outcome.end is not None:
                self._offer_record(outcome.end.result())
        except GameAborted as idle:
            self.log.info("game left: %s", idle)
        except CrossCheckMismatch as mismatch:  # the report to the browser's console; the page says what happened
            self.log.error("cross-check mismatch; the game is stopped\n%s", mismatch)
            self._offer_record(STOPPED, tuple(zip(CHOSE, (mismatch.pdp1, mismatch.reference), strict=True)))
            session.stopped(mismatch_view(mismatch.pdp1, mismatch.reference))
        finally:
            self.playing, self.over = False, True
            session.driver.close()

    def _offer_record(self, result: str, chose: tuple[tuple[str, int | str | None], ...] = ()) -> None:
        """The game's record for the visitor to keep: at its end, or as a mismatch stopped it (``chose``: the
        choices that differed, as the online exhibit keeps them)."""
        checker = self.session.driver.checker
        if checker is None:
            return
        record = SavedGame.of(checker.title, list(checker.game.record), result=result, heading=HEADING,
                              checked=checker.moves_checked, restarts=0,
                              fields=(("language", self.session.language),
                                      *((key, str(value)) for key, value in chose if value is not None)),
                              transcript=self.session.snapshot()["paper"]["text"])
        message = {"type": "record", "game": self.session.game_no, "text": record.text()}
        self.post({**message, "send_to": self.records} if self.records and result != STOPPED else message)

    # -- the session's owner (exhibit.session_owner.SessionOwner) ---------------------------------------------------
    def beat(self) -> None:
        """Nothing stops a Worker from inside: the page closes it."""

    def demo_move(self, game: Game, session: Waiting, asked: float) -> str:
        raise GameAborted("attract", "no demonstration player in the browser")

    def keep(self, saved: SavedGame) -> None:
        """A game in play is not kept across a reload of the page: the page holds no store."""

    def failed(self, failure: Failure) -> None:
        restoring = "; restoring the game" if failure.restored else ""
        self.log.warning("the emulator failed (%s)%s", failure.reason, restoring)

    def replied(self, seconds: float) -> None:
        self.post({"type": "replied", "seconds": round(seconds, 3)})

    def paced(self, counted: float, wall: float) -> None:
        self.post({"type": "paced", "counted": round(counted, 3), "wall": round(wall, 3)})

