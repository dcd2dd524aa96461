"""The online exhibit's web app (aiohttp): the page, ``/ws`` (a game of one's own, by ID), the records by ID,
``/health`` and ``/metrics``, each a method of ``OnlineApp``, which holds the site (``site.Site``).

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
import json

from aiohttp import web

from ..demo.paper import paper_svg
from ..driver.game_records import SavedGame
from ..exhibit.connection import Client
from ..exhibit.game_session import ENDED
from ..exhibit.messages import MAX_MESSAGE_BYTES, ClientMessage
from ..exhibit.page import STATIC_DIR, page_html
from ..exhibit.web_guard import guarded_app, listen
from .browser_records import RECORDS, RecordIntake, serve_folder
from .game import OnlineGame, saved_game, well_formed
from .lobby import Full
from .settings import OnlineSettings
from .site import Site
from .store import StoreError

SERVER_NAME = "kalah-online"  # the Server header: no versions
NO_SUCH_GAME = "no such game: here is a new one"
REPLIES_A_REQUEST = 100_000


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
        over = game.session.view()["phase"] in ENDED  # (its thread may still be closing its machine)
        if kind == "choose" and (over or not game.running and game.saved is None):  # (after a game: the next's)
            reason = choose(game, message.choice)
        elif game.running:
            reason = game.session.submit(message, client.send_json)
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
        over = game.session.view()["phase"] in ENDED  # (or stopped by a mismatch)
        if (game.running and not over) or game.id in self.site.lobby.waiting:
            client.reject("a game is in progress")
            return game
        self.detach(client, game)
        fresh = self.attach(client, self.site.new_game(game.session.choice))
        await self.join(client, fresh)
        return fresh


def choose(game: OnlineGame, choice: tuple[str, str] | None) -> str | None:
    """A visitor's choice (game size or strength) for a game not begun, or for the next after a game's end (the page
    offers the choices beside "New game", which keeps them); why not, when it is refused."""
    refused = game.session.not_offered(choice)
    if refused is None and choice is not None:
        game.session.set_choice({**game.session.choice, choice[0]: choice[1]})
    return refused


def build_app(site: Site) -> web.Application:
    """The site's app behind the exhibit's guard: its public names, on whatever port the proxy in front serves
    them; an overlong game ID on /ws is malformed: refused there, and a new game given."""
    browser = site.settings.edition == "browser"
    app = guarded_app(site.settings.allowed_hosts, site.settings.allowed_hosts, SERVER_NAME, "this site",
                      long_query_paths=frozenset({"/ws"}), any_port=True, frame_ancestors=site.settings.frame_ancestors,
                      wasm=browser)
    online = OnlineApp(site)
    if browser:  # the visitors' browsers run the PDP-1: its folder is the site's page
        serve_folder(app, site.settings)
    else:
        app.router.add_get("/", online.index)
    app.router.add_get("/health", online.health)
    app.router.add_get("/ws", online.websocket)
    app.router.add_get("/games/{game}/record.txt", online.record)
    app.router.add_get("/games/{game}/paper.svg", online.paper)
    if browser:
        app.router.add_post(f"/{RECORDS}", RecordIntake(site).receive)
    if not site.settings.metrics_port:  # else on a port of its own (``serve``)
        app.router.add_get("/metrics", site.metrics.handler)
    app.router.add_static("/static/", STATIC_DIR)
    return app


async def metrics_listener(site: Site) -> web.AppRunner:
    """``/metrics`` alone on ``metrics_port`` (the same host, the same names allowed): a museum's monitoring
    may reach that port where visitors do not."""
    settings = site.settings
    app = guarded_app(settings.allowed_hosts, settings.allowed_hosts, SERVER_NAME, "this site", any_port=True,
                      frame_ancestors=settings.frame_ancestors)
    app.router.add_get("/metrics", site.metrics.handler)
    return await listen(app, settings.host, settings.metrics_port, settings.header_timeout, settings.log_addresses)
