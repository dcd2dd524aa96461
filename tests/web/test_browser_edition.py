"""The browser edition in Debian's Chromium: build/web served by ``python3 -m http.server`` alone, a whole game played
by keyboard alone on SIMH as WebAssembly with the driver and the reference in Pyodide, nothing asked of another
origin and nothing asked at all after the first question, and the game's record offered, whole and true (checked
by the reference, and played again on Debian's pdp1 by ``replay``); and a real cross-check mismatch, made by a
changed tape, shown as the online exhibit shows one.

``make test`` plays it in one language; ``make test-web`` in each of the four."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from python_bridge.checking.records import check_record
from python_bridge.driver.game_records import read_game_record
from python_bridge.exhibit.game_session import STOPPED
from tests.changed_tape import changed_game_tape
from tests.exhibit.keyboard_game import play_by_keyboard, start_by_keyboard, tab_to
from tests.exhibit.stopped_page import SAID, assert_stopped, look_problems
from tests.kiosk.kiosk_page_checks import catalogue
from tests.web.served_folder import QUICK, asked_by_the_page, served_folder

FIRST_QUESTION_S = 60  # from opening the page (Pyodide's start on a loaded host) to the first question


def _play_a_game(page, url: str, language: str, tmp_path: Path, bridge) -> None:
    asked: list[tuple[float, str]] = []
    page.on("request", lambda request: asked.append((time.monotonic(), request.url))
            if asked_by_the_page(request) else None)
    page.emulate_media(reduced_motion="reduce")  # each move's board at once: the game's keys are what is tested
    page.goto(url + "/")
    page.wait_for_selector("#languages button", timeout=FIRST_QUESTION_S * 1000)  # (the Worker's hello drew them)
    if language != "en":
        tab_to(page, f'[data-lang="{language}"]')
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.documentElement.lang === '{language}'")
    start_by_keyboard(page)
    first_question = time.monotonic()
    moves = play_by_keyboard(page)
    page.wait_for_selector('body[data-phase="game_over"]')
    assert moves >= 2 and "game over." in page.inner_text("#paper")
    assert page.locator("#choices h3:visible").count() == 0  # (none offered here: no heading over nothing)

    words = catalogue(language)
    page.wait_for_selector("#download:not([hidden])")
    assert page.inner_text("#download") == words["browser.record"]
    with page.expect_download() as downloading:
        tab_to(page, "#download")
        page.keyboard.press("Enter")
    record = tmp_path / downloading.value.suggested_filename
    downloading.value.save_as(record)
    checked = check_record(record.read_text(encoding="utf-8"))
    assert checked.saved.value_of("language") == language and len(checked.saved.moves) >= moves
    assert "played in a visitor's browser" in checked.saved.heading
    replayed = bridge("replay", str(record))  # the game played again on Debian's pdp1, each PDP-1 move the recorded
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.splitlines()[-1].startswith("checked on Debian's pdp1 (SIMH 3.8.1): ")
    assert replayed.stdout.splitlines()[-1].endswith(", to the game's end")

    assert page.get_attribute("#about-browser", "hidden") is None
    elsewhere = [asked_url for _, asked_url in asked if not asked_url.startswith((f"{url}/", "data:"))]
    assert not elsewhere, f"asked of another origin: {elsewhere}"
    late = [asked_url for at, asked_url in asked if at > first_question]
    assert not late, f"asked for after the first question: {late}"


def test_a_whole_game_by_keyboard_alone_in_the_visitors_browser(tmp_path, browser_page, bridge) -> None:
    with served_folder(tmp_path / "site", QUICK.format(pits=3, seeds=2)) as url:
        _play_a_game(browser_page, url, "pl", tmp_path, bridge)


@pytest.mark.webgames
@pytest.mark.parametrize("language", ["en", "pl", "tl", "az"])
def test_a_whole_game_by_keyboard_alone_in_each_language(language, tmp_path, browser_page, bridge) -> None:
    with served_folder(tmp_path / "site", QUICK.format(pits=4, seeds=3)) as url:
        _play_a_game(browser_page, url, language, tmp_path, bridge)


def test_a_real_mismatch_in_the_visitors_browser_is_shown_as_online(tmp_path, browser_page) -> None:
    """The browser edition with a tape of the game changed in one line (tests/changed_tape.py) in its python.zip:
    the visitor plays pit 1 by keyboard, the PDP-1 (SIMH as WebAssembly) answers pit 3, the reference in Pyodide
    plays pit 2.  The page shows it as the online exhibit does (tests/exhibit/stopped_page.py), the stopped game's
    record is offered, and "New game" starts a new one."""
    tape = changed_game_tape(tmp_path / "tape")
    page = browser_page
    page.add_init_script(SAID)
    with served_folder(tmp_path / "site", QUICK.format(pits=4, seeds=3), tape=tape) as url:
        page.emulate_media(reduced_motion="reduce")
        page.goto(url + "/")
        page.wait_for_selector("#languages button", timeout=FIRST_QUESTION_S * 1000)
        start_by_keyboard(page)
        page.wait_for_selector('body[data-phase="your_turn"] #bottom-row .pit.legal')
        page.keyboard.press("1")
        assert_stopped(page, "en", 3, 2)
        page.wait_for_selector("#download:not([hidden])")
        with page.expect_download() as downloading:
            page.locator("#download").click()
        record = read_game_record(Path(downloading.value.path()).read_text(encoding="utf-8"))
        assert record.result == STOPPED and record.moves == [1]
        assert (record.value_of("pdp-1 chose"), record.value_of("reference chose")) == ("3", "2")
        problems = look_problems(page, "stopped in the browser edition")
        assert not problems, "\n".join(problems)
        page.locator('[data-action="new-game"]').click()
        page.wait_for_selector('body[data-phase="your_turn"] #bottom-row .pit.legal')
