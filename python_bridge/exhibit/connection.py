"""One page connected to a server of the exhibit: what it is sent, in order, and what it sends, checked.

Why one class for both front ends: the kiosk's screen and a visitor's browser online speak the same
protocol (``messages``) over the same kind of WebSocket; each must be sent its messages in order without
a slow page holding up the others, must have its flood answered once a second rather than once a message,
and must be told its last word before its connection closes.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import AsyncIterator

from aiohttp import WSMsgType, web

from .messages import BadMessage, ClientMessage, TokenBucket, parse_message

CLIENT_BACKLOG = 2000  # messages waiting for one slow page before it is dropped (it reconnects)
LAST_WORD_S = 10.0  # a last word's longest wait to be sent before its connection is closed
FLOOD_ANSWER_S = 1.0  # a flood gets one answer this often


class Client:
    """One connected page: its messages go out in order through a queue of its own."""

    def __init__(self, ws: web.WebSocketResponse, order: int = 0, has_token: bool = False) -> None:
        self.ws = ws
        self.order = order  # connections in the order they came
        self.has_token = has_token  # opened with the configured control token (the kiosk's)
        self.controls = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(CLIENT_BACKLOG)
        self.task = asyncio.get_running_loop().create_task(self._send_all())
        self._bucket = TokenBucket()
        self._flood_answered = 0.0

    def send(self, text: str) -> None:
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a page that stopped reading: drop it, it will reconnect and resync
            self.task.cancel()
            asyncio.get_running_loop().create_task(self.ws.close())

    def send_json(self, message: dict) -> None:
        self.send(json.dumps(message))

    def reject(self, reason: str) -> None:
        """The one answer to whatever the page sent that changes nothing."""
        self.send_json({"type": "rejected", "reason": reason})

    async def _send_all(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    def last_word(self, message: dict) -> None:
        """``message``, the last the page hears on this connection: its sender stops after it, then the
        connection is closed (the page comes back, or not, as the message says)."""
        self.send_json(message)
        self.queue.put_nowait(None)

        async def close_after_sending() -> None:
            await asyncio.wait([self.task], timeout=LAST_WORD_S)
            await self.ws.close()

        asyncio.get_running_loop().create_task(close_after_sending())

    async def close(self) -> None:
        self.task.cancel()
        await self.ws.close()

    async def messages(self, flooded: str) -> AsyncIterator[ClientMessage]:
        """The page's messages as they come, each well formed and within the flood limit; the others are
        answered here (``flooded`` once a second for a flood, the reason for a malformed one)."""
        async for msg in self.ws:
            if msg.type == WSMsgType.TEXT:
                message = self._read(msg.data, flooded)
                if message is not None:
                    yield message
            elif msg.type == WSMsgType.BINARY:
                self.reject("text messages only")
            elif msg.type == WSMsgType.ERROR:
                return

    def _read(self, data: str, flooded: str) -> ClientMessage | None:
        now = time.monotonic()
        if not self._bucket.allow(now):
            if now - self._flood_answered >= FLOOD_ANSWER_S:
                self._flood_answered = now
                self.reject(flooded)
            return None
        try:
            return parse_message(data)
        except BadMessage as bad:
            self.reject(str(bad))
            return None
