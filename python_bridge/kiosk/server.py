"""The kiosk's web server: the page, its WebSocket, and the health endpoint (aiohttp).

Why aiohttp: one well-kept package (aio-libs) gives the HTTP server,
WebSockets and static files together, with no separate ASGI server to
configure and no build step; the page is the exhibit's (``exhibit/static/``).

The server only listens on 127.0.0.1.  Every message from a page is checked
(``messages.parse_message``), rate-limited per connection, refused unless
the connection controls the game, and then offered to the runner, which
decides whether it is allowed now; whatever is refused is answered
``{"type": "rejected", "reason": ...}`` and changes nothing.  The protocol,
and how the controlling page is chosen, is in ``messages``.

Connection hygiene, for a machine left alone for weeks: a request whose
``Host`` (or ``Origin``) is not the kiosk's own is answered 403 (no page of
another site, and no DNS rebinding, reaches the kiosk through a browser);
``/ws`` needs the kiosk's ``Origin`` and is capped at ``max_connections``
(503 beyond; with a control token one place is kept for the kiosk's own page,
which always gets in); the headers of a request must arrive within
``header_timeout``, and an idle keep-alive connection is closed after it;
the ``Server`` header names no versions; an overlong or unreadable path is
404, never 500.  Every request but a healthy ``/health`` is one line in the
log (``aiohttp.access``), every error of aiohttp one line, no traceback --
but for refused screens: a page refused for want of a place retries, backing
off up to a minute, and the log says so once an episode (``Refusals``), not
once a retry.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import time

from aiohttp import web

from ..exhibit.connection import Client
from ..exhibit.health import open_fds
from ..exhibit.messages import MAX_MESSAGE_BYTES, ClientMessage
from ..exhibit.page import INDEX, STATIC_DIR
from ..exhibit.procinfo import process_count, rss_kb
from ..exhibit.web_guard import guarded_app, listen, stop_requested
from .config import KioskConfig, describe
from .runner import KioskRunner
from .sdnotify import notify, watchdog_interval

RUNNER_KEY: web.AppKey[KioskRunner] = web.AppKey("runner", KioskRunner)
SERVER_NAME = "kalah-kiosk"  # the Server header: no Python or aiohttp version for a scanner to match
WATCHING = "this screen only watches"


class Refusals:
    """Screens refused for want of a place, logged once an episode rather than once a retry.

    An episode begins with a refusal and ends when a screen is let in again, or when no screen has
    been refused for ``QUIET_SECONDS`` (longer than a refused page's longest wait before it retries).
    """

    QUIET_SECONDS = 120.0

    def __init__(self, log: logging.Logger) -> None:
        self.log = log
        self.count = 0  # refusals in the open episode; 0: none open
        self.began = self.last = 0.0

    def refused(self, open_now: int, limit: int, now: float) -> None:
        if self.count and now - self.last > self.QUIET_SECONDS:
            self._end(now, "no more tries")
        if not self.count:
            self.began = now
            self.log.warning("a screen was refused: %d of %d connections open (max_connections); refused "
                             "screens retry, waiting up to a minute, and are not logged again until one gets in",
                             open_now, limit)
        self.count += 1
        self.last = now

    def let_in(self, now: float) -> None:
        if self.count:
            self._end(now, "a screen got in again")

    def _end(self, now: float, how: str) -> None:
        self.log.info("screens refused: %d times in %.0f s, then %s", self.count, self.last - self.began, how)
        self.count = 0


class Hub:
    """Fans the runner's messages out to every page; ``publish`` may be called from any thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, control_token: str = "") -> None:
        self.loop = loop
        self.control_token = control_token
        self.clients: set[Client] = set()
        self.connections = 0

    def admits(self, has_token: bool, limit: int) -> bool:
        """Whether a new page gets in: the page with the token always (the place it takes is kept for it:
        watching pages get ``limit - 1`` places when a token is configured), the others while places are free."""
        if has_token:
            return True
        if self.control_token:  # the kiosk's own page, connected or not, does not take a watching page's place
            return sum(1 for c in self.clients if not c.has_token) < limit - 1
        return len(self.clients) < limit

    def make_room(self, limit: int) -> None:
        """Over the limit (a page with the token came while earlier ones are still open, a reloaded kiosk
        page whose old connection has not yet timed out): the oldest page with the token, superseded, goes."""
        holders = sorted((c for c in self.clients if c.has_token), key=lambda c: c.order)
        for client in holders[:max(0, len(self.clients) - limit)]:
            self.clients.discard(client)
            asyncio.get_running_loop().create_task(client.close())

    def controller(self) -> Client | None:
        """Who controls the game: the newest page with the token if one is configured, else the oldest page."""
        if self.control_token:
            holders = [c for c in self.clients if c.has_token]
            return max(holders, key=lambda c: c.order) if holders else None
        return min(self.clients, key=lambda c: c.order) if self.clients else None

    def reassign(self, quiet: Client | None = None) -> None:
        """Tell every page whose part changed (``quiet``: one that learns it from its hello)."""
        chosen = self.controller()
        for client in self.clients:
            controls = client is chosen
            if controls != client.controls:
                client.controls = controls
                if client is not quiet:
                    client.send(json.dumps({"type": "control", "control": controls}))

    def publish(self, message: dict) -> None:
        try:
            self.loop.call_soon_threadsafe(self._broadcast, json.dumps(message))
        except RuntimeError:  # the loop has closed: the server is stopping
            pass

    def reply(self, client: Client, message: dict) -> None:
        try:
            self.loop.call_soon_threadsafe(client.send, json.dumps(message))
        except RuntimeError:
            pass

    def _broadcast(self, text: str) -> None:
        for client in list(self.clients):
            client.send(text)


class KioskApp:
    """The kiosk's web app: its page, ``/health`` and ``/ws``, each a method, the state they share here."""

    def __init__(self, runner: KioskRunner, hub: Hub, config: KioskConfig) -> None:
        self.runner = runner
        self.hub = hub
        self.config = config
        self.started = time.time()
        self.refusals = Refusals(runner.log)

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(INDEX, headers={"Cache-Control": "no-store"})

    async def health(self, request: web.Request) -> web.Response:
        report = self.runner.health()
        report.update(server_pid=os.getpid(), rss_kb=rss_kb(), processes=process_count(), open_fds=open_fds(),
                      clients=len(self.hub.clients), server_uptime_seconds=round(time.time() - self.started, 1))
        return web.json_response(report, status=200 if report["status"] == "ok" else 503,
                                 headers={"Cache-Control": "no-store"})

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """A screen: let in while there is a place (the kiosk's own page always), told its part, heard."""
        config, hub = self.config, self.hub
        if "Origin" not in request.headers:
            raise web.HTTPForbidden(text="the kiosk's page sends its Origin\n")
        token = request.query.get("control", "")
        has_token = bool(config.control_token) and hmac.compare_digest(token.encode(), config.control_token.encode())
        if not hub.admits(has_token, config.max_connections):
            self.refusals.refused(len(hub.clients), config.max_connections, time.monotonic())
            raise web.HTTPServiceUnavailable(text="too many screens connected\n")
        self.refusals.let_in(time.monotonic())
        ws = web.WebSocketResponse(heartbeat=10.0, max_msg_size=MAX_MESSAGE_BYTES * 2)
        await ws.prepare(request)
        hub.connections += 1
        client = Client(ws, hub.connections, has_token)
        hub.clients.add(client)
        hub.make_room(config.max_connections)
        hub.reassign(quiet=client)
        client.send_json({**self.runner.snapshot(), "control": client.controls})
        try:
            async for message in client.messages("too many touches"):
                self.receive(client, message)
        finally:
            hub.clients.discard(client)
            hub.reassign()
            client.task.cancel()
        return ws

    def receive(self, client: Client, message: ClientMessage) -> None:
        """A screen's message, offered to the runner if the screen controls the game."""
        if not client.controls:
            client.reject(WATCHING)
            return
        reason = self.runner.submit(message, lambda answer: self.hub.reply(client, answer))
        if reason is not None:
            client.reject(reason)


def build_app(runner: KioskRunner, hub: Hub, config: KioskConfig) -> web.Application:
    """The kiosk's app behind the exhibit's guard: reached only by its own names on its own port."""
    hosts = {f"{name}:{config.port}" for name in config.allowed_hosts}
    app = guarded_app(hosts, {f"http://{host}" for host in hosts}, SERVER_NAME, "this kiosk")
    app[RUNNER_KEY] = runner
    kiosk = KioskApp(runner, hub, config)
    app.router.add_get("/", kiosk.index)
    app.router.add_get("/health", kiosk.health)
    app.router.add_get("/ws", kiosk.websocket)
    if not config.metrics_port:  # else on a port of its own (``serve``)
        app.router.add_get("/metrics", runner.metrics.handler)
    app.router.add_static("/static/", STATIC_DIR)
    return app


async def serve(config: KioskConfig, log: logging.Logger) -> None:
    """Run the kiosk until SIGTERM or SIGINT: the runner thread, then the web server; systemd told."""
    loop = asyncio.get_running_loop()
    hub = Hub(loop, config.control_token)
    runner = KioskRunner(config, hub.publish, log)
    app = build_app(runner, hub, config)
    site_runner = await listen(app, config.host, config.port, config.header_timeout)
    scraped = None
    if config.metrics_port:  # /metrics alone on its own port, with the same Host rule
        hosts = {f"{name}:{config.metrics_port}" for name in config.allowed_hosts}
        metrics_app = guarded_app(hosts, {f"http://{host}" for host in hosts}, SERVER_NAME, "this kiosk")
        metrics_app.router.add_get("/metrics", runner.metrics.handler)
        scraped = await listen(metrics_app, config.host, config.metrics_port, config.header_timeout)
    stop = stop_requested(loop)
    runner.start()
    began = time.monotonic()
    log.info("kiosk started: serving http://%s:%d/ (pid %d); configuration: %s", config.host, config.port,
             os.getpid(), describe(config))
    notify("READY=1", f"STATUS=serving http://{config.host}:{config.port}/", f"MAINPID={os.getpid()}")
    watchdog = loop.create_task(_feed_watchdog(runner))
    try:
        await stop.wait()
    finally:
        notify("STOPPING=1")
        watchdog.cancel()
        log.info("kiosk stopping")
        await loop.run_in_executor(None, runner.stop)
        for client in list(hub.clients):
            await client.close()
        await site_runner.cleanup()
        if scraped is not None:
            await scraped.cleanup()
        counts = runner.stats.counts()
        log.info("kiosk stopped after %.0f s (totals: %s); configuration: %s", time.monotonic() - began,
                 ", ".join(f"{k} {v}" for k, v in counts.items()), describe(config))


async def _feed_watchdog(runner: KioskRunner) -> None:
    """``WATCHDOG=1`` every half ``WatchdogSec`` while the game loop makes progress; none while it is stuck."""
    interval = watchdog_interval()
    if interval is None:
        return
    shown: str | None = None
    while True:
        problem = runner.loop_problem()
        if problem is None:
            notify("WATCHDOG=1", *(["STATUS=playing"] if shown else []))
        elif problem != shown:
            notify(f"STATUS={problem}")
        shown = problem
        await asyncio.sleep(interval)
