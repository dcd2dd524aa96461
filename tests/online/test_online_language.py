"""The page's language kept with an online game's record (what the curators' figures count by), as the
page last said it; a watching or malformed language message changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from tests.browser import play_out
from tests.online.online_support import OnlinePage, OnlineServer, write_settings

pytestmark = pytest.mark.simh


def test_the_language_the_page_says_is_kept_with_the_record(tmp_path, kalah_tape) -> None:
    async def play(server: OnlineServer) -> str:
        async with OnlinePage(server) as page:
            await page.send({"type": "language", "language": "tl"})
            await page.send({"type": "language", "language": "xx"})  # refused, changes nothing
            await page.send({"type": "play"})
            await page.send({"type": "language", "language": "pl"})  # during the game: the last word counts
            await page.play_out()
            assert page.rejected == ["language must be one of en, pl, tl, az"]
            return page.game or ""

    with OnlineServer(write_settings(tmp_path / "conf"), tmp_path / "state") as server:
        game = asyncio.run(play(server))
        status, record = server.get(f"/games/{game}/record.txt")
    assert status == 200 and "\nlanguage: pl\n" in record, record


def test_the_pages_language_and_the_museums_contact_in_a_browser(browser_page, tmp_path, kalah_tape) -> None:
    """The page in Chromium says its language as the visitor chooses it (kept with the record), once they stop
    choosing: a visitor trying every language in turn spends none of the messages the server allows a page (each
    said at once, a move tapped next was refused as too many); "What is this?" links to the museum's
    accessibility contact when one is set."""
    page = browser_page
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    page.emulate_media(reduced_motion="reduce")  # (the moves drawn at once)
    settings = write_settings(tmp_path / "conf")
    settings.write_text(settings.read_text().replace(
        "[online]\n", '[online]\naccessibility_contact = "mailto:access@museum.example"\n'))
    with OnlineServer(settings, tmp_path / "state") as server:
        page.goto(server.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.wait_for_selector("#languages button")  # (connected: the server's hello drawn)
        page.evaluate("() => { for (const l of ['pl', 'tl', 'en', 'pl', 'tl', 'en']) kiosk.setLanguage(l); }")
        page.locator('[data-lang="az"]').tap()
        page.wait_for_function("document.documentElement.lang === 'az'")
        page.locator('[data-action="about"]').tap()
        link = page.locator("#contact-link")
        assert link.is_visible() and link.get_attribute("href") == "mailto:access@museum.example"
        assert link.inner_text() == "access@museum.example"
        page.keyboard.press("Escape")
        page.locator('[data-action="play"]').tap()
        page.wait_for_selector('body[data-mode="visitor"]')
        if page.locator('[data-action="close-rules"]').is_visible():
            page.locator('[data-action="close-rules"]').tap()
        play_out(page)
        game = page.evaluate("sessionStorage.getItem('kalah-game')")
        status, record = server.get(f"/games/{game}/record.txt")
    assert status == 200 and "\nlanguage: az\n" in record, record
    said = [frame for frame in sent if '"type":"language"' in frame]
    assert said[-1] == '{"type":"language","language":"az"}' and not any('"pl"' in f or '"tl"' in f for f in said), said


def test_no_contact_no_link(browser_page, tmp_path, kalah_tape) -> None:
    with OnlineServer(write_settings(tmp_path / "conf"), tmp_path / "state") as server:
        browser_page.goto(server.url + "/")
        browser_page.wait_for_selector('[data-action="about"]', state="visible")
        browser_page.locator('[data-action="about"]').tap()
        browser_page.wait_for_selector("#about:not([hidden])")
        assert browser_page.locator("#about-contact").is_hidden()
