"""The online exhibit's web server: the page, ``/ws`` (a game of one's own, by ID), the records by ID
and ``/health`` (aiohttp).

The protocol is the exhibit's (``exhibit/messages.py``) with what a public site adds: ``/ws`` makes a
game with an ID (``hello`` carries ``"game"``), ``/ws?game=ID`` comes back to it from any browser,
``play`` takes a machine or a place in the waiting line (``queue`` messages as it moves; ``full``
past ``max_waiting``), and every connection controls its own game.  The app listens on its
``host`` only; TLS, and the public name, are the reverse proxy's.  The exhibit's hygiene holds:
Host and Origin must be ``allowed_hosts``, messages are capped and rate-limited, headers must come
within ``header_timeout``, the Server header names no version.  An address may hold
``per_ip_games`` connections; a proxy's ``X-Forwarded-For`` is believed only from
``trusted_proxies``.  IDs are 128 random bits; a record is reachable only by its ID.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import sys
import time
from pathlib import Path

from aiohttp import web

from ..demo.paper import paper_svg
from ..driver.game_records import SavedGame
from ..driver.restore import checker_from_record
from ..exhibit.connection import Client
from ..exhibit.game_session import NOTICE_ONE_MOMENT
from ..exhibit.health import disk_problem
from ..exhibit.messages import MAX_MESSAGE_BYTES, ClientMessage
from ..exhibit.metrics import ExhibitMetrics, Figures
from ..exhibit.page import STATIC_DIR, page_html
from ..exhibit.procinfo import rss_kb
from ..exhibit.view import board_view
from ..exhibit.web_guard import guarded_app, listen, stop_requested
from .database import open_store
from .game import Counters, OnlineGame, new_game_id, saved_game, well_formed
from .leases import Leases, server_name
from .lobby import Full, Lobby, Place
from .settings import OnlineSettings
from .store import StoreError
from .upkeep import prune_daily

SERVER_NAME = "kalah-online"  # the Server header: no versions
NO_SUCH_GAME = "no such game: here is a new one"
REPLIES_A_REQUEST = 100_000
ROOM_FRESH_S = 3.0  # another server's room is believed this long after it said it
GIL_SWITCH_S = 0.0005
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
    def new_game(self, choice: dict | None = None) -> OnlineGame:
        game = OnlineGame(new_game_id(), self.settings, self.store, self.leases, self.counters, self.publish,
                          self.released, self.log)
        if choice:
            game.session.choice = dict(choice)
            game.session.update(choices=game.session.choices_view(game.session.choice))
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
            game = OnlineGame(game_id, self.settings, self.store, self.leases, self.counters, self.publish,
                              self.released, self.log)  # made elsewhere, not yet played: begun here
            self.games[game_id] = game
            return game
        saved, finished = kept
        game = OnlineGame(game_id, self.settings, self.store, self.leases, self.counters, self.publish,
                          self.released, self.log, saved=None if finished else saved)
        game.finished = finished
        _show_kept(game, saved, finished)
        if not finished:
            self.games[game_id] = game
        return game

    def problem_for_new_games(self) -> str | None:
        """Why no new game can be kept now (the database, a full disk), or None."""
        return self.store.problem() or disk_problem(self.settings.state_dir, self.settings.min_free_mb)

    def machines(self) -> int:
        return sum(1 for game in list(self.games.values()) if game.session.driver.machine is not None)

    def figures(self) -> Figures:
        """What ``/metrics`` shows at a scrape (read from the database's health as ``/health`` is)."""
        running, waiting = self.lobby.counts()
        database = self.store.problem() or self.leases.failing
        disk = disk_problem(self.settings.state_dir, self.settings.min_free_mb)
        c = self.counters
        return Figures(running=running, waiting=waiting, played=c.games_played, mismatches=c.mismatches,
                       restarts=c.restarts, errors=c.errors, healthy=database is None and disk is None,
                       database_up=database is None)

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
                "errors": c.errors, "database": database or "ok", "server": self.name, "pid": os.getpid(),
                "rss_kb": rss_kb(), "connections": sum(len(s) for s in self.clients.values())}


def _show_kept(game: OnlineGame, saved: SavedGame, finished: bool) -> None:
    """A kept game on its page before (or instead of) a machine: its paper and its board as they were."""
    session = game.session
    session.mode = "visitor"
    session.new_page(saved.transcript)
    checker = checker_from_record(saved.title, saved.moves)
    # (in visitor mode from the first message: a page coming back is not shown how to play again)
    session.update(mode="visitor", board=board_view(checker), phase="game_over" if finished else "one_moment",
                   notice=None if finished else NOTICE_ONE_MOMENT)


def client_address(request: web.Request, settings: OnlineSettings) -> str:
    """The visitor's address: the peer, or the last hop a trusted proxy names."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and peer in settings.trusted_proxies:
        return forwarded.split(",")[-1].strip()[:64] or peer
    return peer


class OnlineApp:
    """The site's web app: the page, ``/health``, the records by ID and ``/ws``, each a method; what they
    share is the ``Site`` (the games and their pages)."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.settings = site.settings
        self.page = page_html("online")

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self.page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def health(self, request: web.Request) -> web.Response:
        site = self.site
        report = site.health()
        since = request.query.get("replies", "")
        if since.isdigit() and len(since) < 10:  # the load benchmark's: reply times from this one on
            with site.counters.lock:
                report["replies"] = site.counters.replies[int(since):int(since) + REPLIES_A_REQUEST]
        return web.json_response(report, status=200 if report["status"] == "ok" else 503,
                                 headers={"Cache-Control": "no-store"})

    def kept_record(self, request: web.Request) -> SavedGame:
        """The record of the game a URL names by its ID (404 for no such game, 503 while the store is out)."""
        game_id = request.match_info["game"]
        if not well_formed(game_id):
            raise web.HTTPNotFound(text="no such game\n")
        try:
            kept = saved_game(self.site.store, game_id)
        except StoreError:
            raise web.HTTPServiceUnavailable(text="the games cannot be read now\n") from None
        if kept is None:
            raise web.HTTPNotFound(text="no such game, or none of its moves kept yet\n")
        return kept[0]

    async def record(self, request: web.Request) -> web.Response:
        return web.Response(text=self.kept_record(request).text() + "\n", content_type="text/plain",
                            charset="utf-8", headers={"Cache-Control": "no-store"})

    async def paper(self, request: web.Request) -> web.Response:
        return web.Response(text=paper_svg(self.kept_record(request).transcript), content_type="image/svg+xml",
                            headers={"Cache-Control": "no-store"})

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """A visitor's page: its game (asked for by ID, or a new one), then its messages until it goes."""
        site, settings = self.site, self.settings
        if "Origin" not in request.headers:
            raise web.HTTPForbidden(text="the page sends its Origin\n")
        address = client_address(request, settings)
        if site.per_ip[address] >= settings.per_ip_games:
            raise web.HTTPTooManyRequests(text="too many games from this address\n")
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=MAX_MESSAGE_BYTES * 2)
        await ws.prepare(request)
        site.per_ip[address] += 1
        client = Client(ws)
        game = None
        try:
            game = self.game_asked(client, request)
            if game is None:
                problem = site.problem_for_new_games()
                if problem is not None:
                    await ws.send_str(json.dumps({"type": "rejected",
                                                  "reason": f"no new game can be kept now: {problem}"}))
                    await ws.close()
                    return ws
                game = site.new_game()
            game = self.attach(client, game)
            async for message in client.messages("too many messages"):
                game = await self.receive(client, game, message)
        finally:
            site.per_ip[address] -= 1
            if not site.per_ip[address]:
                del site.per_ip[address]
            if game is not None:
                self.detach(client, game)
            client.task.cancel()
        return ws

    def game_asked(self, client: Client, request: web.Request) -> OnlineGame | None:
        """The game ``?game=ID`` names, if there is one (the page is told when there is not)."""
        asked = request.query.get("game")
        if asked is None:
            return None
        game = self.site.find(asked)
        if game is None:
            client.reject(NO_SUCH_GAME)
        elif self.settings.label and request.query.get("server") == self.settings.label:
            game.sent_here = True  # sent here for room: it waits here if it must, never sent on
        return game

    def attach(self, client: Client, game: OnlineGame) -> OnlineGame:
        site = self.site
        site.clients[game.id].add(client)
        client.send_json({**game.session.snapshot(), "game": game.id, "control": True})
        if game.saved is not None and not game.running:  # a kept game its visitor came back to
            self.seat(client, game)
        elif game.id in site.lobby.waiting:
            place = site.lobby.join(game)
            if place is not None:
                client.send_json(place.message())
        return game

    def detach(self, client: Client, game: OnlineGame) -> None:
        site = self.site
        pages = site.clients.get(game.id)
        if pages is not None:
            pages.discard(client)
            if not pages:
                del site.clients[game.id]
                site.lobby.leave(game.id)  # nobody waits for it any more
                if not game.running:  # a game never begun (or kept) is not held in memory for nobody
                    site.games.pop(game.id, None)

    async def join(self, client: Client, game: OnlineGame) -> None:
        """A machine for the game, or its place in line -- unless this server is full and another has room
        (past one host): then the visitor is sent there, never queued here."""
        site = self.site
        if game.saved is None and not game.sent_here and self.settings.label and not site.lobby.has_room():
            label = await asyncio.get_running_loop().run_in_executor(None, site.room_elsewhere)
            if label is not None:
                site.send_elsewhere(game, label)
                return
        self.seat(client, game)

    def seat(self, client: Client, game: OnlineGame) -> None:
        try:
            place = self.site.lobby.join(game)
        except Full as full:
            client.last_word({"type": "full", "retry_s": full.retry_s})
            return
        if place is not None:
            client.send_json(place.message())

    async def receive(self, client: Client, game: OnlineGame, message: ClientMessage) -> OnlineGame:
        """One message from a visitor's page; the game it now plays (a new one after ``new_game``)."""
        kind = message.kind
        if kind == "new_game":
            return await self.new_game(client, game)
        if kind == "language":  # said at any time, kept with the game's record
            game.session.submit(message, client.send_json)
            return game
        if game.running:
            reason = game.session.submit(message, client.send_json)
        elif kind == "choose" and not game.finished and game.saved is None:
            reason = choose(game, message.choice)
        elif kind == "play" and not game.finished and not game.running:
            await self.join(client, game)
            reason = None
        elif kind == "touch":
            reason = None
        else:
            reason = "the game is over" if game.finished else "no machine yet: the game starts when one is free"
        if reason is not None:
            client.reject(reason)
        return game

    async def new_game(self, client: Client, game: OnlineGame) -> OnlineGame:
        """Another game, with the same choices, once this one is over (or never begun)."""
        # (a game at its end may still be typing its last line and keeping its record: over, all the same)
        over = game.session.view()["phase"] == "game_over"
        if (game.running and not over) or game.id in self.site.lobby.waiting:
            client.reject("a game is in progress")
            return game
        self.detach(client, game)
        fresh = self.attach(client, self.site.new_game(game.session.choice))
        await self.join(client, fresh)
        return fresh


def choose(game: OnlineGame, choice: tuple[str, str] | None) -> str | None:
    """A visitor's choice (game size or strength) for a game not begun; why not, when it is refused."""
    what, which = choice or ("", "")
    config = game.config
    if which not in (config.games if what == "game" else config.strengths):
        return f"{which} is not offered here"
    game.session.choice = {**game.session.choice, what: which}
    game.session.update(choices=game.session.choices_view(game.session.choice))
    return None


def build_app(site: Site) -> web.Application:
    """The site's app behind the exhibit's guard: its public names, on whatever port the proxy in front serves
    them; an overlong game ID on /ws is malformed: refused there, and a new game given."""
    app = guarded_app(site.settings.allowed_hosts, site.settings.allowed_hosts, SERVER_NAME, "this site",
                      long_query_paths=frozenset({"/ws"}), any_port=True)
    online = OnlineApp(site)
    app.router.add_get("/", online.index)
    app.router.add_get("/health", online.health)
    app.router.add_get("/ws", online.websocket)
    app.router.add_get("/games/{game}/record.txt", online.record)
    app.router.add_get("/games/{game}/paper.svg", online.paper)
    if not site.settings.metrics_port:  # else on a port of its own (``serve``)
        app.router.add_get("/metrics", site.metrics.handler)
    app.router.add_static("/static/", STATIC_DIR)
    return app


async def metrics_listener(site: Site) -> web.AppRunner:
    """``/metrics`` alone on ``metrics_port`` (the same host, the same names allowed): a museum's monitoring
    may reach that port where visitors do not."""
    settings = site.settings
    app = guarded_app(settings.allowed_hosts, settings.allowed_hosts, SERVER_NAME, "this site", any_port=True)
    app.router.add_get("/metrics", site.metrics.handler)
    return await listen(app, settings.host, settings.metrics_port, settings.header_timeout, settings.log_addresses)


async def serve(settings: OnlineSettings, log: logging.Logger) -> None:
    """Serve until SIGTERM or SIGINT; every game's machine closed on the way out (its record kept)."""
    loop = asyncio.get_running_loop()
    site = Site(settings, loop, log)
    app = build_app(site)
    site.share_room()  # told before the first page comes (past one host)
    runner = await listen(app, settings.host, settings.port, settings.header_timeout, settings.log_addresses)
    scraped = await metrics_listener(site) if settings.metrics_port else None
    stop = stop_requested(loop)
    log.info("online: serving http://%s:%d/ (pid %d, %s); %d games at once, games kept in %s", settings.host,
             settings.port, os.getpid(), site.name, settings.max_games, site.store.where)
    site.leases.start(site.lost)
    pages = loop.create_task(site.look_after())
    pruning = loop.create_task(prune_daily(site.store, settings.keep_days, log))
    try:
        await stop.wait()
    finally:
        log.info("online: stopping")
        pages.cancel()
        pruning.cancel()
        games = list(site.games.values())
        await loop.run_in_executor(None, lambda: [game.stop() for game in games])  # (their leases given up)
        site.leases.stop()
        try:
            site.store.forget_server(site.name)
        except StoreError:
            pass
        for pages in list(site.clients.values()):
            for client in list(pages):
                await client.close()
        await runner.cleanup()
        if scraped is not None:
            await scraped.cleanup()
        site.store.close()
        log.info("online: stopped")


def run(settings: OnlineSettings) -> int:
    """The command's body: log to stderr, serve."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    log = logging.getLogger("kalah.online")
    Path(settings.state_dir).mkdir(parents=True, exist_ok=True)
    # Every game's thread reads its emulator's pty hundreds of times a second while the PDP-1 thinks at the
    # 1960 pace; each read waits for the GIL, by default up to 5 ms while another thread runs.  A shorter
    # interval lets the many waiting readers in sooner, so that a loaded host keeps the pace.
    sys.setswitchinterval(GIL_SWITCH_S)
    asyncio.run(serve(settings, log))
    return 0
