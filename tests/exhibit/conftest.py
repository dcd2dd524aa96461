"""The page tests' sites: a real online server, and the browser edition's folder served as a static host serves it,
each shared by a module, with the same game (the classic board, the visitors' choices, the fast pace); and their
own Chromium (launched for a module: each check opens windows of its own size, scale and media).

``site_url`` is the page's address on either edition: a test that asks for it runs once on each (the browser
edition's page is the online page with its PDP-1 in a Worker, and every accessibility rule holds of both)."""

from __future__ import annotations

import pytest

from python_bridge.bench.kiosk_visit import CHROMIUM_ARGS
from tests.online.online_support import classic_server
from tests.web.served_folder import CLASSIC, served_folder

EDITIONS = ("online", "browser")


@pytest.fixture(scope="module")
def server(tmp_path_factory, kalah_tape):
    with classic_server(tmp_path_factory.mktemp("page-vision"), max_games=8) as started:
        yield started


@pytest.fixture(scope="module")
def browser_edition(tmp_path_factory) -> str:
    """make web's folder served by ``http.server`` alone with the online server's game: its URL."""
    with served_folder(tmp_path_factory.mktemp("browser-edition"), CLASSIC) as url:
        yield url


@pytest.fixture(params=EDITIONS)
def site_url(request) -> str:
    """The page's address on the online server (``server``) or the browser edition (``browser_edition``)."""
    return request.getfixturevalue("server").url if request.param == "online" else \
        request.getfixturevalue("browser_edition")


@pytest.fixture(scope="module")
def browser(chromium):
    """One Chromium for the module; each check opens its own window (a context: its size, scale, media)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
