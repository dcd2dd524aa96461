"""Security headers on every answer of both servers (the online exhibit's and the kiosk's), the page
working under its own Content-Security-Policy in Debian's Chromium (a game started and a move played, with
no violation reported by a ``securitypolicyviolation`` listener in every document, nor the console), and
docs/online.md giving the same headers for a static host."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from python_bridge.exhibit.web_guard import security_headers
from tests.browser import until
from tests.kiosk.kiosk_support import KioskServer, write_config
from tests.online.online_support import YOUR_MOVE, OnlineServer, write_settings

pytestmark = pytest.mark.simh

PATHS = ("/", "/static/kiosk.css", "/static/js/main.js", "/static/fonts/GNUTypewriter.ttf", "/static/pdp1.svg",
         "/health", "/metrics", "/no-such-page")
MUSEUM = "https://museum.example"
# the page's own origin, and nothing else, for everything it loads or connects to (its socket: connect-src)
OWN_ORIGIN_ONLY = {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'", "font-src": "'self'",
                   "img-src": "'self'", "connect-src": "'self'", "base-uri": "'none'", "form-action": "'none'"}


def answer(url: str, host: str | None = None) -> tuple[int, dict[str, str]]:
    """The status and headers of a GET (a refusal's too)."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as got:
            return got.status, dict(got.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers)


def policy(headers: dict[str, str]) -> dict[str, str]:
    """The Content-Security-Policy's directives, by name."""
    directives = (d.strip().split(" ", 1) for d in headers["Content-Security-Policy"].split(";"))
    return {d[0]: d[1] if len(d) > 1 else "" for d in directives}


def assert_headers(url: str, ancestors: str) -> None:
    """Every path's answer (a page, a file, a figure, a 404, a 403 for a stranger's Host) carries the three."""
    statuses = set()
    for path, host in [(p, None) for p in PATHS] + [("/", "elsewhere.example")]:
        status, headers = answer(url + path, host)
        statuses.add(status)
        assert headers.get("X-Content-Type-Options") == "nosniff", (path, status, headers)
        assert headers.get("Referrer-Policy") == "no-referrer", (path, status, headers)
        directives = policy(headers)
        assert directives == {**OWN_ORIGIN_ONLY, "frame-ancestors": ancestors}, (path, status, directives)
    assert statuses == {200, 404, 403}


def test_every_answer_of_both_servers_carries_the_security_headers(tmp_path, kalah_tape) -> None:
    """The online server with a museum's site named in ``frame_ancestors``; the kiosk with none (no frame)."""
    settings = write_settings(tmp_path / "conf")
    settings.write_text(settings.read_text().replace("[online]\n", f'[online]\nframe_ancestors = ["{MUSEUM}"]\n'))
    with OnlineServer(settings, tmp_path / "state") as server:
        assert_headers(server.url, MUSEUM)
    with KioskServer(write_config(tmp_path / "kiosk")) as kiosk:
        assert_headers(kiosk.url, "'none'")


def play_a_move(page) -> None:
    """"Play", how to play closed if it opens, and the visitor's first legal pit, until the PDP-1 has answered
    (or the game is over)."""
    page.locator('[data-action="play"]').tap()
    page.wait_for_selector('body[data-mode="visitor"]')
    if page.locator('[data-action="close-rules"]').is_visible():
        page.locator('[data-action="close-rules"]').tap()
    page.wait_for_selector(YOUR_MOVE)
    turn = page.evaluate("kiosk.state.turn")
    page.locator(YOUR_MOVE).first.tap()
    until(page, f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")


def test_the_online_page_plays_under_its_own_policy_in_chromium(strict_page, tmp_path, kalah_tape) -> None:
    """The page, its modules, style sheet, fonts, pictures and catalogues, its socket; then its paper by itself."""
    page = strict_page
    with OnlineServer(write_settings(tmp_path / "conf"), tmp_path / "state") as server:
        page.goto(server.url + "/")
        until(page, "sessionStorage.getItem('kalah-game') !== null")  # connected: the socket allowed
        play_a_move(page)
        assert page.evaluate("document.fonts.check('1em \"GNU Typewriter\"')")  # its own font, loaded
        game = page.evaluate("sessionStorage.getItem('kalah-game')")
        page.goto(f"{server.url}/games/{game}/paper.svg")
        page.wait_for_selector("text", state="attached")
        assert "you play" in page.evaluate("document.documentElement.textContent")
    assert not page.violations, page.violations


def test_the_kiosk_page_plays_under_its_own_policy_in_chromium(strict_page, tmp_path, kalah_tape) -> None:
    page = strict_page
    with KioskServer(write_config(tmp_path / "kiosk", countdown=2)) as server:
        page.goto(server.url + "/")
        page.wait_for_selector('body[data-control="yes"] [data-action="play"]', state="visible")
        play_a_move(page)
    assert not page.violations, page.violations


def test_the_docs_give_a_static_host_the_same_headers() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "online.md").read_text()
    nginx = dict(re.findall(r'^add_header ([\w-]+) "([^"]+)" always;$', page, re.M))
    apache = dict(re.findall(r'^Header always set ([\w-]+) "([^"]+)"$', page, re.M))
    assert nginx == apache == security_headers()
    assert f"Content-Security-Policy: {security_headers()['Content-Security-Policy']}" in " ".join(page.split())
