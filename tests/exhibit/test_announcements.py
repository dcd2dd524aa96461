"""What a screen reader hears, in Debian's Chromium on a real server and a real PDP-1: one polite live region
(#announce, js/announce.js) and no other (the flash over the board and the messages below it used to be two, so
that one event could be read twice, or cut off by the other); in it, once each and in the visitor's language, the
visitor's moves, the PDP-1's moves with their extra turns and captures, "the PDP-1 is thinking", the visitor's turn
and the result; a dropped connection's "one moment" once, and nothing again for a language switch or a
reconnection's redraw; and the whole board as text on
demand (the "Read the board" button, the key b).  Online, the place in line is said once, however often the
server sends it.

Every text the region takes is collected by a MutationObserver set up before the page's own scripts run, and every
message the server sends by a wrapper round the page's WebSocket (the browser edition's, its PDP-1 in the visitor's
browser, by one round its Worker); what should have been said is worked out from those messages and the
catalogues, and the two must be the same, sentence for sentence.  The key b is the check
that nothing more is on its way: its board is said at once, after anything still gathered, so a sentence said
twice (or late) would come before it."""

from __future__ import annotations

import json
import time

import pytest

from tests.kiosk.kiosk_page_checks import catalogue
from tests.kiosk.test_browser import _server, _your_move
from tests.online.online_support import OnlineServer, start_in_browser, write_settings
from tests.web.served_folder import HELLO_MS

pytestmark = pytest.mark.simh

CATALOGUES = {"en": catalogue("en"), "pl": catalogue("pl")}
MM_PER_PX = 0.170  # the kiosk's smallest screen, 10.1" at 1280x800
# the tapped pits of the test kiosk's game (4 pits, 3 seeds, the visitor first, the PDP-1 at level 1): pit 2 ends
# in the store (an extra turn), later ones capture, and the PDP-1 has extra turns and a capture of its own
FIRST_PIT = 2

SPY = r"""
(() => {
  window.__got = [];      // every message the server sent, in order
  window.__sockets = [];  // the page's WebSockets (the test closes one: a real reconnection)
  window.__said = [];     // every text the live region took
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
      this.addEventListener("message", (e) => window.__got.push(JSON.parse(e.data)));
    }
  };
  const RealWorker = window.Worker;  // the browser edition's page: the same messages, from its Worker
  window.Worker = class extends RealWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => window.__got.push(JSON.parse(e.data)));
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const region = document.getElementById("announce");
    if (!region) return;
    new MutationObserver(() => { const text = region.textContent.trim(); if (text) window.__said.push(text); })
      .observe(region, { childList: true, characterData: true, subtree: true });
  });
})();
"""

# the live regions a screen reader is told of: shown, and not aria-live="off"
LIVE = r"""() => [...document.querySelectorAll(
    '[aria-live], [role=status], [role=log], [role=alert], [role=marquee], [role=timer]')]
  .filter((el) => el.getAttribute("aria-live") !== "off" && el.getClientRects().length > 0)
  .map((el) => el.id || el.tagName)"""


def _t(lang: str, key: str, **params: object) -> str:
    text = CATALOGUES[lang][key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _seeds(lang: str, n: int) -> str:
    """A count in the language's grammatical number (CLDR's plural rules: Polish has three for whole numbers)."""
    if lang == "pl":
        form = "one" if n == 1 else "few" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "many"
    else:
        form = "one" if n == 1 else "other"
    return _t(lang, f"a11y.seeds.{form}", n=n)


def _sentence(text: str) -> str:
    return text if text[-1] in ".!?…" else text + "."


def _result(lang: str, result: dict) -> list[str]:
    winner = {None: "result.draw", "pdp-1": "result.pdp1"}.get(result["winner"], "result.visitor")
    return [_t(lang, winner), _t(lang, "result.score.visitor", a=result["pdp1"], b=result["visitor"])]


def _keys(s: dict) -> dict:
    number = s["last"]["number"] if s.get("last") else 0
    return {"move": f"{s['game']}:{number}" if s.get("last") else None,
            "thinking": f"{s['game']}:{number}" if s["phase"] == "thinking" else None,
            "turn": f"{s['game']}:{s['turn']}" if s["phase"] == "your_turn" else None,
            "result": str(s["game"]) if s["phase"] == "game_over" and s.get("result") else None}


def _event_words(lang: str, s: dict, fresh) -> list[str]:
    words = []
    last = s.get("last")
    if fresh("move"):
        w = "pdp1" if last["player"] == "pdp-1" else "visitor"
        words.append(_t(lang, f"move.{w}", pit=last["pit"]))
        if last["captured"]:
            words.append(_t(lang, f"a11y.say.capture.{w}", seeds=_seeds(lang, last["captured"])))
        if last["extra_turn"]:
            words.append(_t(lang, f"a11y.say.again.{w}"))
    if fresh("thinking"):
        words.append(_t(lang, "a11y.say.thinking"))
    if fresh("turn"):
        words.append(_t(lang, "a11y.say.turn.visitor"))
    if fresh("result"):
        words += _result(lang, s["result"])
    return words


def _expected(got: list[dict], polish_from: int) -> list[str]:
    """What a visitor's game should have said, from the server's messages: each event once (the page's first state
    is no news), in English before message ``polish_from`` and in Polish from it on."""
    said: dict | None = None
    out: list[str] = []
    hellos = 0
    for i, msg in enumerate(got):
        if msg["type"] == "hello":
            hellos += 1
            if hellos > 1:  # a connection dropped before this hello: "one moment" said once, as the page showed it
                out.append(_t("pl" if i >= polish_from else "en", "notice"))
        s = msg["state"] if msg["type"] == "hello" else msg if msg["type"] == "state" else None
        if s is None:
            continue
        now = _keys(s)
        if said is None or s["mode"] != "visitor":
            said = said or now
            continue
        out += _event_words("pl" if i >= polish_from else "en", s,
                            lambda kind, now=now, said=said: now[kind] is not None and now[kind] != said[kind])
        said = {kind: now[kind] if now[kind] is not None else said[kind] for kind in now}
    return [_sentence(w) for w in out]


def _board(lang: str, s: dict) -> str:
    """The whole board as the key b and the button say it."""
    b = s["board"]
    pits = lambda counts: "; ".join(_t(lang, "a11y.board.pit", pit=k + 1, seeds=_seeds(lang, n))  # noqa: E731
                                    for k, n in enumerate(counts))
    parts = _result(lang, s["result"]) if s["phase"] == "game_over" else [
        _t(lang, "a11y.board.turn.visitor" if b["to_move"] == "bottom" else "a11y.board.turn.pdp1")]
    parts += [_t(lang, "a11y.board.side.pdp1", pits=pits(b["top"][::-1]), store=_seeds(lang, b["top_store"])),
              _t(lang, "a11y.board.side.visitor", pits=pits(b["bottom"]), store=_seeds(lang, b["bottom_store"]))]
    return " ".join(_sentence(p) for p in parts)


def _said_so_far(page, polish_from: int, reads: set[int], timeout: float = 10) -> list[str]:
    """Wait until the region has said exactly what the server's messages call for (sentences are gathered for a
    moment before they are said), the board's readings (``reads``, their places in the region's texts) aside;
    the sentences expected."""
    deadline = time.monotonic() + timeout
    while True:
        got, said = page.evaluate("[window.__got, window.__said]")
        expected = _expected(got, polish_from)
        if " ".join(text for i, text in enumerate(said) if i not in reads) == " ".join(expected):
            return expected
        if time.monotonic() > deadline:
            raise AssertionError(f"said:\n{said}\nexpected:\n{expected}")
        time.sleep(0.05)


def _read_board(page, lang: str, how: str, reads: set[int]) -> None:
    """The key b, or the button: the region's next text is the whole board, and nothing else (nothing was still
    on its way to be said); its place goes into ``reads``."""
    before = page.evaluate("window.__said.length")
    if how == "key":
        page.keyboard.press("b")
    else:
        page.locator('[data-action="read-board"]').tap()
    page.wait_for_function(f"window.__said.length > {before}")
    said = page.evaluate("window.__said")
    assert said[before:] == [_board(lang, page.evaluate("kiosk.state"))], said[before:]
    reads.add(before)


def _one_live_region(page) -> None:
    assert page.evaluate(LIVE) == ["announce"], page.evaluate(LIVE)
    for quiet in ("flash", "messages", "status", "detail"):
        assert page.evaluate(f"document.getElementById('{quiet}').closest('[aria-live], [role=status]')") is None, quiet
    # and so in Chromium's accessibility tree: one live region, polite and atomic, exposed though unseen
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    live = [n for n in tree if not n.get("ignored")
            and any(p["name"] == "live" and p["value"].get("value") in ("polite", "assertive")
                    for p in n.get("properties", []))
            and n.get("role", {}).get("value") not in ("StaticText", "InlineTextBox")]
    assert [n["role"]["value"] for n in live] == ["status"], live
    props = {p["name"]: p["value"].get("value") for p in live[0]["properties"]}
    assert props["live"] == "polite" and props["atomic"] is True, props


def _play(page, pit: int, played: list[int]) -> None:
    turn = page.evaluate("kiosk.state.turn")
    page.locator(f'#bottom-row .pit.legal[data-pit="{pit}"]').tap()
    played.append(pit)
    page.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")


def _to_the_end_in_polish(page, pit: str, played: list[int], polish_from: int, reads: set[int]) -> list[str]:
    """The game played to its end (``pit``: which of the page's legal pits each time), then the board read
    by its key in Polish and the one live region checked; what was said since ``polish_from``."""
    while page.evaluate("kiosk.state.phase") != "game_over":
        _your_move(page)
        _play(page, page.evaluate(f"kiosk.state.{pit}"), played)
    page.wait_for_selector('body[data-phase="game_over"]')
    expected = _said_so_far(page, polish_from, reads)
    _read_board(page, "pl", "key", reads)
    _one_live_region(page)
    return expected


def test_a_game_is_said_once_each_event_in_the_visitors_language(browser_page, tmp_path, kalah_tape) -> None:
    page = browser_page
    page.add_init_script(SPY)
    # each move's board at once (js/board.js, under reduced motion): what is said comes with the server's states,
    # not with the sowing, and the game is over seconds sooner
    page.emulate_media(reduced_motion="reduce")
    played: list[int] = []
    reads: set[int] = set()
    with _server(tmp_path, sound=False, think_rate=200_000) as server:
        page.goto(server.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        page.locator('[data-action="play"]').tap()
        page.locator('[data-action="close-rules"]').tap()
        _your_move(page)
        _one_live_region(page)
        english = 10**9  # (the index of the first message said in Polish)
        assert _said_so_far(page, english, reads) == ["Your move."]
        # the button: in the actions' first row during the visitor's game, a 15 mm target
        button = page.locator('[data-action="read-board"]').bounding_box()
        assert min(button["width"], button["height"]) * MM_PER_PX >= 15, button
        _read_board(page, "en", "button", reads)

        _play(page, FIRST_PIT, played)  # an extra turn
        _your_move(page)
        expected = _said_so_far(page, english, reads)
        assert expected[-3:] == ["You played pit 2.", "You move again.", "Your move."], expected

        page.locator('[data-lang="pl"]').tap()  # nothing said again, and what comes is in Polish
        page.wait_for_function("document.documentElement.lang === 'pl'")
        polish_from = page.evaluate("window.__got.length")
        switched = page.evaluate("window.__said.length")
        _read_board(page, "pl", "key", reads)

        _play(page, page.evaluate("kiosk.state.legal[0]"), played)
        _your_move(page)
        _said_so_far(page, polish_from, reads)
        page.evaluate("window.__sockets.at(-1).close()")  # a dropped connection: the server's hello redraws it all
        page.wait_for_function("window.__got.filter((m) => m.type === 'hello').length === 2")
        _your_move(page)
        _said_so_far(page, polish_from, reads)  # "one moment", once, for the dropped connection
        _read_board(page, "pl", "button", reads)  # (its board alone: the hello said nothing again)

        expected = _to_the_end_in_polish(page, "legal[0]", played, polish_from, reads)
        result = page.evaluate("kiosk.state.result")
        texts = page.evaluate("window.__said")

    # the visitor's own moves, each said once, in order, in Polish after the switch
    mine = [w for w in expected if w.startswith(("You played", "Grasz z dołka"))]
    assert mine == ["You played pit 2."] + [f"Grasz z dołka {p}." for p in played[1:]], (mine, played)
    # the game chosen has them all: the PDP-1's extra turn and capture, the visitor's capture, the thinking
    polish = expected[expected.index("Your move.", 1) + 1:]
    for words in ("PDP-1 ma dodatkową turę.", "PDP-1 zbija 2 ziarna.", "Zbijasz 3 ziarna.", "PDP-1 myśli."):
        assert words in polish, words
    assert not [t for t in texts[switched:] if "You " in t or "The PDP-1" in t], texts[switched:]  # no English now
    assert expected[-2:] == ["Wygrywa PDP-1.", f"PDP-1 {result['pdp1']}, Ty {result['visitor']}."], expected
    assert sum(text.count("Wygrywa PDP-1.") for text in texts) == 2  # the result once, and once in the board read


def test_the_place_in_line_is_said_once(browser_context, tmp_path, kalah_tape) -> None:
    """One machine, taken; a second tab waits in line: its place said once, not again for the language switch,
    the server's further word on the line, or a reconnection."""
    with OnlineServer(write_settings(tmp_path / "conf", max_games=1), tmp_path / "state") as server:
        first = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        start_in_browser(first, server.url)
        other = browser_context.new_page()
        other.add_init_script(SPY)
        other.goto(server.url + "/")
        other.wait_for_function("sessionStorage.getItem('kalah-game') !== null")
        other.locator('[data-action="play"]').tap()
        other.wait_for_selector("body.in-line")
        _one_live_region(other)
        queue = other.evaluate("window.__got.find((m) => m.type === 'queue')")
        minutes = max(1, -(-queue["estimate_s"] // 60))
        line = _t("en", "online.queue", position=1, minutes=minutes)
        other.wait_for_function(f"window.__said.join(' ') === {json.dumps(line)}")
        other.locator('[data-lang="pl"]').tap()
        other.wait_for_function("document.documentElement.lang === 'pl'")
        other.keyboard.press("b")  # said at once, after anything still gathered: nothing else comes first
        other.wait_for_function("window.__said.length > 1")
        said = other.evaluate("window.__said")
        assert said[0] == line and len(said) == 2 and said[1].startswith(("Dołki PDP-1", "Plansza")), said
        assert other.locator("body.in-line").count() == 1
        other.close()


def test_the_browser_edition_says_each_event_once(browser_edition, browser_page) -> None:
    """The browser edition's page, its PDP-1 in a Worker: one live region, and a quick game said once each event,
    in English and then, from a language switch on, in Polish; the board read on demand, once each."""
    page = browser_page
    page.add_init_script(SPY)
    page.emulate_media(reduced_motion="reduce")
    reads: set[int] = set()
    page.goto(browser_edition + "/")
    page.wait_for_selector("#languages button", timeout=HELLO_MS)  # (the Worker's hello drawn)
    page.locator('[data-choice="quick"]').tap()
    page.locator('[data-action="play"]').tap()
    page.locator('[data-action="close-rules"]').tap()
    _your_move(page)
    _one_live_region(page)
    english = 10**9
    assert _said_so_far(page, english, reads) == ["Your move."]
    _read_board(page, "en", "button", reads)
    played: list[int] = []
    _play(page, page.evaluate("kiosk.state.legal[0]"), played)
    _your_move(page)
    assert _said_so_far(page, english, reads)[1] == f"You played pit {played[0]}."
    page.locator('[data-lang="pl"]').tap()
    page.wait_for_function("document.documentElement.lang === 'pl'")
    polish_from = page.evaluate("window.__got.length")
    expected = _to_the_end_in_polish(page, "legal.at(-1)", played, polish_from, reads)
    mine = [w for w in expected if w.startswith(("You played", "Grasz z dołka"))]
    assert mine == [f"You played pit {played[0]}."] + [f"Grasz z dołka {pit}." for pit in played[1:]], (mine, played)
    assert expected[-1].startswith("PDP-1 ") and "Ty" in expected[-1], expected  # the score, in Polish, once
