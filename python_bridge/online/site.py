"""The online exhibit's site in one server process: the games it holds (waiting, on a machine, kept) and the
pages connected to them, the waiting line, the leases, the metrics, and what the games' threads tell it.

Why apart from the web app (``app``): the handlers answer pages; the site is the state they share, and what
runs beside them (pages that have gone, one waiting line for the whole site, the workers that search).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import time

from ..driver.game_records import SavedGame
from ..driver.restore import checker_from_record
from ..driver.search_pool import SearchPool, reference_decision
from ..exhibit.connection import Client
from ..exhibit.game_session import NOTICE_ONE_MOMENT
from ..exhibit.health import disk_problem
from ..exhibit.metrics import ExhibitMetrics, Figures
from ..exhibit.procinfo import rss_kb
from ..exhibit.view import board_view
from .database import open_store
from .game import Counters, OnlineGame, kept_mismatch, new_game_id, saved_game, well_formed
from .leases import Leases, server_name
from .lobby import Lobby, Place
from .settings import OnlineSettings
from .store import StoreError

ROOM_FRESH_S = 3.0  # another server's room is believed this long after it said it
PAGE_GONE_S = 15.0  # a running game with no page this long gives its machine (and its lease) back


class Site:
    """The games this process holds and the pages connected to them."""

    def __init__(self, settings: OnlineSettings, loop: asyncio.AbstractEventLoop, log: logging.Logger) -> None:
        self.settings = settings
        self.loop = loop
        self.log = log
        self.name = server_name()  # unique to this process: its leases are held in this name
        self.store = open_store(settings.database, settings.state_dir)
        self.leases = Leases(self.store, self.name, settings.lease_seconds, log)
        self.alone_since: dict[str, float] = {}  # games on a machine with no page, since when
        self.elsewhere: str | None = None  # the label of another server with room, as last looked up
        self.counters = Counters()
        # the cross-checks' searches in worker processes (every core of the host), or in this one
        self.searches = SearchPool(settings.workers) if settings.workers else None
        self.metrics = ExhibitMetrics(self.figures)
        self.counters.observers.append(lambda seconds: self.metrics.replied(seconds, settings.pace))
        self.games: dict[str, OnlineGame] = {}  # waiting or on a machine (kept ones are in the store)
        self.clients: dict[str, set[Client]] = collections.defaultdict(set)
        self.per_ip: collections.Counter[str] = collections.Counter()
        self.lobby = Lobby(settings.max_games, settings.max_waiting, self._moved, self.metrics.waited)

    # -- from the games' threads ------------------------------------------------------------------
    def publish(self, game_id: str, message: dict) -> None:
        text = json.dumps(message)
        self.loop.call_soon_threadsafe(self._send_to, game_id, text)

    def _send_to(self, game_id: str, text: str) -> None:
        for client in list(self.clients.get(game_id, ())):
            client.send(text)

    def released(self, game: OnlineGame) -> None:
        """A game gave its machine back (ended, idle, failed, lost): forgotten here, kept in the store.  The
        pages of a game another server drives now are closed: they come back through the load balancer."""
        def forget() -> None:
            if self.games.get(game.id) is game:
                del self.games[game.id]
            self.alone_since.pop(game.id, None)
            if game.lost.is_set():
                for client in list(self.clients.get(game.id, ())):
                    self.loop.create_task(client.ws.close())

        self.loop.call_soon_threadsafe(forget)
        self.lobby.released(game.id)

    def lost(self, game_id: str) -> None:
        """From the leases' thread: another server holds this game now."""
        game = self.games.get(game_id)
        if game is not None:
            game.lost.set()

    async def look_after(self) -> None:
        """Every second: the games whose page has gone; this server's room told to the others, and theirs
        read; the head of this server's line sent to another server that has room."""
        while True:
            await asyncio.sleep(1.0)
            self._watch_pages()
            await self.loop.run_in_executor(None, self.share_room)
            if self.elsewhere is not None:
                first = self.lobby.first_waiting()
                if first is not None:
                    self.send_elsewhere(first, self.elsewhere)  # type: ignore[arg-type]

    def _watch_pages(self) -> None:
        """A game on a machine whose page has been gone ``PAGE_GONE_S`` is kept and its machine given back
        (its visitor resumes it by ID, here or on another server)."""
        now = time.monotonic()
        for game_id, game in list(self.games.items()):
            if not game.running or self.clients.get(game_id):
                self.alone_since.pop(game_id, None)
            elif now - self.alone_since.setdefault(game_id, now) >= PAGE_GONE_S:
                game.page_gone.set()

    def share_room(self) -> None:
        """One waiting line for the whole site: each server says how much room it has (and so that it uses the
        database: a restore is refused meanwhile), and, past one host, finds another's."""
        running, waiting = self.lobby.counts()
        try:
            self.store.report(self.name, self.settings.label, self.settings.max_games - running, waiting)
        except StoreError:
            self.elsewhere = None
            return
        self.elsewhere = self.room_elsewhere() if self.settings.label and running >= self.settings.max_games else None

    def room_elsewhere(self) -> str | None:
        """Another server with room now, asked of the database (None when it cannot say)."""
        try:
            return self.store.room_elsewhere(self.name, ROOM_FRESH_S)
        except StoreError:
            return None

    def send_elsewhere(self, game: OnlineGame, label: str) -> None:
        """A game not begun, sent with its pages to the server ``label``: it is kept by ID (not yet played),
        its pages told where to go and closed; they come back through the load balancer to that server."""
        try:
            self.store.begin(game.id)
        except StoreError:
            return
        self.games.pop(game.id, None)
        for client in list(self.clients.get(game.id, ())):
            client.last_word({"type": "elsewhere", "server": label})

    def _moved(self, game: OnlineGame, place: Place) -> None:  # type: ignore[override]
        self.publish(game.id, place.message())

    # -- games --------------------------------------------------------------------------------------
    def _game(self, game_id: str, saved: SavedGame | None = None) -> OnlineGame:
        return OnlineGame(game_id, self.settings, self.store, self.leases, self.counters, self.publish,
                          self.released, self.log, saved=saved,
                          decide=self.searches.decide if self.searches else reference_decision)

    def new_game(self, choice: dict | None = None) -> OnlineGame:
        game = self._game(new_game_id())
        if choice:
            game.session.set_choice(choice)
        self.games[game.id] = game
        return game

    def find(self, game_id: str) -> OnlineGame | None:
        """The game with this ID, from memory or the store (a kept game comes back to be resumed)."""
        if not well_formed(game_id):
            return None
        if game_id in self.games:
            return self.games[game_id]
        kept = saved_game(self.store, game_id)
        if kept is None:
            if not self.store.exists(game_id):
                return None
            game = self._game(game_id)  # made elsewhere, not yet played: begun here
            self.games[game_id] = game
            return game
        saved, finished = kept
        mismatch = kept_mismatch(saved)  # a game a mismatch stopped: shown so, never played on
        game = self._game(game_id, saved=None if finished or mismatch else saved)
        game.finished = finished or mismatch is not None
        _show_kept(game, saved, finished, mismatch)
        if not game.finished:
            self.games[game_id] = game
        return game

    def problem_for_new_games(self) -> str | None:
        """Why no new game can be kept now (the database, a full disk), or None."""
        return self.store.problem() or disk_problem(self.settings.state_dir, self.settings.min_free_mb)

    def machines(self) -> int:
        return sum(1 for game in list(self.games.values()) if game.session.driver.machine is not None)

    def figures(self) -> Figures:
        """What ``/metrics`` shows at a scrape: ``/health``'s figures, read once."""
        h = self.health()
        return Figures(running=h["games"], waiting=h["waiting"], played=h["games_played"], mismatches=h["mismatches"],
                       restarts=h["restarts"], errors=h["errors"], healthy=h["status"] == "ok",
                       database_up=h["database"] == "ok")

    def health(self) -> dict:
        running, waiting = self.lobby.counts()
        database = self.store.problem() or self.leases.failing
        disk = disk_problem(self.settings.state_dir, self.settings.min_free_mb)
        c = self.counters
        return {"status": "ok" if database is None and disk is None else "failing",
                "problems": [problem for problem in (database, disk) if problem], "games": running, "waiting": waiting,
                "machines": self.machines(), "max_games": self.settings.max_games,
                "lease_s": self.settings.lease_seconds,
                "games_played": c.games_played, "replies_timed": len(c.replies), "mismatches": c.mismatches,
                "restarts": c.restarts, "reply_1960_s": round(c.reply_1960_s, 3),
                "reply_wall_s": round(c.reply_wall_s, 3),
                "errors": c.errors, "records_refused": c.records_refused, "database": database or "ok",
                "server": self.name, "pid": os.getpid(),
                "rss_kb": rss_kb(), "connections": sum(len(s) for s in self.clients.values()),
                "workers": self.searches.alive() if self.searches else 0}


def _show_kept(game: OnlineGame, saved: SavedGame, finished: bool, mismatch: dict | None) -> None:
    """A kept game on its page before (or instead of) a machine: its paper and its board as they were (and, for one
    a mismatch stopped, what the page said of it then)."""
    session = game.session
    session.mode = "visitor"
    session.new_page(saved.transcript)
    checker = checker_from_record(saved.title, saved.moves)
    # (in visitor mode from the first message: a page coming back is not shown how to play again)
    if mismatch is not None:
        session.update(mode="visitor", board=board_view(checker))
        session.stopped(mismatch)
        return
    session.update(mode="visitor", board=board_view(checker), phase="game_over" if finished else "one_moment",
                   notice=None if finished else NOTICE_ONE_MOMENT)
