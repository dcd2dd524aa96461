"""The board as a screen reader reads it, in Debian's Chromium: every pit a button named by its owner, its
number and its seeds in the page's language ("Your pit 3: 4 seeds"), the stores named too, the pits that
cannot be played marked so; and the page may be zoomed.  Read from the accessibility tree (Playwright's
roles and names), not from the page's own markup."""

from __future__ import annotations

import re

import pytest

from tests.kiosk.test_browser import _server, _your_move

pytestmark = pytest.mark.simh

# the names each language gives (the visitor's pit, the PDP-1's pit, the visitor's store, a count's words)
NAMES = {
    "en": (r"Your pit {pit}: {seeds}", r"The PDP-1's pit {pit}: {seeds}", r"Your store: {seeds}", r"\d+ seeds?"),
    "pl": (r"Twój dołek {pit}: {seeds}", r"Dołek {pit} PDP-1: {seeds}", r"Twój kalah: {seeds}",
           r"\d+ (ziarno|ziarna|ziaren)"),
    "tl": (r"Iyong hukay {pit}: {seeds}", r"Hukay {pit} ng PDP-1: {seeds}", r"Iyong kalah: {seeds}",
           r"\d+ (na )?buto"),
    "az": (r"Sizin çuxur {pit}: {seeds}", r"PDP-1-in çuxuru {pit}: {seeds}", r"Sizin kalah: {seeds}", r"\d+ toxum"),
}
PITS = 4  # the test kiosk's game


def _named(pattern: str, pit: int, seeds: str) -> re.Pattern[str]:
    return re.compile("^" + pattern.format(pit=pit, seeds=f"({seeds})") + "$")


def _polish_count(n: int) -> str:
    """Polish's three numbers of a count (1 ziarno, 2-4 ziarna, 5-21 ziaren, 22-24 ziarna ...)."""
    if n == 1:
        return "ziarno"
    return "ziarna" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "ziaren"


def test_every_pit_and_store_is_named_in_the_pages_language_and_the_unplayable_ones_marked(browser_page, tmp_path,
                                                                                             kalah_tape) -> None:
    page = browser_page
    with _server(tmp_path, sound=False, think_rate=200_000) as server:
        page.goto(server.url + "/")
        viewport = page.get_attribute('meta[name="viewport"]', "content") or ""
        assert "maximum-scale" not in viewport and "user-scalable" not in viewport  # pinch zoom allowed
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.locator('[data-action="play"]').tap()
        page.locator('[data-action="close-rules"]').tap()
        _your_move(page)
        legal = page.evaluate("kiosk.state.legal")
        counts = page.evaluate("kiosk.state.board")
        for language, (mine, theirs, store, seeds) in NAMES.items():
            page.locator(f'[data-lang="{language}"]').tap()
            page.wait_for_function(f"document.documentElement.lang === '{language}'")
            for pit in range(1, PITS + 1):
                button = page.get_by_role("button", name=_named(mine, pit, seeds))
                assert button.count() == 1, (language, pit)
                label = button.get_attribute("aria-label") or ""
                assert re.search(rf"\b{counts['bottom'][pit - 1]}\b", label), (label, counts)
                assert (button.get_attribute("aria-disabled") == "false") == (pit in legal), (language, pit, legal)
                other = page.get_by_role("button", name=_named(theirs, pit, seeds))
                assert other.count() == 1 and other.get_attribute("aria-disabled") == "true", (language, pit)
            assert page.get_by_role("img", name=_named(store, 0, seeds)).count() == 1, language
        page.locator('[data-lang="pl"]').tap()
        page.wait_for_function("document.documentElement.lang === 'pl'")
        for pit in range(1, PITS + 1):
            n = counts["bottom"][pit - 1]
            name = page.get_by_role("button", name=re.compile(f"^Twój dołek {pit}:")).get_attribute("aria-label")
            assert name == f"Twój dołek {pit}: {n} {_polish_count(n)}", name
