"""The kiosk page's defects found in the museum's trial, each played in a real Chromium on the real kiosk
server and SIMH: cards that closed by themselves, a flash left over the board, the kiosk's own page locked
out by watching pages, a watching page that looked playable, refused pages retrying every 2 s for ever,
and a paper that asked for a key on a screen with none.
"""

from __future__ import annotations

import asyncio
import datetime
import threading
import time

import aiohttp
import pytest

from tests.browser import play_out
from tests.kiosk.kiosk_page_checks import catalogue
from tests.kiosk.kiosk_support import KioskServer, Page, write_config
from tests.kiosk.test_browser import _server, _your_move

pytestmark = pytest.mark.simh

EN = catalogue("en")
TOKEN = "kiosk-screen-token-0123456789"


def _moves_shown(page) -> int:
    return page.evaluate("kiosk.moveStarts")


def test_a_card_stays_open_through_the_demo_until_closed_or_a_visitors_game(browser_page, tmp_path,
                                                                             kalah_tape) -> None:
    page = browser_page
    with _server(tmp_path, sound=False) as server:
        page.goto(server.url + "/")
        page.wait_for_selector('body[data-mode="attract"] [data-action="play"]', state="visible")
        for card in ("about", "rules"):
            page.locator(f'[data-action="{card}"]').tap()
            page.wait_for_selector(f"#{card}:not([hidden])")
            shown = _moves_shown(page)
            page.wait_for_function(f"kiosk.moveStarts >= {shown + 3}")  # the demo plays on: three moves later
            assert page.locator(f"#{card}").is_visible(), f"the {card} card closed by itself in attract mode"
            assert page.locator('body[data-mode="attract"]').count() == 1
            page.locator(f'[data-action="close-{card}"]').tap()
            page.wait_for_selector(f"#{card}", state="hidden")
        # a visitor's game needs the screen: the open "What is this?" gives way to how to play
        page.locator('[data-action="about"]').tap()
        page.wait_for_selector("#about:not([hidden])")
        page.evaluate("kiosk.send({type: 'play'})")  # as the touch on "Touch to play" sends it
        page.wait_for_selector('body[data-mode="visitor"] #rules:not([hidden])')
        assert page.locator("#about").is_hidden()


def test_a_flash_goes_with_its_move_and_the_paper_never_asks_for_a_key(browser_page, tmp_path,
                                                                       kalah_tape) -> None:
    """Quick game, the visitor first: pit 2's three seeds end in the visitor's store, an extra turn."""
    page = browser_page
    with _server(tmp_path, sound=False) as server:
        page.goto(server.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.wait_for_selector('body[data-control="yes"]')  # connected: the catalogues were loaded before
        # a language chosen while a flash shows (as its button chooses it): the flash says it in that language
        said = page.evaluate("""() => {
          kiosk.flash('flash.capture', {n: 3});
          kiosk.setLanguage('pl');
          const text = document.getElementById('flash').textContent;
          kiosk.setLanguage('en');
          kiosk.unflash();
          return text;
        }""")
        assert said == catalogue("pl")["flash.capture"].replace("{n}", "3")
        # whenever a move starts to be sown, is a flash of the move before still over the board?
        page.evaluate("""() => {
          window.flashAtSowing = [];
          new MutationObserver(() => flashAtSowing.push(document.getElementById('flash').classList.contains('show')))
            .observe(document.body, {attributes: true, attributeFilter: ['data-move-starts']});
        }""")
        page.locator('[data-action="play"]').tap()
        page.locator('[data-action="close-rules"]').tap()
        _your_move(page)
        # the cells the page sows, in order: exactly the path the server sent (the reference's sowing)
        page.evaluate("""() => {
          window.sownCells = [];
          const name = (el) => el.id || `${el.parentElement.id === 'top-row' ? 'top' : 'bottom'}:` +
            [...el.parentElement.children].indexOf(el);
          const added = (c) => c.target.classList.contains('sown') && !(c.oldValue || '').includes('sown');
          new MutationObserver((changes) => { for (const c of changes) if (added(c)) sownCells.push(name(c.target)); })
            .observe(document.getElementById('board'),
                       {attributes: true, attributeFilter: ['class'], attributeOldValue: true, subtree: true});
        }""")
        sent = page.evaluate("kiosk.state.board.paths['2']")
        page.locator('#bottom-row .pit[data-pit="2"]').tap()
        # shown, not only its words: a flash's text stays after it has gone, and an extra turn of the attract game
        # may have left these words there (under load, between the flash tried above and "Touch to play")
        page.wait_for_function(f"(f => f.classList.contains('show') && f.textContent === {EN['flash.again']!r})"
                               "(document.getElementById('flash'))")
        expected = [f"{row}:{col}" if row in ("top", "bottom") else row for row, col in sent]
        assert expected == ["bottom:2", "bottom:3", "bottom-store"]  # pit 2's three seeds: 3, 4, the store
        assert page.evaluate("sownCells") == expected
        # the next move, touched as soon as it may be: its sowing starts with the flash gone
        before, after = page.evaluate("""async () => {
          while (!document.querySelector('#bottom-row .pit.legal')) await new Promise((r) => setTimeout(r, 10));
          const flash = document.getElementById('flash'), before = flash.classList.contains('show');
          document.querySelector('#bottom-row .pit.legal').click();
          return [before, flash.classList.contains('show')];
        }""")
        assert not after, "the extra turn's flash stayed over the board into the next move"
        page.wait_for_selector('body[data-phase="thinking"], body[data-phase="your_turn"] #bottom-row .pit.legal')
        play_out(page)
        flashes = page.evaluate("flashAtSowing")
        assert len(flashes) >= 3 and not any(flashes), flashes
        # the PDP-1 has typed its offer of a new game (the game is counted once it has): not on this paper
        server.wait_for(lambda h: h["visitor_games"] >= 1, what="the game counted")
        time.sleep(0.3)  # anything typed meanwhile has reached the page
        paper = page.evaluate("kiosk.paper.text")
        assert "game over." in paper and "type any key" not in paper, paper[-200:]
        assert page.inner_text("#paper").rstrip().endswith(("wins.", "win.", "a draw."))


def _token_server(tmp_path, extra: str = "") -> KioskServer:
    config = write_config(tmp_path / "kiosk", attract_pause=0.4)
    config.write_text(config.read_text() + f'control_token = "{TOKEN}"\n' + extra)
    return KioskServer(config)


class Watchers:
    """Pages of other screens (WebSocket clients) held open in a thread of their own while Chromium runs."""

    def __init__(self, server: KioskServer, count: int) -> None:
        self.server, self.count = server, count
        self.loop = asyncio.new_event_loop()
        self.pages: list[Page] = []
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        for _ in range(count):
            self.pages.append(self.run(Page(server).__aenter__()))

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def knock(self) -> int:
        """One more screen tries to connect: 101 if it got in (it leaves at once), else the HTTP status."""
        async def knock() -> int:
            async with aiohttp.ClientSession() as session:
                try:
                    ws = await session.ws_connect(self.server.url + "/ws", origin=self.server.url)
                except aiohttp.WSServerHandshakeError as refused:
                    return refused.status
                await ws.close()
                return 101
        return self.run(knock())

    def close(self, n: int | None = None) -> None:
        for page in self.pages[:n] if n else list(self.pages):
            self.run(page.__aexit__())
            self.pages.remove(page)

    def stop(self) -> None:
        self.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def test_the_kiosks_page_always_gets_in_and_a_watching_page_says_it_watches(browser_context, tmp_path,
                                                                            kalah_tape) -> None:
    with _token_server(tmp_path) as server:  # max_connections = 4: three watchers, and the kiosk's place
        watchers = Watchers(server, 3)
        try:
            assert all(page.controls is False for page in watchers.pages)
            assert watchers.knock() == 503  # a fourth watcher: the last place is the kiosk's own
            kiosk = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
            kiosk.goto(f"{server.url}/?control={TOKEN}")
            kiosk.wait_for_selector('body[data-control="yes"] [data-action="play"]', state="visible")
            assert kiosk.locator("#watching").is_hidden()
            kiosk.reload()  # its old connection may still be open: it gets in all the same
            kiosk.wait_for_selector('body[data-control="yes"] [data-action="play"]', state="visible")

            # a fourth watching screen waits for a place; when one is free it watches, and says so
            gallery = browser_context.new_page()
            sent: list[str] = []
            gallery.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
            gallery.clock.install()  # its time runs as usual, and can be moved on to its next try
            gallery.goto(server.url + "/")
            gallery.wait_for_selector("#notice:not([hidden])")
            assert gallery.locator("body[data-control]").count() == 0  # no hello: refused
            watchers.close(1)
            for _ in range(20):  # its next try comes now, not after the back-off it reached: a place is free
                gallery.clock.fast_forward(60_000)
                if gallery.locator('body[data-control="no"] #watching').is_visible():
                    break
                gallery.wait_for_timeout(500)
            gallery.wait_for_selector('body[data-control="no"] #watching', state="visible", timeout=5_000)
            assert gallery.inner_text("#watching") == EN["watching"]
            assert gallery.locator('[data-action="play"]').is_hidden()
            assert gallery.locator("[data-choice]").first.is_hidden()
            kiosk.locator('[data-action="play"]').tap()
            kiosk.locator('[data-action="close-rules"]').tap()
            _your_move(kiosk)
            gallery.wait_for_selector('body[data-mode="visitor"][data-phase="your_turn"]')
            assert gallery.locator("#rules").is_hidden()  # the rules card is for the visitor, at the kiosk
            assert gallery.inner_text("#status") == EN["status.your_turn.player"]
            assert gallery.inner_text("#bottom-name") == EN["side.player"]
            assert gallery.locator("#bottom-row .pit.legal").count() == 0  # nothing lit to touch
            gallery.locator('#bottom-row .pit[data-pit="1"]').tap(force=True)  # (aria-disabled: it only watches)
            gallery.locator("#board").tap()
            gallery.wait_for_timeout(300)
            assert sent == [], f"a watching page sent {sent}"
            assert kiosk.locator('body[data-control="yes"] #bottom-row .pit.legal').count() > 0
            gallery.close()
        finally:
            watchers.stop()


def test_a_refused_page_backs_off_to_a_minute_and_the_log_says_so_once(browser_page, tmp_path, kalah_tape) -> None:
    page = browser_page
    config = write_config(tmp_path / "kiosk", attract_pause=0.4)
    config.write_text(config.read_text() + "max_connections = 1\n")
    with KioskServer(config) as server:
        watchers = Watchers(server, 1)  # the one place taken
        try:
            start = datetime.datetime(1960, 11, 30, 12, 0)
            # the page's waits run only when the test moves its clock, never by themselves: a slow host let a
            # wait pass before the test looked (it runs by itself once installed: an hour on is never the past)
            page.clock.install(time=start)
            page.clock.pause_at(start + datetime.timedelta(hours=1))
            page.goto(server.url + "/")
            waits = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]
            for n, wait in enumerate(waits, start=1):
                deadline = time.monotonic() + 20
                while page.evaluate("kiosk.retryWaits.length") < n:  # refused once more: it waits again
                    assert time.monotonic() < deadline, f"try number {n} not refused"
                    time.sleep(0.05)
                assert page.evaluate("kiosk.retryWaits") == waits[:n]
                if n < len(waits):
                    page.clock.run_for(wait)
            assert page.locator("body[data-control]").count() == 0
            watchers.close()  # a place is free: the page gets in at its next try
            page.clock.run_for(60000)
            page.wait_for_selector('body[data-control="yes"]')
        finally:
            watchers.stop()
        log = (config.parent / "state" / "kiosk.log").read_text()
    refused = [line for line in log.splitlines() if "a screen was refused" in line]
    assert len(refused) == 1, refused
    assert f"screens refused: {len(waits)} times" in log and "then a screen got in again" in log
    assert not [line for line in log.splitlines() if '"GET /ws' in line and " 503 " in line]  # not once a try
