"""The exhibit's page by keyboard alone, and its two cards as modal dialogs, in Debian's Chromium on a real kiosk
server and SIMH (the dialogs on the online page and the browser edition's too: the pages are the same code,
js/dialogs.js and js/keys.js).

- The focus is always seen: every stop Tab reaches, a card's button and a pit that can be played show a ring at
  least 3:1 against what it sits on, computed from the page's own computed colours (WCAG 1.4.11, 2.4.7).
- "How to play" and "What is this?" are dialogs (role, aria-modal, named by their headings, read through the
  accessibility tree); opening one puts the focus in it, Tab and Shift+Tab stay in it, nothing behind it takes a
  key (key 1 sows nothing and the server is told nothing: the next move is the paper's only "you play") or a
  touch, and Escape (or its button, or its shade) closes it, the focus going back where it was.
- A whole game (4 pits x 3 seeds, level 1) played with page.keyboard alone: Tab to the visitor's row, the arrows
  along it to a legal pit, Enter or Space; the paper says "you play N" for each pit chosen.

The tests share one kiosk server, in their order: a card check, then a game; the game test starts one itself
if the server is in attract mode (run alone) and plays on the one in progress otherwise."""

from __future__ import annotations

import re

import pytest

from tests.exhibit.keyboard_game import (
    FOCUSED_PIT,
    LAST_PLAYED,
    PLAYED,
    YOUR_MOVE,
    focused,
    play_by_keyboard,
    start_by_keyboard,
    tab_to,
)
from tests.kiosk.kiosk_page_checks import catalogue
from tests.kiosk.test_browser import _server
from tests.web.served_folder import HELLO_MS

pytestmark = pytest.mark.simh

EN = catalogue("en")
STARTS = "kiosk.moveStarts"  # sowings begun on the page: a move sent sows at once

# The focused element's ring and what it sits on: an outline on the background behind the element, or, for a pit
# of the board (whose ring is drawn inside it, as its ::after's border), on the pit's own colour. Colours with
# alpha are laid over what is under them; the contrast is WCAG's, of relative luminances.
RING = r"""
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { what: "body" };
  const d = el.dataset;
  const what = d.action ? `[data-action=${d.action}]` : d.lang ? `[data-lang=${d.lang}]`
    : d.choice ? `[data-choice=${d.choice}]` : d.pit ? `${d.side} pit ${d.pit}` : el.id ? `#${el.id}` : el.tagName;
  const rgba = (c) => { const n = (c.match(/[\d.]+/g) || []).map(Number);
    return n.length >= 3 ? [n[0], n[1], n[2], n.length > 3 ? n[3] : 1] : [0, 0, 0, 0]; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const behind = (start) => { const layers = [];
    for (let a = start; a; a = a.parentElement) {
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]); };
  const pit = el.matches("#board .pit");
  const cs = getComputedStyle(el, pit ? "::after" : null);
  const style = pit ? (cs.content === "none" ? "none" : cs.borderTopStyle) : cs.outlineStyle;
  const width = parseFloat(pit ? cs.borderTopWidth : cs.outlineWidth) || 0;
  const on = behind(pit ? el : el.parentElement);
  const ring = over(rgba(pit ? cs.borderTopColor : cs.outlineColor), on);
  const [a, b] = [lum(ring), lum(on)].sort((x, y) => y - x);
  const ratio = Number(((a + 0.05) / (b + 0.05)).toFixed(2));
  return { what, style, width, ratio, visible: el.matches(":focus-visible") };
}
"""


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory, kalah_tape):
    """One kiosk for the file's tests: small fast games (4 pits x 3 seeds, level 1), a PDP-1 that thinks at once."""
    with _server(tmp_path_factory.mktemp("keyboard"), sound=False, think_rate=200_000) as server:
        yield server


def _assert_ring(ring: dict) -> None:
    assert ring["visible"] and ring["style"] not in ("none", "hidden") and ring["width"] >= 2, ring
    assert ring["ratio"] >= 3, f"the focus ring on {ring['what']} is {ring['ratio']}:1 against what it sits on"


def _inside(page, card: str) -> bool:
    return page.evaluate("(id) => document.getElementById(id).contains(document.activeElement)", card)


def _assert_modal(page, card: str, title: str) -> None:
    """``card`` is open as a modal dialog named ``title``, the focus in it and kept there; the page behind it takes
    no key and no touch (inert), and key 1 sows nothing (a visitor's turn, pit 1 legal, when the tests press it)."""
    dialog = page.get_by_role("dialog", name=title)
    assert dialog.count() == 1 and dialog.is_visible() and dialog.get_attribute("id") == card
    assert dialog.get_attribute("aria-modal") == "true"
    assert _inside(page, card), f"the focus is not in {card} as it opens"
    for key in ("Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"):
        page.keyboard.press(key)
        assert _inside(page, card), f"{key} took the focus out of {card}"
    assert page.evaluate("['board', 'actions'].every((id) => document.getElementById(id).closest('[inert]'))")
    starts = page.evaluate(STARTS)
    page.keyboard.press("1")
    assert page.evaluate(STARTS) == starts, "key 1 played a pit behind an open card"
    assert dialog.is_visible()


def test_the_focus_is_always_seen_with_3_to_1_contrast(kiosk, browser_page) -> None:
    page = browser_page
    page.goto(kiosk.url + "/")
    page.wait_for_selector('[data-action="play"]', state="visible")
    page.wait_for_function("document.querySelectorAll('#bottom-row .pit').length === 4")
    seen: dict[str, dict] = {}
    for _ in range(30):  # round the whole page once
        page.keyboard.press("Tab")
        ring = page.evaluate(RING)
        if ring["what"] in seen or ring["what"] == "body":
            break
        seen[ring["what"]] = ring
    stops = set(seen)
    assert {"[data-lang=en]", "[data-lang=az]", "[data-action=rules]", "[data-action=about]",
            "[data-choice=fair]", "[data-action=play]"} <= stops, stops
    # one pit of the visitor's row is a stop: which one follows the demonstration's game, as far as it has gone
    assert [s for s in stops if "pit" in s] in ([f"visitor pit {n}"] for n in range(1, 5)), stops
    for ring in seen.values():
        _assert_ring(ring)
    # a card's button, on the card
    tab_to(page, '[data-action="about"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#about:not([hidden])")
    _assert_ring(page.evaluate(RING))
    page.keyboard.press("Escape")
    page.wait_for_selector("#about", state="hidden")
    assert focused(page, '[data-action="about"]')


def test_the_cards_are_modal_dialogs_on_the_kiosk(kiosk, browser_page) -> None:
    page = browser_page
    page.goto(kiosk.url + "/")
    page.wait_for_selector('body[data-mode="attract"] [data-action="play"]', state="visible")
    # a game begun by keys: "How to play" opens by itself, the focus on its button
    tab_to(page, '[data-action="play"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#rules:not([hidden])")
    page.wait_for_selector(YOUR_MOVE)
    assert page.evaluate("kiosk.state.legal").count(1) == 1
    _assert_modal(page, "rules", EN["rules.title"])
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules", state="hidden")
    # the "play" button that had the focus is gone with the game begun: the focus on the first pit to play
    assert focused(page, '#bottom-row .pit.legal[tabindex="0"]')

    # "How to play" again, from its button by Space; a touch on the board behind it plays nothing
    tab_to(page, '[data-action="rules"]', backwards=True)
    page.keyboard.press(" ")
    page.wait_for_selector("#rules:not([hidden])")
    _assert_modal(page, "rules", EN["rules.title"])
    pit = page.locator('#bottom-row .pit[data-pit="1"]').bounding_box()
    x, y = pit["x"] + pit["width"] / 2, pit["y"] + pit["height"] / 2
    starts = page.evaluate(STARTS)
    assert page.evaluate(f"document.elementFromPoint({x}, {y}).closest('#board') === null")
    page.touchscreen.tap(x, y)
    assert page.evaluate(STARTS) == starts, "a touch behind the card played a pit"
    if page.locator("#rules").is_visible():  # (the touch fell on the card: Escape; on its shade, it closed it)
        page.keyboard.press("Escape")
    page.wait_for_selector("#rules", state="hidden")
    assert focused(page, '[data-action="rules"]')

    # "What is this?" from its button by Enter, closed by its own button (Enter): the focus back on the button
    page.keyboard.press("Tab")
    assert focused(page, '[data-action="about"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#about:not([hidden])")
    _assert_modal(page, "about", EN["about.title"])
    tab_to(page, '[data-action="close-about"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#about", state="hidden")
    assert focused(page, '[data-action="about"]')

    # the server was told nothing meanwhile: the move played now is the first "you play" on the paper
    tab_to(page, "#bottom-row .pit")
    assert page.evaluate(FOCUSED_PIT) == 1 and page.evaluate(PLAYED) == 0
    page.keyboard.press("Enter")
    page.wait_for_function(f"({PLAYED}) > 0")
    assert page.evaluate(PLAYED) == 1 and page.evaluate(LAST_PLAYED) == "you play 1"


def test_a_whole_game_by_keyboard_alone(kiosk, browser_page) -> None:
    page = browser_page
    page.emulate_media(reduced_motion="reduce")  # each move's board at once: the game's keys are what is tested
    page.goto(kiosk.url + "/")
    page.wait_for_selector('body[data-mode="attract"] [data-action="play"], ' + YOUR_MOVE)
    if page.locator('body[data-mode="attract"]').count():
        start_by_keyboard(page)  # (run alone; after the dialogs' test the game they began goes on)
    moves = play_by_keyboard(page, on_first_pit=lambda: _assert_ring(page.evaluate(RING)))  # (a green pit's ring)
    assert page.locator('body[data-phase="game_over"]').count() == 1 and moves >= 2
    assert re.search(r"win|draw", page.inner_text("#status"), re.I)
    assert "game over." in page.inner_text("#paper")


def _said_in_the_accessibility_tree(page, text: str) -> bool:
    """``text`` is a text of Chromium's own accessibility tree (what a screen reader is given), not one it ignores."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    return any(not n.get("ignored") and n.get("name", {}).get("value") == text for n in nodes)


def test_the_cards_are_modal_dialogs_online_and_in_the_browser_edition(site_url, browser_page) -> None:
    """The online page and the browser edition's (whose "What is this?" says, in each language, that the PDP-1 runs
    in the visitor's own browser as SIMH 3.8.1 compiled to WebAssembly: a paragraph a screen reader reaches)."""
    page = browser_page
    page.goto(site_url + "/")
    page.wait_for_selector("#languages button", timeout=HELLO_MS)  # (the server's or the Worker's hello drawn)
    browser_edition = page.evaluate("document.body.dataset.edition === 'browser'")
    tab_to(page, '[data-action="play"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('body[data-mode="visitor"]')
    if page.locator("#rules").is_hidden():  # (shown by itself at a first game: else from its button)
        tab_to(page, '[data-action="rules"]', backwards=True)
        page.keyboard.press("Enter")
    page.wait_for_selector(YOUR_MOVE)
    _assert_modal(page, "rules", EN["rules.title"])
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules", state="hidden")
    assert focused(page, "#bottom-row .pit, [data-action=rules]")
    tab_to(page, '[data-action="about"]', backwards=True)
    page.keyboard.press("Enter")
    _assert_modal(page, "about", EN["about.title"])
    _assert_ring(page.evaluate(RING))
    for language in ("en", "pl", "tl", "az") if browser_edition else ("en",):
        page.evaluate(f"kiosk.setLanguage('{language}')")  # (the language buttons are behind the card: inert)
        page.wait_for_function(f"document.documentElement.lang === '{language}'")
        said = _said_in_the_accessibility_tree(page, catalogue(language)["about.browser"])
        assert said == browser_edition, (language, said)
    page.keyboard.press("Escape")
    page.wait_for_selector("#about", state="hidden")
    assert focused(page, '[data-action="about"]')
    # nothing was played behind the cards: key 1 plays now, the paper's first move
    assert page.evaluate(PLAYED) == 0
    page.keyboard.press("1")
    page.wait_for_function(f"({PLAYED}) > 0")
    assert page.evaluate(LAST_PLAYED) == "you play 1"
