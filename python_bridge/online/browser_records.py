"""``POST /records``: the record of a game played in a visitor's browser, checked by the reference, then kept.

Why a server at all for the browser edition: its PDP-1 runs in the visitor's browser, so the site's
records (``/games/ID/record.txt``, ``online stats``, ``/metrics``) learn of a game only when its page sends
the record.  A page can be edited, so nothing it sends is believed: ``checking.records`` plays the moves
again and asks the reference for every PDP-1 choice, at a level the site plays; a record that differs is
refused (422, with the reason) and nothing of it is kept.  The checks run in the search workers (the
cross-checks' pool) or, without them, in a thread, at most ``workers`` (one at least) at once: a flood of
records waits its turn (503 past ``CHECKS_WAITING``), and the server's own pages are answered meanwhile.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from aiohttp import web

from ..checking.records import CheckedRecord, RecordRefused, check_record
from ..exhibit.settings import STRENGTH_CHOICES
from .game import new_game_id
from .site import Site
from .store import StoreError

MAX_RECORD_BYTES = 256 * 1024  # a whole game with its paper is a few kilobytes
CHECKS_WAITING = 64  # records waiting for a check at once; more are told to come back
HEADING = "online game {id} (played in the visitor's browser)"


class RecordIntake:
    """The records a site receives: each checked (a bounded number at once), then kept as a finished game."""

    def __init__(self, site: Site) -> None:
        self.site = site
        game = site.settings.game
        self.levels = frozenset({game.level, *(STRENGTH_CHOICES[s] for s in game.strengths)})
        self.running = asyncio.Semaphore(max(1, site.settings.workers))
        self.waiting = 0

    def _check(self, text: str) -> CheckedRecord:
        searches = self.site.searches
        if searches is not None:
            return searches.run(check_record, text, self.levels)
        return check_record(text, self.levels)

    async def receive(self, request: web.Request) -> web.Response:
        if request.content_length is not None and request.content_length > MAX_RECORD_BYTES:
            raise web.HTTPRequestEntityTooLarge(MAX_RECORD_BYTES, request.content_length)
        body = await request.content.read(MAX_RECORD_BYTES + 1)
        if len(body) > MAX_RECORD_BYTES:
            raise web.HTTPRequestEntityTooLarge(MAX_RECORD_BYTES, len(body))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return web.json_response({"refused": "the record is not UTF-8 text"}, status=400)
        if self.waiting >= CHECKS_WAITING:
            raise web.HTTPServiceUnavailable(text="too many records at once: send it again in a minute\n",
                                             headers={"Retry-After": "60"})
        self.waiting += 1
        try:
            async with self.running:
                checked = await asyncio.get_running_loop().run_in_executor(None, self._check, text)
        except RecordRefused as refused:
            self.site.counters.add("records_refused")
            return web.json_response({"refused": str(refused)}, status=422)
        finally:
            self.waiting -= 1
        game_id = new_game_id()
        kept = replace(checked.saved, heading=HEADING.format(id=game_id), checked=len(checked.saved.moves))
        try:
            await asyncio.get_running_loop().run_in_executor(None, self.site.store.save, game_id, kept.text(), True)
        except StoreError:
            raise web.HTTPServiceUnavailable(text="the games cannot be kept now\n") from None
        self.site.counters.add("games_played")
        self.site.log.info("game %s: a browser's record kept (%d PDP-1 choices checked)", game_id,
                           checked.choices_checked)
        return web.json_response({"game": game_id, "record": f"/games/{game_id}/record.txt",
                                  "choices_checked": checked.choices_checked}, status=201)
