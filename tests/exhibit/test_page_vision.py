"""What the eye needs of the exhibit's page (WCAG 2.2 AA), in Debian's Chromium on a real online server and a real
kiosk server: the text spacing of 1.4.12 breaks nothing, on a phone, at 200 % and on the kiosk's own 1280x800 screen
in every state; a visitor who prefers less motion sees each move's final board at once and nothing pulses (2.3.3),
and nothing flashes more than three times a second (2.3.1); text and the board's marks stand out from what they sit
on (1.4.3, 1.4.11); and the kiosk's smallest text is at least 3 mm tall on its 10.1" screen in every language (the
kiosk's own rule).  Zoom and reflow are ``test_page_zoom``'s; the server and the browser are ``conftest``'s."""

from __future__ import annotations

import pytest

from tests.browser import play_out
from tests.exhibit.page_vision_support import (
    LANGUAGES,
    MM_10_INCH,
    YOUR_MOVE,
    Window,
    _card,
    _contrast,
    _in_every_language,
    _language,
    _move,
    _play,
    _scroll_by_touch,
    _walk,
)
from tests.kiosk.kiosk_page_checks import (
    FLASHES,
    TEXT_SPACING,
    WATCH_FLASHES,
    layout_report,
)
from tests.kiosk.test_browser import _server

pytestmark = pytest.mark.simh


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
