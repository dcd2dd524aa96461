"""The online exhibit's server: the site (``site``) and its web app (``app``) served until SIGTERM or SIGINT,
every game's machine closed on the way out (its record kept); the database pruned daily, the searches'
workers and ``/metrics`` on its own port when asked."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from ..exhibit.web_guard import listen, stop_requested
from .app import build_app, metrics_listener
from .settings import OnlineSettings
from .site import Site
from .store import StoreError
from .upkeep import prune_daily


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
        if site.searches is not None:
            await loop.run_in_executor(None, site.searches.close)
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
    asyncio.run(serve(settings, log))
    return 0
