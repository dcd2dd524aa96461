"""axe-core on the online page in the states its layout walk does not reach: waiting in line, the game over,
and the connection lost (the server gone), at the issue's four sizes: the two phones here, the kiosk's 10.1"
screen and a desktop in test_axe_screens.py; each size in another of the four languages.  The kiosk's states
are walked, with axe at each, by tests/kiosk/test_page_states.py; the online page's first states by
tests/online/test_online_layout.py.  And the browser edition's page (its PDP-1 in a Worker) through every state
a visitor sees there, a phone's and a desktop's size at each, the four languages in turn.

A real online server (one machine: a second tab waits in line), Debian's Chromium, a whole quick game; the browser
edition's folder served as a static host serves it."""

from __future__ import annotations

import pytest

from tests.browser import play_out
from tests.exhibit.axe_check import axe_findings, axe_problems, axe_version
from tests.online.online_support import YOUR_MOVE, OnlineServer, start_in_browser, write_settings
from tests.web.served_folder import HELLO_MS

pytestmark = pytest.mark.simh

SIZES = ((360, 640), (390, 844), (1280, 800), (1920, 1080))
LANGUAGES = ("en", "pl", "tl", "az")


def _speak(page, language: str) -> None:
    page.locator(f'[data-lang="{language}"]').tap()
    page.wait_for_function(f"document.documentElement.lang === '{language}'")


PHONES = SIZES[:2]  # here; the screens' are test_axe_screens.py's (two files, two workers)


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_no_violation_in_line_at_the_end_and_with_the_server_gone(size, browser_context, tmp_path,
                                                                  kalah_tape) -> None:
    walk(size, browser_context, tmp_path)


def walk(size: tuple[int, int], browser_context, tmp_path) -> None:
    """In line, at the game's end and with the server gone, at ``size``, in the size's own language: axe."""
    width, height = size
    language = LANGUAGES[SIZES.index(size)]
    problems: list[str] = []
    with OnlineServer(write_settings(tmp_path / "conf", max_games=1), tmp_path / "state") as server:
        first = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        first.set_viewport_size({"width": width, "height": height})
        first.emulate_media(reduced_motion="reduce")  # (the moves drawn at once: axe judges the page, not its motion)
        start_in_browser(first, server.url)
        assert tuple(map(int, axe_version(first).split(".")[:2])) >= (4, 14)
        other = browser_context.new_page()
        other.set_viewport_size({"width": width, "height": height})
        other.goto(server.url + "/")
        other.wait_for_function("sessionStorage.getItem('kalah-game') !== null")
        _speak(other, language)
        other.locator('[data-action="play"]').tap()
        other.wait_for_function("/1/.test(document.getElementById('status').textContent)")  # number 1 in line
        problems += axe_problems(other, f"{width}x{height} in line in {language}")
        _speak(first, language)
        play_out(first)
        problems += axe_problems(first, f"{width}x{height} game over in {language}")
        server.stop()
        first.wait_for_selector("#notice:not([hidden])")
        problems += axe_problems(first, f"{width}x{height} connection lost in {language}")
        other.close()
    assert not problems, "\n".join(problems)


BROWSER_EDITION_SIZES = (SIZES[1], SIZES[2])  # a phone's and a desktop's


def _at_both_sizes(page, where: str) -> list[str]:
    """axe at the phone's size and the desktop's, the page laid out again for each (and left at the desktop's)."""
    problems = []
    for width, height in BROWSER_EDITION_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        problems += axe_problems(page, f"browser edition {width}x{height} {where}")
    return problems


def test_no_violation_in_the_browser_editions_states(browser_edition, browser_page) -> None:
    """Before play, "What is this?" (its paragraph on SIMH as WebAssembly), "How to play" as a game begins, the
    visitor's turn, seeds being sown (at each size, as they are) and the game over, each in another language."""
    page = browser_page
    page.emulate_media(reduced_motion="reduce")  # (the moves drawn at once, but those judged as they are sown)
    page.goto(browser_edition + "/")
    page.wait_for_selector("#languages button", timeout=HELLO_MS)  # (the Worker's hello drawn)
    problems = _at_both_sizes(page, "before play in en")
    _speak(page, "pl")
    page.locator('[data-action="about"]').tap()
    page.wait_for_selector("#about-browser:not([hidden])")
    problems += _at_both_sizes(page, "what is this in pl")
    page.locator('[data-action="close-about"]').tap()
    _speak(page, "tl")
    page.locator('[data-choice="quick"]').tap()
    page.locator('[data-action="play"]').tap()
    page.wait_for_selector("#rules:not([hidden])")
    problems += _at_both_sizes(page, "how to play in tl")
    page.locator('[data-action="close-rules"]').tap()
    page.wait_for_selector(YOUR_MOVE)
    problems += _at_both_sizes(page, "your turn in tl")
    _speak(page, "az")
    page.emulate_media(reduced_motion="no-preference")
    for width, height in BROWSER_EDITION_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_selector(YOUR_MOVE)
        page.locator(YOUR_MOVE).last.tap()
        page.wait_for_selector('body[data-sowing="yes"]')
        problems += axe_findings(page, f"browser edition {width}x{height} seeds being sown in az")
        page.wait_for_selector('body:not([data-sowing="yes"])')
    page.emulate_media(reduced_motion="reduce")
    play_out(page)
    _speak(page, "en")
    problems += _at_both_sizes(page, "game over in en")
    assert not problems, "\n".join(problems)
