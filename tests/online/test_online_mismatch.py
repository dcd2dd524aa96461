"""A real cross-check mismatch online, in Debian's Chromium: a server playing a tape of the game assembled with one
line of its search changed (tests/changed_tape.py: among equally good moves the PDP-1 plays its last, the reference
its first) on Debian's pdp1.  The visitor plays pit 1 of the quick game; the PDP-1 answers pit 3 where the
reference plays pit 2.  The game stops; the page says so in the visitor's language (each of the four), naming both
moves, once in the live region; no pit can be touched (a touch hears that the game was stopped); the page meets
WCAG 2.2 AA there, nothing cut off, on a phone and on the kiosk's screen; a reload shows the same, the game kept as
stopped (never asked of the PDP-1 again); "New game" starts a new one.  The operator has the mismatch counted and
the report in the log."""

from __future__ import annotations

import pytest

from python_bridge.driver.game_records import read_game_record
from python_bridge.exhibit.game_session import STOPPED as STOPPED_RESULT
from tests.changed_tape import changed_game_tape
from tests.exhibit.stopped_page import SAID, STOPPED, assert_stopped, look_problems, words_for
from tests.online.online_support import YOUR_MOVE, OnlineServer, start_in_browser, write_settings

pytestmark = pytest.mark.simh

PDP1, REFERENCE = 3, 2  # what the changed PDP-1 plays after the visitor's pit 1, and what the reference plays


def test_a_real_mismatch_stops_the_game_and_the_page_says_so(browser_context, tmp_path, kalah_tape) -> None:
    tape = changed_game_tape(tmp_path / "tape")
    settings = write_settings(tmp_path / "conf", pits=4, seeds=3, tape=tape, choices=True)  # (the page at its fullest)
    with OnlineServer(settings, tmp_path / "state") as server:
        page = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(SAID)
        game = start_in_browser(page, server.url)
        page.locator(f'{YOUR_MOVE}[data-pit="1"]').tap()
        assert_stopped(page, "en", PDP1, REFERENCE)
        assert "pdp-1 plays 3" in page.evaluate("kiosk.paper.text")  # (the move that was refused, on the paper)
        health = server.health()
        assert health["mismatches"] == 1 and health["errors"] == 0 and health["games"] == 0, health
        assert "cross-check mismatch; the game is stopped" in server.output()
        assert "reproduce: python -m python_bridge ref best" in server.output()
        status, text = server.get(f"/games/{game}/record.txt")
        kept = read_game_record(text)
        assert status == 200 and kept.result == STOPPED_RESULT and kept.moves == [1]
        assert (kept.value_of("pdp-1 chose"), kept.value_of("reference chose")) == (str(PDP1), str(REFERENCE))

        problems = look_problems(page, "stopped, in en")
        for language in ("pl", "tl", "az"):  # (nothing said again: test_announcements' rule, kept by assert_stopped's)
            page.locator(f'[data-lang="{language}"]').tap()
            page.wait_for_function(f"document.documentElement.lang === '{language}'")
            assert (page.inner_text("#status"), page.inner_text("#detail")) == words_for(language, PDP1, REFERENCE)
            problems += look_problems(page, f"stopped, in {language}")
        assert not problems, "\n".join(problems)

        page.reload()  # the same game, by its ID: shown as it stopped, nothing said as news, the PDP-1 not asked again
        page.wait_for_selector(STOPPED)
        assert (page.inner_text("#status"), page.inner_text("#detail")) == words_for("en", PDP1, REFERENCE)
        assert page.evaluate("sessionStorage.getItem('kalah-game')") == game
        page.wait_for_timeout(1500)
        assert page.evaluate("window.__said") == []
        page.locator("#bottom-row .pit").first.tap(force=True)  # (aria-disabled: a touch still gets its answer)
        page.wait_for_function("(said) => document.getElementById('detail').textContent === said",
                               arg=words_for("en", PDP1, REFERENCE)[0])  # what the status says, not "thinking"
        assert server.health()["mismatches"] == 1

        page.locator('[data-action="new-game"]').tap()
        page.wait_for_selector(YOUR_MOVE)
        assert page.evaluate("sessionStorage.getItem('kalah-game')") != game
        assert not errors, errors
