"""What the zoom needs of the exhibit's page (WCAG 2.2 AA), in Debian's Chromium on a real online server: text
grows with the browser's zoom (1.4.4: 200 % is emulated as a window of half the CSS size at two device pixels a CSS
pixel, and sizes are compared in device pixels), at each step from 100 % on; and at 320 CSS px wide (1280 at 400 %)
nothing is cut off and the page scrolls down only (1.4.10); the first on the browser edition's page too
(``site_url``).  (A file of its own beside ``test_page_vision``, so that two test workers share the page's longest
checks.)"""

from __future__ import annotations

import pytest

from tests.exhibit.page_vision_support import MAIN_TEXTS, MM_10_INCH, ZOOMS, Window, _card, _walk
from tests.kiosk.kiosk_page_checks import (
    SIZES,
    look_through,
)

pytestmark = pytest.mark.simh


def test_text_grows_with_the_browsers_zoom(site_url, browser) -> None:
    """The kiosk's 1280x800 at 100 % and at 200 % (640x400 CSS px, two device px a CSS px): every text at least 1.6
    times as large in device pixels, the reading text (the page's smallest) about twice, but on the board (its
    labels fit its corners, and the board the window's width); and at 200 % nothing cut off, off the screen across
    or under another box, the page scrolling down only.  Online and in the browser edition (its "What is this?"
    card a paragraph longer)."""
    sizes: dict[str, dict] = {}
    with Window(browser, site_url, 1280, 800, reduced_motion="reduce") as window:
        page = window.open()
        for zoom, (width, height) in ((1, (1280, 800)), (2, (640, 400))):
            if zoom == 2:
                _card(page, "about", False)
                window.zoom(zoom, width, height)  # (the page zoomed where it is, as a visitor zooms it)
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


def test_at_320_css_px_wide_the_page_scrolls_down_only(server, browser) -> None:
    """The kiosk's screen at 400 % (320x200 CSS px) in every state, and the cards on a narrow phone (320x568), in
    every language: nothing cut off, off the screen across, or under another box, and nothing to scroll across
    (WCAG 1.4.10)."""
    problems = []
    for width, height, states in ((320, 200, ("start", "about", "rules", "your turn")), (320, 568, ("about", "rules"))):
        with Window(browser, server.url, width, height, reduced_motion="reduce") as window:
            problems += _walk(window.open(), states, f"{width}x{height}")
    assert not problems, "\n".join(problems)
