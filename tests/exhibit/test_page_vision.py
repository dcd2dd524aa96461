"""What the eye and the zoom need of the exhibit's page (WCAG 2.2 AA), in Debian's Chromium on a real online server
and a real kiosk server: text grows with the browser's zoom (1.4.4: 200 % is emulated as a window of half the CSS
size at two device pixels a CSS pixel, and sizes are compared in device pixels), at each step from 100 % on; at 320
CSS px wide (1280 at 400 %) nothing is cut off and the page scrolls down only (1.4.10); the text spacing of 1.4.12
breaks nothing, on a phone, at 200 % and on the kiosk's own 1280x800 screen in every state; a visitor
who prefers less motion sees each move's final board at once and nothing pulses (2.3.3), and nothing flashes more
than three times a second (2.3.1); text and the board's marks stand out from what they sit on (1.4.3, 1.4.11); and
the kiosk's smallest text is at least 3 mm tall on its 10.1" screen in every language (the kiosk's own rule)."""

from __future__ import annotations

import pytest

from python_bridge.bench.kiosk_visit import CHROMIUM_ARGS
from tests.browser import play_out
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


ZOOMS = ((1, 1920, 1080), (1.25, 1536, 864), (1.5, 1280, 720), (2, 960, 540))  # a 1920x1080 window, zoomed
# the status line, "How to play" and the main button (Touch to play), by their places on the page (SIZES' keys)
MAIN_TEXTS = ("#kiosk>#messages>#status", "#kiosk>#bar>button[1]", "#kiosk>#actions>div[4]>button[0]")


def test_text_grows_at_each_step_of_the_browsers_zoom(server, browser) -> None:
    """A 1920x1080 window at 100, 125, 150 and 200 % zoom (each a window of 1/zoom the CSS px, zoom device px a CSS
    px, as the browser makes it): every text a visitor sees (the status line, the buttons, the choices, the
    typewriter's and the board's) and the "What is this?" card's 2 % larger in device pixels at each step (1.4.4:
    not only once the window is as narrow as a phone's, near 200 %), and nothing cut off, off the screen or under
    another box at any step."""
    sizes = []
    for zoom, width, height in ZOOMS:
        with Window(browser, server.url, width, height, zoom, reduced_motion="reduce") as window:
            page = window.open()
            problems, seen = look_through(page, MM_10_INCH), page.evaluate(SIZES)
            _card(page, "about", True)
            problems += look_through(page, MM_10_INCH)
            sizes.append({**seen, **page.evaluate(SIZES)})
            assert not problems, f"{zoom:.0%}: " + "; ".join(problems)
    common = set.intersection(*map(set, sizes))
    assert set(MAIN_TEXTS) <= common and sum("#about>" in key for key in common) >= 3, sorted(common)
    for (zoom, _, _), before, after in zip(ZOOMS[1:], sizes[:-1], sizes[1:], strict=True):
        small = {key: (round(before[key], 1), round(after[key], 1)) for key in common
                 if after[key] < 1.02 * before[key]}
        assert not small, f"not 2 % larger at {zoom:.0%}: {small}"


def _in_every_language(page, what: str, screenfuls: tuple[str, ...] = ("en",), sizes: bool = False) -> list[str]:
    """The page as it is, in each language, looked through (every screenful down in ``screenfuls``' languages, the
    top in the others; the kiosk's sizes too if ``sizes``); then English again."""
    problems = []
    for language in LANGUAGES:
        _language(page, language)
        problems += [f"{what} in {language}: {p}" for p in
                     look_through(page, MM_10_INCH, every_screenful=language in screenfuls, sizes=sizes)]
    _language(page, "en")
    return problems


def _walk(page, states: tuple[str, ...], where: str, screenfuls: tuple[str, ...] = ("en",),
          sizes: bool = False) -> list[str]:
    """Each state in each language, looked through (_in_every_language)."""
    problems = []
    for state in states:
        if state in ("about", "rules"):
            _card(page, state, True)
        if state == "your turn":
            _play(page)
        problems += _in_every_language(page, f"{where} {state}".strip(), screenfuls, sizes)
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
    kiosk's screen at 200 %), nothing cut off, off the screen or under another box.  (The kiosk's own screen: the
    next test.)"""
    problems = []
    for width, height, states in ((360, 640, ("start", "about", "rules", "your turn")), (640, 400, ("start",))):
        with Window(browser, server.url, width, height, reduced_motion="reduce") as window:
            page = window.open()
            page.add_style_tag(content=TEXT_SPACING)
            assert page.evaluate("getComputedStyle(document.querySelector('#status')).letterSpacing") != "normal"
            problems += _walk(page, states, f"{width}x{height}")
    assert not problems, "\n".join(problems)


def _scroll_by_touch(page, x: int, y: int) -> None:
    """A finger on the screen at (x, y) drawn up 300 px, as a visitor scrolls a page down: a touch, no tap."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 21):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 15 * step}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("scrollY > 0")


def test_wcag_text_spacing_on_the_kiosks_own_screen(browser, tmp_path, kalah_tape) -> None:
    """The same spacing on the kiosk's own screen, 1280x800 at arm's length (10.1"): in attract mode, each card, the
    visitor's turn, the game over, a choice made and the PDP-1 thinking, each in every language, nothing cut off,
    off the screen or under another box, and the kiosk's own sizes kept (capitals 3 mm, 5 mm for text read from
    afar, targets 15 mm).  The page, taller than the screen then, scrolls down, and a finger that scrolls it in
    attract mode starts no game (the choices below stay within reach).  Touches go to what stays in place (the
    board; the choices at the game over): in attract mode the page under the board moves as the demonstration's
    words change.  The PDP-1 thinks at 1,000 memory cycles a second: a quick game at the "gentle" level thinks a
    few seconds in all, the first thought at the "fair" level some 9 s, and it is still thinking once looked at."""
    with _server(tmp_path, sound=False, think_rate=1000) as kiosk, \
            Window(browser, kiosk.url, 1280, 800, reduced_motion="reduce") as window:
        page = window.open()
        page.wait_for_selector('body[data-mode="attract"] #bottom-row .pit')
        page.add_style_tag(content=TEXT_SPACING)
        problems = _in_every_language(page, "attract", LANGUAGES, sizes=True)
        assert not problems, "\n".join(problems)
        _scroll_by_touch(page, 900, 500)  # from the status line, under the board
        page.evaluate("kiosk.send({type: 'choose', strength: 'gentle'})")  # (answered after any touch before it)
        page.wait_for_selector('[data-choice="gentle"].chosen')
        assert page.locator('body[data-mode="attract"]').count() == 1, "a finger that scrolled started a game"
        problems += _walk(page, ("about", "rules"), "", LANGUAGES, sizes=True)
        page.locator("#top-name").tap()  # a touch on the board starts a game (the quick one)
        page.wait_for_selector("#rules:not([hidden])")  # (by itself, at the first game after attract mode)
        _card(page, "rules", False)
        page.wait_for_selector(YOUR_MOVE)
        problems += _in_every_language(page, "your turn", LANGUAGES, sizes=True)
        play_out(page, last=True)
        problems += _in_every_language(page, "game over", LANGUAGES, sizes=True)
        page.locator('[data-choice="fair"]').tap()
        page.wait_for_selector('[data-choice="fair"].chosen')
        problems += _in_every_language(page, "a choice made", LANGUAGES, sizes=True)
        page.locator('[data-action="new-game"]').tap()
        page.wait_for_selector(YOUR_MOVE)
        page.locator("#bottom-row .pit.legal").first.tap()
        page.wait_for_selector('body[data-phase="thinking"]')
        problems += _in_every_language(page, "thinking", LANGUAGES, sizes=True)
        assert page.locator('body[data-phase="thinking"]').count() == 1, "the PDP-1 answered before the look ended"
        assert page.evaluate("document.documentElement.scrollHeight > innerHeight")  # (the spacing's room: scrolled)
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
