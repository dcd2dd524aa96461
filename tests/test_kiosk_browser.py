"""The kiosk page in a real Chromium (Debian's /usr/bin/chromium driven by Playwright), on the real
kiosk server and SIMH: attract mode, tapping a game, the lights while the PDP-1 thinks, a reload,
a killed pdp1, the end of a game, an idle visitor's countdown and the return to attract mode.

Screenshots of each state are saved in artifacts/kiosk/ (git-ignored), named by state.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from kiosk_support import ROOT, KioskServer, write_config

pytestmark = pytest.mark.simh

CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "artifacts" / "kiosk"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, installed by the project's own set-up when it is missing."""
    if not Path(CHROMIUM).exists():
        subprocess.run([str(ROOT / "scripts" / "bootstrap.sh"), "test", "chromium"], check=True)
    return CHROMIUM


def _processes_using(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


@pytest.fixture
def browser_page(chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    profile = tmp_path / "chromium-profile"
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800}, has_touch=True)
        try:
            context.set_default_timeout(20_000)
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
    deadline = time.monotonic() + 5
    while _processes_using(str(profile)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _processes_using(str(profile)), "chromium processes left behind"


PLAYED = "(document.getElementById('paper').textContent.match(/you play/g) || []).length"


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _wait_phase(page, mode: str, phase: str, timeout: float = 20_000) -> None:
    page.wait_for_selector(f'body[data-mode="{mode}"][data-phase="{phase}"]', timeout=timeout)


def test_a_visitor_plays_the_pdp1_in_chromium(browser_page, tmp_path, kalah_tape) -> None:
    page = browser_page
    config = write_config(tmp_path / "kiosk", idle=6, countdown=3, attract_pause=0.4,
                          extra_kiosk="think_rate = 20000").read_text().replace("level = 3", "level = 6")
    (tmp_path / "kiosk" / "kiosk.toml").write_text(config)
    with KioskServer(tmp_path / "kiosk" / "kiosk.toml") as server:
        page.goto(server.url + "/")

        # attract mode: the PDP-1 plays a demonstration, a call to touch the screen
        page.wait_for_selector("#attract:not([hidden])")
        page.wait_for_function("document.querySelectorAll('#bottom-row .pit').length === 4")
        page.wait_for_function("document.getElementById('paper').textContent.includes('kalah for the pdp-1')")
        _shot(page, "01-attract")

        # touch to play: a visitor's game, only the visitor's legal pits active
        page.tap("#attract")
        _wait_phase(page, "visitor", "your_turn")
        assert page.locator("#attract").is_hidden()
        assert page.locator("#top-row .pit:enabled").count() == 0
        assert page.locator("#bottom-row .pit.legal:enabled").count() == 4
        _shot(page, "02-your-move")

        # a tap on a pit: the move is typed, the PDP-1 thinks (console lights), answers
        pit = page.locator("#bottom-row .pit.legal").first
        number = pit.get_attribute("data-pit")
        pit.tap()
        page.wait_for_selector("#front-panel:not([hidden])")
        page.wait_for_function("parseFloat(document.getElementById('thinking-time').textContent) > 0")
        assert page.locator("#front-panel .lamp.on").count() > 0
        _shot(page, "03-pdp1-thinking")
        page.wait_for_function(
            f"document.getElementById('paper').textContent.includes('your move? {number}')")
        _wait_phase(page, "visitor", "your_turn")
        assert page.locator(".pit.last").count() == 1 and "PDP-1 played pit" in page.inner_text("#last-move")
        assert re.search(r"pdp-1 plays \d", page.inner_text("#paper"))
        board, paper = page.inner_text("#board"), page.inner_text("#paper")
        _shot(page, "04-after-the-reply")

        # a reload: the page reconnects and shows the game as it was
        page.reload()
        _wait_phase(page, "visitor", "your_turn")
        page.wait_for_function("document.getElementById('paper').textContent.length > 0")
        assert page.inner_text("#board") == board and page.inner_text("#paper") == paper
        _shot(page, "05-after-reload")

        # the emulator is killed: a fresh one, the game restored, the visitor plays on
        os.kill(server.health()["pdp1_pid"], signal.SIGKILL)
        server.wait_for(lambda h: h["restarts"] == 1 and h["pdp1_alive"], what="the emulator replaced")
        _wait_phase(page, "visitor", "your_turn")
        page.wait_for_selector("#notice", state="hidden")
        assert page.inner_text("#board") == board
        _shot(page, "06-after-pdp1-killed")

        # play the game out by tapping; the end shows the score, the winner, a new game offer
        for _ in range(40):
            page.wait_for_selector('body[data-phase="your_turn"], body[data-phase="game_over"]')
            if page.locator('body[data-phase="game_over"]').count():
                break
            played = page.evaluate(PLAYED)
            page.locator("#bottom-row .pit.legal").last.tap()
            # the move is on the paper (a phase change may be too brief to see: "move again")
            page.wait_for_function(f"({PLAYED}) > {played}")
        page.wait_for_selector("#result:not([hidden])")
        assert re.search(r"wins|draw", page.inner_text("#winner"), re.I)
        assert re.search(r"PDP-1 \d+ . you \d+", page.inner_text("#score"))
        assert page.locator("#new-game").is_visible()
        assert "game over." in page.inner_text("#paper")
        _shot(page, "07-game-over")

        # nobody touches: the countdown, then attract mode again
        page.wait_for_selector("#countdown:not([hidden])", timeout=15_000)
        _shot(page, "08-countdown")
        page.wait_for_selector('body[data-mode="attract"]', timeout=15_000)
        page.wait_for_selector("#attract:not([hidden])")
        _shot(page, "09-back-to-attract")

        health = server.health()
        assert health["mismatches"] == 0 and health["errors"] == 0 and health["visitor_games"] == 1
