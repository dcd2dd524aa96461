"""The browser edition at the server: its folder served (``make web``'s build/web), and ``POST /records``, the record
of a game played in a visitor's browser, checked by the reference, then kept.

The folder's own ``settings.toml`` is not served: the page is given one of the site's (``edition_settings``), its
pace, game and choices -- so that its visitors' browsers play the levels the records are checked at -- and
``records``, which tells the page to send each finished game's record here (a static host's folder has none, and
its page sends nothing).

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
from pathlib import Path

from aiohttp import web

from ..checking.records import CheckedRecord, RecordRefused, check_record
from ..exhibit.settings import STRENGTH_CHOICES, game_sections_text, toml_string
from ..machine.wasm_port import WEB_FOLDER, WEB_SCRIPTS
from .game import new_game_id
from .settings import OnlineSettings
from .site import Site
from .store import StoreError

FOLDER = WEB_FOLDER  # make web writes it
# the folder's own files at its top, each with its type (a Worker's module must be JavaScript, WebAssembly wasm)
FILES = {**dict.fromkeys(WEB_SCRIPTS, "text/javascript"), "pdp1.mjs": "text/javascript",
         "pdp1.wasm": "application/wasm", "python.zip": "application/zip"}
RECORDS = "records"  # where the pages send their records: POST /records, named relative to the page (as it is served)
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


def folder_problem(folder: Path = FOLDER) -> str | None:
    """Why the browser edition cannot be served from ``folder`` (None: it can)."""
    missing = [name for name in ("index.html", *FILES, "pyodide", "static") if not (folder / name).exists()]
    return f"{folder / missing[0]} is missing: make web writes the browser edition's folder" if missing else None


def edition_settings(settings: OnlineSettings) -> str:
    """The browser edition's ``settings.toml`` as this site serves it: the site's pace, accessibility contact, game
    and choices, and ``records`` (``browser.settings`` reads it in the visitor's Worker)."""
    return (f"# the online server's: its pace, game and choices, and its POST /records for each finished game\n"
            f"[browser]\npace = {toml_string(settings.pace)}\n"
            f"accessibility_contact = {toml_string(settings.accessibility_contact)}\nrecords = {toml_string(RECORDS)}\n"
            + game_sections_text(settings.game))


def serve_folder(app: web.Application, settings: OnlineSettings, folder: Path = FOLDER) -> None:
    """The browser edition's page and files on ``app``, as a static host serves them: ``/`` its page, then its
    Worker, machine, Pyodide and the project's Python (the page's own files under ``/static/``), and the site's
    own ``settings.toml`` (``edition_settings``: never kept in a visitor's cache, the site's settings may change)."""
    page = (folder / "index.html").read_text(encoding="utf-8")
    edition = edition_settings(settings)

    async def index(request: web.Request) -> web.Response:
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def settings_file(request: web.Request) -> web.Response:
        return web.Response(text=edition, content_type="text/plain", headers={"Cache-Control": "no-store"})

    def file(name: str, kind: str):
        async def serve(request: web.Request) -> web.FileResponse:
            return web.FileResponse(folder / name, headers={"Content-Type": kind})
        return serve

    app.router.add_get("/", index)
    app.router.add_get("/settings.toml", settings_file)
    for name, kind in FILES.items():
        app.router.add_get(f"/{name}", file(name, kind))
    app.router.add_static("/pyodide/", folder / "pyodide")
