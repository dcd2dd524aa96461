"""Debian's Chromium driven by Playwright, for the pages' tests (the kiosk's and the online exhibit's):
one Chromium a test worker, a fresh browser context (its own storage, cookies and pages) a test, any
error of the page failing the test, no Chromium process left behind.

Why one Chromium a worker: starting Chromium costs about a CPU-second, and some forty tests use it; a
context a test keeps them as apart as a browser each.  Why over the DevTools protocol rather than one
Playwright for the session: Playwright's synchronous API holds an event loop while it is started, and the
tests that speak to a server through asyncio need theirs; so each test file starts Playwright, connects to
the worker's Chromium, and stops Playwright at its end.  ``strict_page``: a page under its own
Content-Security-Policy (the others set it aside), with ``until`` to wait on it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from python_bridge.bench.kiosk_visit import CHROMIUM, CHROMIUM_ARGS
from tests.kiosk.kiosk_support import processes_using
from tests.programs import need

DEVTOOLS = re.compile(r"DevTools listening on (ws://\S+)")
START_S = 30.0  # Chromium's longest start
BYPASS_CSP = True  # the tests' contexts, but the policy's own test (``browser_context``)
STOP_S = 5.0


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, as the test set-up installed it."""
    return need(CHROMIUM)


@pytest.fixture(scope="session")
def chromium_endpoint(chromium, tmp_path_factory):
    """This worker's Chromium, headless, started at its first page test: its DevTools address.  Stopped, and
    every process of its profile gone, when the worker ends."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    process = subprocess.Popen([chromium, "--headless", "--remote-debugging-port=0", f"--user-data-dir={profile}",
                                "--hide-scrollbars", "--mute-audio", *CHROMIUM_ARGS, "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        endpoint = _devtools_address(process)
        yield endpoint
    finally:
        process.terminate()
        try:
            process.wait(STOP_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_S)
        deadline = time.monotonic() + STOP_S
        while processes_using(str(profile)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not processes_using(str(profile)), "chromium processes left behind"
        _remove_singleton(profile)


def _remove_singleton(profile: Path) -> None:
    """The folder Chromium keeps its profile's singleton socket in (``/tmp/org.chromium.Chromium.*``, named by
    the profile's ``SingletonSocket`` link), which a stopped Chromium leaves behind: each run would add its own."""
    link = profile / "SingletonSocket"
    if link.is_symlink():
        shutil.rmtree(Path(os.readlink(link)).parent, ignore_errors=True)


def _devtools_address(process: subprocess.Popen) -> str:
    """The ``ws://`` address Chromium says it listens on (it says so on stderr as it starts)."""
    assert process.stderr is not None
    deadline = time.monotonic() + START_S
    said = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            break
        said.append(line)
        if (found := DEVTOOLS.search(line)) is not None:
            return found.group(1)
    raise AssertionError(f"chromium did not start: {''.join(said)[-2000:]}")


@pytest.fixture(scope="module")
def connected_browser(chromium_endpoint):
    """Playwright, started once for a test file, connected to the worker's Chromium; stopped at the file's end
    (starting Playwright's driver costs most of a CPU-second, and a file's browser tests come one after another)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.connect_over_cdp(chromium_endpoint)
        try:
            yield browser
        finally:
            browser.close()  # (connected over the protocol: this disconnects, Chromium goes on for the next file)


@pytest.fixture
def browser_context(connected_browser):
    """A fresh context of the worker's Chromium (a touch screen of 1280x800 by default), closed after the test.

    It sets the page's Content-Security-Policy aside (``BYPASS_CSP``): Playwright's ``wait_for_function`` runs
    its expression with ``eval``, which the policy forbids as it forbids any script not the page's own file.
    tests/exhibit/test_security_headers.py plays the page under its policy, in a context of its own."""
    context = connected_browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True,
                                            bypass_csp=BYPASS_CSP)
    try:
        context.set_default_timeout(20_000)
        yield context
    finally:
        context.close()


# every violation a document reports, as the listener and the console say it
LISTEN = """document.addEventListener('securitypolicyviolation',
  (e) => window.cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


@pytest.fixture
def strict_page(connected_browser):
    """A page of the worker's Chromium in a context that keeps the page's policy (the other tests' set it aside:
    ``BYPASS_CSP``), with every violation any of its documents reports from then on, and its console's CSP
    errors, in ``page.violations``; no ``wait_for_function`` here (its ``eval`` is what the policy forbids)."""
    context = connected_browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    try:
        context.set_default_timeout(20_000)
        page = context.new_page()
        seen: list[str] = []
        page.expose_function("cspViolation", lambda said: seen.append(said))
        page.add_init_script(LISTEN)
        page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: seen.append(f"page error: {e}"))
        page.violations = seen  # type: ignore[attr-defined]
        yield page
    finally:
        context.close()


def until(page, expression: str, timeout: float = 20) -> None:
    """Wait until ``expression`` is true in the page, asking it from outside (DevTools' evaluation, which the
    page's policy does not govern) every 50 ms."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression} (violations: {getattr(page, 'violations', [])})"
        time.sleep(0.05)


@pytest.fixture
def browser_page(browser_context):
    page = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    assert not errors, errors


def play_out(page, last: bool = False, most: int = 40) -> None:
    """The visitor's first (or ``last``) legal pit at every question until the game is over, its last sowing
    shown on the page."""
    pit = "#bottom-row .pit.legal"
    for _ in range(most):
        page.wait_for_selector(f'body[data-phase="your_turn"] {pit}, body[data-phase="game_over"]')
        if page.locator('body[data-phase="game_over"]').count():
            break
        turn = page.evaluate("kiosk.state.turn")
        (page.locator(pit).last if last else page.locator(pit).first).tap()
        page.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")
    page.wait_for_selector('body[data-phase="game_over"]')
    page.wait_for_selector('body:not([data-sowing="yes"])')
