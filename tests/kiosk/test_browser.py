"""The kiosk page in a real Chromium (Debian's /usr/bin/chromium driven by Playwright), on the real
kiosk server and SIMH.

On each of the four screens the museum names (tests/kiosk/kiosk_page_checks.py) a visitor plays a
whole game: attract mode, the choices, the rules card shown by itself, a language switch in which
every visible string changes, a wrong tap and its hint, a double tap that plays one move, the PDP-1
thinking under its lit console, the end, the "What is this?" panel; at every state nothing is cut
off or scrolls, no target is under 15 mm, far text is 5 mm tall and the board's box does not move.
Another test reloads the page and kills the pdp1 in a game.  Screenshots of every state are saved
in artifacts/kiosk/ (git-ignored), named by screen and state.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from tests.kiosk.kiosk_page_checks import (
    SCREENS,
    ZONES,
    Screen,
    assert_layout,
    board_box,
    box,
    catalogue,
    untranslated,
    visible_strings,
)
from tests.kiosk.kiosk_support import ROOT, KioskServer, write_config

pytestmark = pytest.mark.simh

SHOTS = ROOT / "artifacts" / "kiosk"
PLAYED = "(kiosk.paper.text.match(/you play/g) || []).length"  # the page's whole sheet (it draws the last lines)
EN = catalogue("en")


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _wait_phase(page, mode: str, phase: str, timeout: float = 20_000) -> None:
    page.wait_for_selector(f'body[data-mode="{mode}"][data-phase="{phase}"]', timeout=timeout)


def _your_move(page, timeout: float = 20_000) -> None:
    """The visitor's turn, the board settled (the sowing shown) and the legal pits lit."""
    page.wait_for_selector('body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal', timeout=timeout)


def _counts(page) -> list[str]:
    """The seeds drawn in every pit and store, once the sowing on the page is over."""
    page.wait_for_selector('body:not([data-sowing="yes"])')
    return page.eval_on_selector_all("#board .count", "els => els.map((e) => e.textContent)")


def _server(tmp_path: Path, idle: float = 30, pie_rule: bool = False, sound: bool = True,
            think_rate: int = 4000) -> KioskServer:
    """Small fast games; the PDP-1's thinking paced at 4,000 memory cycles a second: its first thought at
    the "fair" level, some 9,000 cycles, lasts over 2 s of wall time however fast the host (a pace only
    slows), long enough to be touched 0.7 s after it began; a whole game thinks about 22 s.  A test that
    never touches the page while the PDP-1 thinks may set a faster ``think_rate``."""
    config = write_config(tmp_path / "kiosk", idle=idle, countdown=2, attract_pause=0.4,
                          extra_kiosk=f"think_rate = {think_rate}" + ("" if sound else "\nsound = false"))
    text = config.read_text().replace("level = 3", "level = 1")
    if pie_rule:  # the PDP-1 opens and the visitor may swap
        text = text.replace('first = "visitor"', 'first = "pdp-1"\nvariants = ["pie-rule"]')
    config.write_text(text)
    return KioskServer(config)


def _switch_languages(page, screen: Screen, state: str) -> None:
    """Each language in turn: <html lang> follows, every visible string changes and none is English."""
    english = visible_strings(page)
    assert english, "no strings on the page"
    zones = {zone: box(page, zone) for zone in ZONES}
    for language in ("pl", "tl", "az"):
        page.locator(f'[data-lang="{language}"]').tap()
        page.wait_for_function(f"document.documentElement.lang === '{language}'")
        assert page.locator(f'[data-lang="{language}"]').inner_text() in ("Polski", "Tagalog", "Azərbaycan")
        wrong = untranslated(english, visible_strings(page), language)
        assert not wrong, f"{screen.name} {state} in {language}: " + "; ".join(wrong)
        assert_layout(page, screen, f"{state} in {language}")
        moved = [zone for zone in ZONES if box(page, zone) != zones[zone]]
        assert not moved, f"{screen.name} {state}: {moved} moved or changed size in {language}"
        _shot(page, f"{screen.name}-{state}-{language}")
    page.locator('[data-lang="en"]').tap()
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert visible_strings(page) == english


def _double_tap_then_touch_while_thinking(page, screen: Screen, box: dict, name: str) -> int:
    """A double tap plays one move (the seeds sown at once); then the PDP-1 thinks under its lit console, and
    a touch while it thinks gets its hint.  Needs a game whose PDP-1 thinks for seconds: ``_server``'s pace
    at the "fair" level.  Returns the pit played."""
    played = page.evaluate(PLAYED)
    # a pit whose last seed falls short of the store (an extra turn would skip the PDP-1's thinking)
    pit = page.evaluate("""() => { const s = kiosk.state, m = s.board.bottom.length;
        return s.legal.find((p) => s.board.bottom[p - 1] % (2 * m + 1) !== m - p + 1); }""")
    box_of_pit = page.locator(f'#bottom-row .pit.legal[data-pit="{pit}"]').bounding_box()
    x, y = box_of_pit["x"] + box_of_pit["width"] / 2, box_of_pit["y"] + box_of_pit["height"] / 2
    touched = time.monotonic()
    page.touchscreen.tap(x, y)  # two touches in quick succession, as an eager finger does
    page.touchscreen.tap(x, y)
    page.wait_for_selector('body[data-phase="thinking"]')
    # the console counts the thinking's 1960 seconds as its lights come
    page.wait_for_function("kiosk.lights !== null && kiosk.lights.phase === 'thinking' && kiosk.lights.seconds > 0")
    assert page.inner_text("#console-status").startswith(EN["console.thinking"].split("{")[0])
    assert page.locator("#console .lamp.on").count() > 0
    _shot(page, f"{name}-sowing-and-thinking")
    time.sleep(max(0.0, touched + 0.7 - time.monotonic()))  # a touch this long after the move is a new one
    page.locator('#bottom-row .pit').last.tap(force=True)  # (aria-disabled while it thinks: a touch still gets a hint)
    page.wait_for_function(f"document.getElementById('detail').textContent === {EN['hint.thinking']!r}")
    _shot(page, f"{name}-thinking-hint")
    assert_layout(page, screen, "thinking")
    assert board_box(page) == box
    page.wait_for_selector('body[data-phase="your_turn"], body[data-phase="game_over"]')
    _your_move(page) if page.locator('body[data-phase="your_turn"]').count() else None
    time.sleep(0.5)  # a second move, had it been sent, would have been played by now
    assert page.evaluate(PLAYED) == played + 1, "a double tap played two moves"
    assert re.search(r"pdp-1 plays \d", page.inner_text("#paper"))
    return pit


# make test plays the whole game on the smallest screen (1280x800 at 10.1 inches, the worst case for
# sizes, and the one with the countdown); the three others, at about 75 s each, run with
# `make test-screens` (pytest -m screens), to keep make test within five minutes on two cores.
SCREEN_CASES = [pytest.param(s, id=s.name, marks=() if s.name.startswith("1280") else pytest.mark.screens)
                for s in SCREENS]


@pytest.mark.parametrize("screen", SCREEN_CASES)
def test_a_visitor_plays_a_whole_game_on_each_screen(screen, browser_page, tmp_path, kalah_tape) -> None:
    page = browser_page
    page.set_viewport_size({"width": screen.width, "height": screen.height})
    # thinking at 1960 speed: the touches while the PDP-1 thinks are the swap test's, the thinking's look on
    # every screen test_page_states.py's
    with _server(tmp_path, idle=8 if screen.name.startswith("1280") else 60, think_rate=200_000) as server:
        page.goto(server.url + "/")

        # attract mode: the PDP-1 plays a demonstration under its lit console; touch to play, the choices
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.wait_for_function("document.querySelectorAll('#bottom-row .pit').length === 4")
        page.wait_for_function("document.getElementById('paper').textContent.includes('kalah for the pdp-1')")
        page.wait_for_selector("#console .lamp.on")
        assert page.evaluate("document.documentElement.lang") == "en"
        # the typewriter is heard from the start (Chromium's --autoplay-policy=no-user-gesture-required)
        page.wait_for_function("kiosk.sound.enabled && kiosk.sound.ctx !== null && kiosk.sound.ctx.state === 'running'")
        assert_layout(page, screen, "attract")
        box = board_box(page)
        _shot(page, f"{screen.name}-01-attract")
        page.locator('[data-choice="fair"]').tap()
        page.wait_for_selector('[data-choice="fair"].chosen')
        assert page.locator('[data-choice="quick"].chosen').count() == 1
        assert page.locator('body[data-mode="attract"]').count() == 1  # a choice alone does not start a game
        _shot(page, f"{screen.name}-02-choices")

        # touch to play: the rules card shows by itself at the first game after attract mode
        page.locator('[data-action="play"]').tap()
        page.wait_for_selector("#rules:not([hidden])")
        assert page.locator("#rules figure").count() == 4
        assert_layout(page, screen, "rules card")
        _shot(page, f"{screen.name}-03-rules")
        page.locator('[data-action="close-rules"]').tap()
        _your_move(page)
        assert "4 pits, 3 seeds, level 4." in page.inner_text("#paper")  # the choices made: quick, fair
        assert page.locator('#bottom-row .pit.legal[data-side="visitor"]').count() == 4
        assert page.locator('#top-row [data-pit][data-side="pdp-1"]').count() == 4
        assert page.inner_text("#status") == EN["status.your_turn"]
        assert_layout(page, screen, "your move")
        assert board_box(page) == box
        _shot(page, f"{screen.name}-04-your-move")

        # the rules card again, from its button
        page.locator('[data-action="rules"]').tap()
        page.wait_for_selector("#rules:not([hidden])")
        page.locator('[data-action="close-rules"]').tap()
        page.wait_for_selector("#rules", state="hidden")

        # the language switch: every visible string changes, none left in English
        _switch_languages(page, screen, "05-your-move")

        # a wrong tap on the PDP-1's side: its hint
        page.locator('[data-side="pdp-1"][data-pit="1"]').tap(force=True)  # (aria-disabled, never the visitor's)
        page.wait_for_function(f"document.getElementById('detail').textContent === {EN['hint.theirs']!r}")
        _shot(page, f"{screen.name}-06-hint-pdp1-side")
        assert_layout(page, screen, "hint: the PDP-1's side")

        # play the game out; the first empty pit touched gets its hint; every turn checked
        empty_hint = False
        for turn in range(40):
            page.wait_for_selector('body[data-phase="your_turn"] #bottom-row .pit.legal, body[data-phase="game_over"]')
            if page.locator('body[data-phase="game_over"]').count():
                break
            assert_layout(page, screen, f"turn {turn}")
            assert board_box(page) == box
            empty = page.locator('#bottom-row .pit:not(.legal)')
            if not empty_hint and empty.count():
                empty.first.tap(force=True)  # (aria-disabled: empty, yet a touch gets its hint)
                page.wait_for_function(f"document.getElementById('detail').textContent === {EN['hint.empty']!r}")
                _shot(page, f"{screen.name}-09-hint-empty-pit")
                empty_hint = True
            played = page.evaluate(PLAYED)
            page.locator("#bottom-row .pit.legal").last.tap()
            page.wait_for_function(f"({PLAYED}) > {played}")
        assert empty_hint, "no empty pit of the visitor's was ever touched"
        page.wait_for_selector('[data-action="new-game"]', state="visible")
        page.wait_for_selector('body:not([data-sowing="yes"])')  # the last moves sown, the board as it ended
        assert page.evaluate("JSON.stringify(kiosk.shown) === JSON.stringify({top: kiosk.state.board.top,"
                             " bottom: kiosk.state.board.bottom,"
                             " top_store: kiosk.state.board.top_store, bottom_store: kiosk.state.board.bottom_store})")
        assert re.search(r"win|draw", page.inner_text("#status"), re.I)
        assert re.search(r"PDP-1 \d+, you \d+", page.inner_text("#detail"))
        assert "game over." in page.inner_text("#paper")
        assert page.locator("[data-choice]").count() == 5
        assert_layout(page, screen, "game over")
        assert board_box(page) == box
        _shot(page, f"{screen.name}-10-game-over")

        # what is this: the machine, the typewriter, the tape, the early-sixties programs, what is real
        page.locator('[data-action="about"]').tap()
        page.wait_for_selector("#about:not([hidden])")
        about = page.inner_text("#about")
        assert "November 1960" in about and "SHERSH.1" in about and "reconstruction" in about
        assert_layout(page, screen, "about")
        _shot(page, f"{screen.name}-11-about")
        _switch_languages(page, screen, "11-about")
        page.locator('[data-action="close-about"]').tap()
        page.wait_for_selector("#about", state="hidden")

        if screen.name.startswith("1280"):
            # nobody touches: the countdown, then attract mode, in the museum's own language again
            page.locator('[data-lang="pl"]').tap()
            page.wait_for_selector("body.counting", timeout=20_000)
            assert_layout(page, screen, "countdown")
            _shot(page, f"{screen.name}-12-countdown")
            page.wait_for_selector('body[data-mode="attract"]', timeout=15_000)
            page.wait_for_function("document.documentElement.lang === 'en'")
            _shot(page, f"{screen.name}-13-back-to-attract")
            assert board_box(page) == box

        health = server.health()
        assert health["mismatches"] == 0 and health["errors"] == 0 and health["visitor_games"] >= 1


def test_the_swap_explained_a_reload_and_a_killed_pdp1(browser_page, tmp_path, kalah_tape) -> None:
    page = browser_page
    screen = SCREENS[1]  # the smallest: 1280x800 at 10.1 inches
    with _server(tmp_path, pie_rule=True, sound=False) as server:
        page.goto(server.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.locator('[data-choice="fair"]').tap()  # a level whose thinking lasts long enough to be touched
        page.wait_for_selector('[data-choice="fair"].chosen')
        page.locator('[data-action="play"]').tap()
        page.wait_for_selector("#rules:not([hidden])")
        page.locator('[data-action="close-rules"]').tap()
        _your_move(page)

        assert page.evaluate("!kiosk.sound.enabled && kiosk.sound.ctx === null")  # muted in the configuration
        # the PDP-1 opened: swap is offered, and explained where it is offered
        page.wait_for_selector('[data-action="swap"]', state="visible")
        assert page.inner_text("#swap-explain") == EN["swap.explain"]
        assert_layout(page, screen, "swap offered")
        box = board_box(page)
        _shot(page, "swap-01-offered")
        page.locator('[data-action="swap"]').tap()
        page.wait_for_function("document.getElementById('paper').textContent.includes('or s to swap? s')")
        _your_move(page)
        assert page.locator('[data-action="swap"]').is_hidden() and board_box(page) == box
        assert "you swap." in page.inner_text("#paper")
        _shot(page, "swap-02-swapped")
        number = _double_tap_then_touch_while_thinking(page, screen, box, "swap-03")
        page.wait_for_function(f"document.getElementById('paper').textContent.includes('your move? {number}')")
        _your_move(page)
        assert page.locator(".pit.last").count() == 1 and re.search(r"played pit \d", page.inner_text("#detail"))
        board, paper = _counts(page), page.inner_text("#paper")

        # a reload: the page reconnects and shows the game as it was (no rules card: not after attract mode)
        page.reload()
        _your_move(page)
        page.wait_for_function("document.getElementById('paper').textContent.length > 0")
        assert _counts(page) == board and page.inner_text("#paper") == paper
        assert page.locator("#rules").is_hidden()
        _shot(page, "reload-01-after-reload")

        # the emulator is killed: a fresh one, the game restored, the visitor plays on
        os.kill(server.health()["pdp1_pid"], signal.SIGKILL)
        server.wait_for(lambda h: h["restarts"] == 1 and h["pdp1_alive"], what="the emulator replaced")
        _your_move(page)
        page.wait_for_selector("#notice", state="hidden")
        assert _counts(page) == board
        _shot(page, "reload-02-after-pdp1-killed")
        health = server.health()
        assert health["mismatches"] == 0 and health["errors"] == 0
