"""What a visitor's page must show of a game a cross-check mismatch stopped, whichever front end stopped it (the
online exhibit's server, the browser edition's Worker): the same page, the same words, the same checks.

Why one helper: the two front ends reach the state in their own ways (a server's pdp1, SIMH as WebAssembly), and the
page must say the same in both -- that the game was stopped, both moves in the visitor's language, once in the live
region; nothing on the board to touch; "New game" offered -- and meet WCAG 2.2 AA there as everywhere else.
"""

from __future__ import annotations

from tests.exhibit.axe_check import axe_problems
from tests.kiosk.kiosk_page_checks import catalogue, look_through

STOPPED = 'body[data-mode="visitor"][data-phase="mismatch"]'
# every text the live region takes, collected from before the page's own scripts run
SAID = r"""
document.addEventListener("DOMContentLoaded", () => {
  window.__said = [];
  const region = document.getElementById("announce");
  new MutationObserver(() => { const text = region.textContent.trim(); if (text) window.__said.push(text); })
    .observe(region, { childList: true, characterData: true, subtree: true });
});
"""
# the sizes the state is looked at: a phone (the page scrolls down) and the kiosk's screen (it does not); mm a px
SIZES = ((390, 844, 0.16), (1280, 800, 0.170))


def words_for(language: str, pdp1: int, reference: int) -> tuple[str, str]:
    """The status line and the line under it, as the catalogue has them, for a pit played where another was expected."""
    words = catalogue(language)
    return (words["status.mismatch"],
            words["mismatch.pits"].replace("{pdp1}", str(pdp1)).replace("{reference}", str(reference)))


def assert_stopped(page, language: str, pdp1: int, reference: int) -> None:
    """The page of a game stopped because the PDP-1 played ``pdp1`` where the reference expected ``reference``: the
    words (status, detail), said once in the live region (after a moment in which anything more would have come),
    no pit to touch, and "New game" there to take."""
    page.wait_for_selector(STOPPED)
    status, detail = words_for(language, pdp1, reference)
    # (once the board has shown the visitor's last move: the words follow the board)
    page.wait_for_function("(status) => document.getElementById('status').textContent === status", arg=status)
    assert page.inner_text("#detail") == detail
    page.wait_for_function("(detail) => (window.__said || []).some((text) => text.includes(detail))", arg=detail)
    page.wait_for_timeout(1500)  # (the region gathers sentences for at most a second: a repeat would be in by now)
    said = page.evaluate("window.__said")
    assert sum(text.count(detail) for text in said) == 1 and sum(text.count(status) for text in said) == 1, said
    assert page.locator("#bottom-row .pit.legal").count() == 0
    assert page.evaluate("[...document.querySelectorAll('#bottom-row .pit')].every("
                         "(b) => b.getAttribute('aria-disabled') === 'true')")
    assert page.locator('[data-action="new-game"]').is_visible()
    assert page.inner_text("#console-status") in ("", catalogue(language)["console.stopped"])


def look_problems(page, where: str) -> list[str]:
    """axe-core's WCAG 2.2 AA findings and the layout's (nothing cut off, off the screen or under another box) on the
    page as it is now, at each of ``SIZES``; the viewport is put back to the kiosk's 1280x800."""
    problems = []
    for width, height, mm_per_px in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        problems += [f"{where} at {width}x{height}: {p}" for p in look_through(page, mm_per_px)]
        problems += axe_problems(page, f"{where} at {width}x{height}")
    return problems
