"""The browser edition's records at the server (``--edition browser``): a finished game's record, sent as its page
sends it, is checked by the reference in the search workers and kept, counted in ``/health``, ``/metrics`` and
``online stats``; a tampered one is refused with its reason and nothing of it is kept.  A real server, a real
SQLite store, and records of whole games played on Debian's pdp1 through the one driver.  And the site's own page
in Debian's Chromium, under the site's policy: the games played there, on SIMH as WebAssembly in the page's
Worker, sent by the page as each ends, checked, kept and counted."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.request

import pytest

from python_bridge.browser.settings import browser_settings, records_path
from python_bridge.driver.driver import play_games
from python_bridge.driver.record_files import game_record
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.online.browser_records import FILES, MAX_RECORD_BYTES, folder_problem
from python_bridge.online.browser_records import FOLDER as BUILT
from tests.browser import until
from tests.online.online_support import YOUR_MOVE, OnlineServer, online_command, write_settings
from tests.web.served_folder import asked_by_the_page

pytestmark = pytest.mark.simh

LEVEL = 1  # the site's level (write_settings'); no strengths offered besides it


def _post(url: str, body: bytes) -> tuple[int, dict | str]:
    request = urllib.request.Request(url + "/records", data=body, method="POST",
                                     headers={"Content-Type": "text/plain; charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        text = refused.read().decode()
        return refused.code, json.loads(text) if text.startswith("{") else text


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()


@pytest.fixture(scope="module")
def records(kalah_tape) -> list[str]:
    """Two whole games of the PDP-1 at the site's level, as the driver keeps them."""
    texts = []
    for seed in (1, 2):
        panel = PanelSettings(pits=3, seeds=2, depth=LEVEL, pdp1_first=seed == 2)
        [outcome] = play_games(panel, RandomVisitor(random.Random(seed)), 1)
        texts.append(game_record(outcome, "game record", finished=True, fields=(("language", "pl"),)).text())
    return texts


@pytest.fixture
def server(tmp_path):
    settings = write_settings(tmp_path, level=LEVEL, workers=1)
    started = OnlineServer(settings, tmp_path / "state")
    started.args += ["--edition", "browser"]
    with started as running:
        yield running


def test_records_checked_and_kept_tampered_ones_refused(server, records: list[str], tmp_path) -> None:
    kept = []
    for text in records:
        status, answer = _post(server.url, text.encode())
        assert status == 201, answer
        assert answer["choices_checked"] > 0
        kept.append(_get(server.url + answer["record"]))
        assert re.sub(r"^Kalah on the PDP-1: .*\n", "", kept[-1]).rstrip("\n") == \
            re.sub(r"^Kalah on the PDP-1: .*\n", "", text).rstrip("\n")
        heading = f"Kalah on the PDP-1: online game {answer['game']} (played in the visitor's browser)"
        assert kept[-1].startswith(heading)

    pdp1_move = next(n for n, line in enumerate(records[1].splitlines()) if line.startswith("record: "))
    lines = records[1].splitlines()
    moves = lines[pdp1_move].split()[1:]
    first = int(moves[0])  # the PDP-1 moves first in the second game: its opening changed to another pit
    lines[pdp1_move] = "record: " + " ".join([str(first % 3 + 1), *moves[1:]])
    status, answer = _post(server.url, "\n".join(lines).encode())
    assert status == 422 and answer["refused"].startswith(f"move 1: the PDP-1 would have played {first}"), answer

    deeper = records[0].replace(f"level {LEVEL}  rules", "level 5  rules")
    status, answer = _post(server.url, deeper.encode())
    assert status == 422 and "level 5 is not one this site plays" in answer["refused"], answer
    assert _post(server.url, b"\xff\xfe")[0] == 400
    assert _post(server.url, b"x" * (MAX_RECORD_BYTES + 1))[0] == 413

    health = json.loads(_get(server.url + "/health"))
    assert (health["games_played"], health["records_refused"]) == (2, 2)
    assert "\nkalah_games_played_total 2.0\n" in _get(server.url + "/metrics")
    server.stop()
    stats = online_command("stats", "--state-dir", str(tmp_path / "state"))
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout.splitlines()[0].endswith(": 2 (2 finished)"), stats.stdout  # nothing of the refused kept


def test_the_browser_editions_folder_is_the_sites_page(server, tmp_path) -> None:
    """``make web``'s folder, served as a static host serves it, under a policy that lets WebAssembly compile."""
    with urllib.request.urlopen(server.url + "/", timeout=10) as answer:
        page = answer.read().decode()
        policy = answer.headers["Content-Security-Policy"]
    assert 'data-edition="browser"' in page and 'src="static/js/main.js"' in page
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "worker-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "'unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
    for path, kind in FILES.items():
        with urllib.request.urlopen(f"{server.url}/{path}", timeout=10) as answer:
            assert answer.headers["Content-Type"].startswith(kind) and answer.read() == (BUILT / path).read_bytes()
    with urllib.request.urlopen(server.url + "/settings.toml", timeout=10) as answer:  # the site's, not the folder's
        assert answer.headers["Cache-Control"] == "no-store"
        settings = answer.read().decode()
    assert browser_settings(settings).level == LEVEL and records_path(settings) == "records"
    with urllib.request.urlopen(server.url + "/pyodide/pyodide.mjs", timeout=10) as answer:
        assert answer.status == 200
    assert folder_problem(tmp_path) == f"{tmp_path / 'index.html'} is missing: make web writes the browser " \
                                       "edition's folder"


def test_a_server_edition_takes_no_records(tmp_path, records: list[str]) -> None:
    with OnlineServer(write_settings(tmp_path, level=LEVEL), tmp_path / "state") as running:
        assert _post(running.url, records[0].encode())[0] in (404, 405)


def _health(server) -> dict:
    return json.loads(_get(server.url + "/health"))


def _play_out(page) -> None:
    """The visitor's first legal pit at every question until the game is over (waited for from outside the page:
    its policy allows no ``eval``, which ``wait_for_function`` needs)."""
    while True:
        until(page, "document.querySelector('#bottom-row .pit.legal') !== null"
                    " && document.body.dataset.phase === 'your_turn' || document.body.dataset.phase === 'game_over'")
        if page.evaluate("document.body.dataset.phase") == "game_over":
            return
        turn = page.evaluate("kiosk.state.turn")
        page.locator(YOUR_MOVE).first.tap()
        until(page, f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")


def test_the_sites_page_sends_each_finished_games_record_under_its_policy(server, strict_page) -> None:
    """A game played in the site's page is sent as it ends -- one POST to the page's own site, nothing else asked
    after the first question -- checked, kept and counted; a second game's record, its sending lost on the way, is
    sent again as the visitor leaves (the page's pagehide); no policy violation meanwhile (connect-src 'self')."""
    page = strict_page
    asked: list[tuple[float, str, str]] = []
    page.on("request", lambda request: asked.append((time.monotonic(), request.method, request.url))
            if asked_by_the_page(request) else None)
    page.goto(server.url + "/")
    page.wait_for_selector("#languages button", timeout=60_000)  # (the Worker's hello: Pyodide and SIMH started)
    page.locator('[data-action="play"]').tap()
    page.wait_for_selector('body[data-mode="visitor"]')
    if page.locator('[data-action="close-rules"]').is_visible():
        page.locator('[data-action="close-rules"]').tap()
    page.wait_for_selector(YOUR_MOVE)
    first_question = time.monotonic()
    with page.expect_response(lambda answer: answer.url == server.url + "/records") as sent:
        _play_out(page)
    assert sent.value.status == 201, sent.value.text()
    kept = _get(server.url + sent.value.json()["record"])
    assert "(played in the visitor's browser)" in kept.splitlines()[0] and "\nlanguage: en\n" in kept, kept
    assert _health(server)["games_played"] == 1

    page.route(server.url + "/records", lambda route: route.abort(), times=1)  # the next record lost on its way
    game = page.evaluate("kiosk.state.game")
    with page.expect_event("requestfailed", lambda request: request.url == server.url + "/records"):
        page.locator('[data-action="new-game"]').tap()
        until(page, f"kiosk.state.game > {game}")
        _play_out(page)
    assert _health(server)["games_played"] == 1
    with page.expect_response(lambda answer: answer.url == server.url + "/records") as again:
        page.evaluate("window.dispatchEvent(new PageTransitionEvent('pagehide'))")  # the visitor leaving
    assert again.value.status == 201, again.value.text()
    assert _health(server)["games_played"] == 2
    late = [(method, url) for at, method, url in asked if at > first_question]
    assert late == [("POST", server.url + "/records")] * 3, late
    assert not page.violations, page.violations
