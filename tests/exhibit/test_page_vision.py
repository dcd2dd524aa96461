"""What the eye and the zoom need of the exhibit's page (WCAG 2.2 AA), in Debian's Chromium on a real online server
and a real kiosk server: text grows with the browser's zoom (1.4.4: 200 % is emulated as a window of half the CSS
size at two device pixels a CSS pixel, and sizes are compared in device pixels); at 320 CSS px wide (1280 at 400 %)
nothing is cut off and the page scrolls down only (1.4.10); the text spacing of 1.4.12 breaks nothing; a visitor
who prefers less motion sees each move's final board at once and nothing pulses (2.3.3), and nothing flashes more
than three times a second (2.3.1); text and the board's marks stand out from what they sit on (1.4.3, 1.4.11); and
the kiosk's smallest text is at least 3 mm tall on its 10.1" screen in every language (the kiosk's own rule)."""

from __future__ import annotations

import pytest

from python_bridge.bench.kiosk_visit import CHROMIUM_ARGS
from tests.kiosk.kiosk_page_checks import (
    CONTRAST,
    FLASHES,
    SIZES,
    TEXT_SPACING,
    WATCH_FLASHES,
    layout_report,
    look_through,
)
from tests.kiosk.test_browser import _server
from tests.online.online_support import classic_server

pytestmark = pytest.mark.simh

LANGUAGES = ("en", "pl", "tl", "az")
YOUR_MOVE = 'body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal'
MM_10_INCH = 0.170  # the kiosk's smallest screen, 1280x800 at 10.1 inches


@pytest.fixture(scope="module")
def server(tmp_path_factory, kalah_tape):
    with classic_server(tmp_path_factory.mktemp("page-vision"), max_games=8) as started:
        yield started


@pytest.fixture(scope="module")
def browser(chromium):
    """One Chromium for the module; each check opens its own window (a context: its size, scale, media)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Window:
    """A page in a window of its own: ``width`` x ``height`` CSS px at ``scale`` device px a CSS px; any error of
    the page fails the test.  (The walks that measure sizes ask for reduced motion: each move drawn at once.)"""

    def __init__(self, browser, url: str, width: int, height: int, scale: float = 1, **options) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale,
                                           has_touch=True, **options)
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = url

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.context.close()
        assert not self.errors, self.errors

    def open(self, init_script: str | None = None):
        page = self.page
        if init_script:
            page.add_init_script(init_script)
        page.goto(self.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.wait_for_function("document.fonts.status === 'loaded'")
        return page


def _language(page, language: str) -> None:
    page.locator(f'[data-lang="{language}"]').tap()
    page.wait_for_function(f"document.documentElement.lang === '{language}'")


def _card(page, name: str, open_it: bool) -> None:
    page.locator(f'[data-action="{name if open_it else "close-" + name}"]').tap()
    page.wait_for_selector(f"#{name}:not([hidden])" if open_it else f"#{name}[hidden]", state="attached")


def _play(page) -> None:
    """The game begun (the quick one), the rules card closed if it showed, the visitor asked a move."""
    page.locator('[data-choice="quick"]').tap()
    page.locator('[data-action="play"]').tap()
    page.wait_for_selector('body[data-mode="visitor"]')
    if page.locator('[data-action="close-rules"]').is_visible():
        _card(page, "rules", False)
    page.wait_for_selector(YOUR_MOVE)
    page.wait_for_selector('body:not([data-sowing="yes"])')


def _move(page) -> bool:
    """One move of the visitor's (its last legal pit), then the visitor's turn again: False once the game is over."""
    turn = page.evaluate("kiosk.state.turn")
    page.locator("#bottom-row .pit.legal").last.tap()
    page.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")
    page.wait_for_selector(f'{YOUR_MOVE}, body[data-phase="game_over"]')
    page.wait_for_selector('body:not([data-sowing="yes"])')
    return page.locator('body[data-phase="game_over"]').count() == 0


def test_text_grows_with_the_browsers_zoom(server, browser) -> None:
    """The kiosk's 1280x800 at 100 % and at 200 % (640x400 CSS px, two device px a CSS px): every text at least 1.6
    times as large in device pixels, the reading text (the page's smallest) about twice, but on the board (its
    labels fit its corners, and the board the window's width); and at 200 % nothing cut off, off the screen across
    or under another box, the page scrolling down only."""
    sizes: dict[str, dict] = {}
    for zoom, (width, height) in ((1, (1280, 800)), (2, (640, 400))):
        with Window(browser, server.url, width, height, zoom, reduced_motion="reduce") as window:
            page = window.open()
            for state in ("start", "about"):
                if state == "about":
                    _card(page, "about", True)
                sizes[f"{state}@{zoom}"] = page.evaluate(SIZES)
                if zoom == 2:
                    problems = look_through(page, MM_10_INCH / 2)
                    assert not problems, f"200 %, {state}: " + "; ".join(problems)
    for state in ("start", "about"):
        at100, at200 = sizes[f"{state}@1"], sizes[f"{state}@2"]
        assert at100.keys() == at200.keys()
        grown = {key: at200[key] / at100[key] for key in at100}
        smallest = min(at100.values())
        reading = [grown[key] for key in at100 if at100[key] < smallest * 1.05 and "#board" not in key]
        assert min(grown.values()) >= 1.6, (state, sorted(grown.items(), key=lambda kv: kv[1])[:5])
        assert len(reading) >= 3 and min(reading) >= 1.9, (state, smallest, reading)


def _walk(page, states: tuple[str, ...], where: str) -> list[str]:
    """Each state in each language, looked through (every screenful down in English, the top in the others)."""
    problems = []
    for state in states:
        if state in ("about", "rules"):
            _card(page, state, True)
        if state == "your turn":
            _play(page)
        for language in LANGUAGES:
            _language(page, language)
            problems += [f"{where} {state} in {language}: {p}"
                         for p in look_through(page, MM_10_INCH, every_screenful=language == "en")]
        _language(page, "en")
        if state in ("about", "rules"):
            _card(page, state, False)
    return problems


def test_at_320_css_px_wide_the_page_scrolls_down_only(server, browser) -> None:
    """The kiosk's screen at 400 % (320x200 CSS px) in every state, and the cards on a narrow phone (320x568), in
    every language: nothing cut off, off the screen across, or under another box, and nothing to scroll across
    (WCAG 1.4.10)."""
    problems = []
    for width, height, states in ((320, 200, ("start", "about", "rules", "your turn")), (320, 568, ("about", "rules"))):
        with Window(browser, server.url, width, height, reduced_motion="reduce") as window:
            problems += _walk(window.open(), states, f"{width}x{height}")
    assert not problems, "\n".join(problems)


def test_wcag_text_spacing_breaks_nothing(server, browser) -> None:
    """Line height 1.5, paragraphs 2 em apart, letters 0.12 em and words 0.16 em further apart (WCAG 1.4.12), set
    by the visitor's own style sheet: on a 360x640 phone in every state and language, and on a 640x400 window (the
    kiosk's screen at 200 %), nothing cut off, off the screen or under another box.  (The kiosk's own one-screen
    layout at 1280x800, every zone of a fixed size, does not hold such spacing yet: docs/accessibility.md.)"""
    problems = []
    for width, height, states in ((360, 640, ("start", "about", "rules", "your turn")), (640, 400, ("start",))):
        with Window(browser, server.url, width, height, reduced_motion="reduce") as window:
            page = window.open()
            page.add_style_tag(content=TEXT_SPACING)
            assert page.evaluate("getComputedStyle(document.querySelector('#status')).letterSpacing") != "normal"
            problems += _walk(page, states, f"{width}x{height}")
    assert not problems, "\n".join(problems)


def test_less_motion_shows_each_move_at_once(server, browser) -> None:
    """prefers-reduced-motion: reduce: no seed sown one by one, no capture marked a moment, no flash over the board,
    nothing pulsing or fading; yet every move shown (its final board drawn)."""
    with Window(browser, server.url, 1280, 800, reduced_motion="reduce") as window:
        page = window.open(WATCH_FLASHES)
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert page.evaluate("document.getAnimations().length") == 0, "something moves in attract mode"
        _play(page)
        started = page.evaluate("kiosk.moveStarts")
        for _ in range(3):
            if not _move(page):
                break
            assert page.evaluate("document.getAnimations().length") == 0
            assert page.evaluate("JSON.stringify(kiosk.shown.bottom) === JSON.stringify(kiosk.state.board.bottom)")
        assert page.evaluate("kiosk.moveStarts") >= started + 2
        seen = page.evaluate(r"window.visionChanges.filter((c) => /\b(sown|captured|show)\b/.test(c.classes))")
        assert not seen, seen[:5]


def _contrast(page, states: tuple[str, ...], where: str) -> list[str]:
    problems = []
    for state in states:
        if state in ("about", "rules"):
            _card(page, state, True)
        if state == "your turn":
            _play(page)
        if state == "after a move":
            _move(page)
            assert page.locator("#board .last").count() == 1
        report = page.evaluate(CONTRAST)
        assert report["texts"] >= 4, (where, state, report)
        assert state not in ("your turn", "after a move") or report["marks"] >= 8, (where, state, report)
        problems += [f"{where} {state}: {p}" for p in report["problems"]]
        if state in ("about", "rules"):
            _card(page, state, False)
    return problems


def test_text_and_the_boards_marks_stand_out_and_nothing_flashes(server, browser) -> None:
    """Contrast: every text at least 4.5:1 against what it sits on (3:1 for large text), computed from the page's
    own colours with the WCAG formula (a translucent colour laid over what is behind it); the pits and stores 3:1
    against the board, a legal pit's ring and the last move's outline 3:1 against the board, the PDP-1's pits' ring
    3:1 against its hole; on the kiosk's screen in every state, and on a phone (its smaller text) in a game.
    Flashes, over the same game with its motion: no element changes its look (a class added or taken away) more
    than six times, three flashes, in any second; no animation repeats faster than three times a second; and the
    console's lamps, which follow the machine at ten looks a second, are together far smaller than the small safe
    area of WCAG's general flash threshold (a quarter of a 10 degree field, 341 x 256 px)."""
    with Window(browser, server.url, 1280, 800) as window:
        page = window.open(WATCH_FLASHES)
        problems = _contrast(page, ("start", "about", "rules", "your turn", "after a move"), "1280x800")
        _move(page)
        report = page.evaluate(FLASHES)
    with Window(browser, server.url, 360, 640) as window:
        problems += _contrast(window.open(), ("start", "your turn"), "360x640")
    assert not problems, "\n".join(problems)
    assert report["changes"] > 20, report  # the watch saw the sowing
    assert not report["fast"], report["fast"][:5]
    assert not report["animations"], report["animations"]
    assert 0 < report["lampArea"] < 0.25 * 341 * 256, report["lampArea"]


def test_the_kiosks_smallest_text_in_every_language(browser, tmp_path, kalah_tape) -> None:
    """On the kiosk's smallest screen (1280x800 at 10.1 inches), in attract mode (the demonstration's names on the
    board) and each card, in each of the four languages: every text's capitals at least 3 mm tall (5 mm for text
    read from afar), none cut off or off the screen.  (tests/kiosk/test_page_states.py measures every state in
    English and Polish.)"""
    problems, smallest = [], 1e9
    with _server(tmp_path, sound=False, think_rate=200_000) as kiosk, Window(browser, kiosk.url, 1280, 800) as window:
        page = window.open()
        page.wait_for_selector('body[data-mode="attract"] #bottom-row .pit')
        for state in ("attract", "about", "rules"):
            if state in ("about", "rules"):
                _card(page, state, True)
            for language in LANGUAGES:
                _language(page, language)
                report = layout_report(page, MM_10_INCH)
                problems += [f"{state} in {language}: {p}" for p in report["problems"]]
                smallest = min(smallest, report["smallest"]["mm"])
            _language(page, "en")
            if state in ("about", "rules"):
                _card(page, state, False)
    assert not problems, "\n".join(problems)
    assert smallest >= 3.0
