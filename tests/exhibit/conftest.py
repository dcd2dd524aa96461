"""The page-vision tests' server (a real online server, shared by a module) and their own Chromium (launched
for a module: each check opens windows of its own size, scale and media)."""

from __future__ import annotations

import pytest

from python_bridge.bench.kiosk_visit import CHROMIUM_ARGS
from tests.online.online_support import classic_server


@pytest.fixture(scope="module")
def server(tmp_path_factory, kalah_tape):
    with classic_server(tmp_path_factory.mktemp("page-vision"), max_games=8) as started:
        yield started


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
