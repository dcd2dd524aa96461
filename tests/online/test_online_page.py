"""The online page in Debian's Chromium: the kiosk's page, its game kept by ID in the tab, so a reload (or a
dropped connection) comes back to the same game with the same board; two browsers play two games at once."""

from __future__ import annotations

import pytest

from tests.online.online_support import OnlineServer, write_settings

pytestmark = pytest.mark.simh

YOUR_MOVE = 'body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal'


def _start(page, url: str) -> str:
    page.goto(url + "/")
    page.wait_for_function("sessionStorage.getItem('kalah-game') !== null")
    page.locator('[data-action="play"]').tap()
    if page.locator('[data-action="close-rules"]').is_visible():
        page.locator('[data-action="close-rules"]').tap()
    page.wait_for_selector(YOUR_MOVE)
    return page.evaluate("sessionStorage.getItem('kalah-game')")


def test_a_reload_comes_back_to_the_same_game_and_two_browsers_play_two(browser_context, tmp_path,
                                                                         kalah_tape) -> None:
    with OnlineServer(write_settings(tmp_path / "conf", max_games=2), tmp_path / "state") as server:
        first = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        game = _start(first, server.url)
        board = first.evaluate("JSON.stringify(kiosk.state.board)")
        turn = first.evaluate("kiosk.state.turn")
        first.reload()
        first.wait_for_selector(YOUR_MOVE)
        assert first.evaluate("sessionStorage.getItem('kalah-game')") == game
        assert first.evaluate("JSON.stringify(kiosk.state.board)") == board
        assert first.evaluate("kiosk.state.turn") == turn
        other = browser_context.new_page()  # another tab: a sessionStorage, and so a game, of its own
        assert _start(other, server.url) != game
        assert server.health()["games"] == 2
        first.locator(YOUR_MOVE).first.tap()
        first.wait_for_function(f"kiosk.state.turn > {turn}")
        other.close()
