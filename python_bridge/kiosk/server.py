"""The kiosk's web server: the page, its WebSocket, and the health endpoint (aiohttp).

Why aiohttp: one well-kept package (aio-libs) gives the HTTP server,
WebSockets and static files together, with no separate ASGI server to
configure and no build step; the page is plain files in ``static/``.

The server only listens on 127.0.0.1.  Every message from a page is checked
(``messages.parse_message``), rate-limited per connection, and then offered
to the runner, which decides whether it is allowed now; whatever is refused
is answered ``{"type": "rejected", "reason": ...}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import time
from pathlib import Path

from aiohttp import WSMsgType, web

from .config import KioskConfig
from .messages import MAX_MESSAGE_BYTES, BadMessage, TokenBucket, parse_message
from .procinfo import process_count, rss_kb
from .runner import KioskRunner

STATIC_DIR = Path(__file__).resolve().parent / "static"
CLIENT_BACKLOG = 2000  # messages waiting for one slow page before it is dropped (it reconnects)
RUNNER_KEY: web.AppKey[KioskRunner] = web.AppKey("runner", KioskRunner)


class Client:
    """One connected page: its messages go out in order through a queue of its own."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(CLIENT_BACKLOG)
        self.task = asyncio.get_running_loop().create_task(self._send_all())

    def send(self, text: str) -> None:
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a page that stopped reading: drop it, it will reconnect and resync
            self.task.cancel()
            asyncio.get_running_loop().create_task(self.ws.close())

    async def _send_all(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def close(self) -> None:
        self.task.cancel()
        await self.ws.close()


class Hub:
    """Fans the runner's messages out to every page; ``publish`` may be called from any thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.clients: set[Client] = set()

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


def build_app(runner: KioskRunner, hub: Hub) -> web.Application:
    app = web.Application(client_max_size=4096)
    app[RUNNER_KEY] = runner
    started = time.time()
    rejections_shown: dict[int, float] = {}

    async def index(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-store"})

    async def health(request: web.Request) -> web.Response:
        report = runner.health()
        report.update(server_pid=os.getpid(), rss_kb=rss_kb(), processes=process_count(),
                      clients=len(hub.clients), server_uptime_seconds=round(time.time() - started, 1))
        return web.json_response(report, status=200 if report["status"] == "ok" else 503,
                                 headers={"Cache-Control": "no-store"})

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=10.0, max_msg_size=MAX_MESSAGE_BYTES * 2)
        await ws.prepare(request)
        client = Client(ws)
        client.send(json.dumps(runner.snapshot()))
        hub.clients.add(client)
        bucket = TokenBucket()
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    _receive(client, bucket, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    client.send(json.dumps({"type": "rejected", "reason": "text messages only"}))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            hub.clients.discard(client)
            rejections_shown.pop(id(client), None)
            client.task.cancel()
        return ws

    def _receive(client: Client, bucket: TokenBucket, data: str) -> None:
        now = time.monotonic()
        if not bucket.allow(now):
            if now - rejections_shown.get(id(client), 0.0) >= 1.0:  # a flood gets one answer a second
                rejections_shown[id(client)] = now
                client.send(json.dumps({"type": "rejected", "reason": "too many touches"}))
            return
        try:
            message = parse_message(data)
        except BadMessage as bad:
            client.send(json.dumps({"type": "rejected", "reason": str(bad)}))
            return
        reason = runner.submit(message, lambda answer: hub.reply(client, answer))
        if reason is not None:
            client.send(json.dumps({"type": "rejected", "reason": reason}))

    app.router.add_get("/", index)
    app.router.add_get("/health", health)
    app.router.add_get("/ws", websocket)
    app.router.add_static("/static/", STATIC_DIR)
    return app


async def serve(config: KioskConfig, log: logging.Logger) -> None:
    """Run the kiosk until SIGTERM or SIGINT: the runner thread, then the web server."""
    loop = asyncio.get_running_loop()
    hub = Hub(loop)
    runner = KioskRunner(config, hub.publish, log)
    app = build_app(runner, hub)
    site_runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await site_runner.setup()
    site = web.TCPSite(site_runner, config.host, config.port)
    try:
        await site.start()
    except OSError:
        await site_runner.cleanup()
        raise
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    runner.start()
    log.info("kiosk started: serving http://%s:%d/ (pid %d)", config.host, config.port, os.getpid())
    try:
        await stop.wait()
    finally:
        log.info("kiosk stopping")
        await loop.run_in_executor(None, runner.stop)
        for client in list(hub.clients):
            await client.close()
        await site_runner.cleanup()
        log.info("kiosk stopped")
