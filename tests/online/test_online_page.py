"""The online page in Debian's Chromium: the kiosk's page, its game kept by ID in the tab, so a reload (or a
dropped connection) comes back to the same game with the same board; two browsers play two games at once."""

from __future__ import annotations

import pytest

from tests.online.online_support import YOUR_MOVE, OnlineServer, start_in_browser, write_settings

pytestmark = pytest.mark.simh



def test_a_reload_comes_back_to_the_same_game_and_two_browsers_play_two(browser_context, tmp_path,
                                                                         kalah_tape) -> None:
    with OnlineServer(write_settings(tmp_path / "conf", max_games=2), tmp_path / "state") as server:
        first = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        game = start_in_browser(first, server.url)
        board = first.evaluate("JSON.stringify(kiosk.state.board)")
        turn = first.evaluate("kiosk.state.turn")
        first.reload()
        first.wait_for_selector(YOUR_MOVE)
        assert first.evaluate("sessionStorage.getItem('kalah-game')") == game
        assert first.evaluate("JSON.stringify(kiosk.state.board)") == board
        assert first.evaluate("kiosk.state.turn") == turn
        other = browser_context.new_page()  # another tab: a sessionStorage, and so a game, of its own
        assert start_in_browser(other, server.url) != game
        assert server.health()["games"] == 2
        first.locator(YOUR_MOVE).first.tap()
        first.wait_for_function(f"kiosk.state.turn > {turn}")
        other.close()


def test_the_line_on_the_page_keys_that_play_and_the_paper_a_link_away(browser_context, tmp_path,
                                                                        kalah_tape) -> None:
    """One machine: the first tab plays with the keyboard (key 1 is the visitor's leftmost pit) and finds its
    paper behind a link; a second tab waits, its place in line said in words, in its language."""
    with OnlineServer(write_settings(tmp_path / "conf", max_games=1), tmp_path / "state") as server:
        first = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        game = start_in_browser(first, server.url)
        turn = first.evaluate("kiosk.state.turn")
        pit = first.evaluate("kiosk.state.legal[0]")
        first.keyboard.press(str(pit))
        first.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")
        assert f"you play {pit}" in first.evaluate("kiosk.paper.text")
        link = first.locator("#download")
        assert link.is_visible() and link.get_attribute("href") == f"/games/{game}/paper.svg"
        status, svg = server.get(link.get_attribute("href"))
        assert status == 200 and "<svg" in svg
        other = browser_context.new_page()
        other.goto(server.url + "/")
        other.wait_for_function("sessionStorage.getItem('kalah-game') !== null")
        other.locator('[data-action="play"]').tap()
        other.wait_for_function("document.getElementById('status').textContent.includes('number 1 in line')")
        other.locator('[data-lang="pl"]').tap()
        other.wait_for_function("document.getElementById('status').textContent.includes('w kolejce')")
        assert other.locator("#download").is_hidden()
        other.close()
