"""axe-core on the online page in the states its layout walk does not reach: waiting in line, the game over,
and the connection lost (the server gone), at the issue's four sizes: the two phones here, the kiosk's 10.1"
screen and a desktop in test_axe_screens.py; each size in another of the four languages.  The kiosk's states
are walked, with axe at each, by tests/kiosk/test_page_states.py; the online page's first states by
tests/online/test_online_layout.py.

A real online server (one machine: a second tab waits in line), Debian's Chromium, a whole quick game."""

from __future__ import annotations

import pytest

from tests.browser import play_out
from tests.exhibit.axe_check import axe_problems, axe_version
from tests.online.online_support import OnlineServer, start_in_browser, write_settings

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
