"""Debian's Chromium driven by Playwright, for the pages' tests (the kiosk's and the online exhibit's):
a fresh profile a test, its processes gone after it, any error of the page failing the test."""

from __future__ import annotations

import time

import pytest

from python_bridge.bench.kiosk_visit import CHROMIUM, CHROMIUM_ARGS
from tests.kiosk.kiosk_support import processes_using
from tests.programs import need


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, as the test set-up installed it."""
    return need(CHROMIUM)


@pytest.fixture
def browser_context(chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    profile = tmp_path / "chromium-profile"
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800}, has_touch=True)
        try:
            context.set_default_timeout(20_000)
            yield context
        finally:
            context.close()
    deadline = time.monotonic() + 5
    while processes_using(str(profile)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not processes_using(str(profile)), "chromium processes left behind"


@pytest.fixture
def browser_page(browser_context):
    page = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    assert not errors, errors
