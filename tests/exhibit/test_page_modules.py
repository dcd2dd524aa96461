"""The page's scripts: ES modules of one job each, none over 400 lines, sharing no mutable state, and no
rule of Kalah among them -- the page sows exactly the cells the server sends, whatever they are.

The sowing test is the one that would catch a second copy of the rules on the page: the server's paths
are turned round on their way to Chromium (a path no sowing rule gives), and every move the page shows,
the visitor's own at the touch and the PDP-1's, must be sown along the turned path, cell for cell.
"""

from __future__ import annotations

import json
import re

import pytest

from python_bridge.exhibit.page import STATIC_DIR
from tests.kiosk.test_browser import _server, _your_move

MAX_LINES = 400
JS = STATIC_DIR / "js"


def _scripts() -> dict[str, str]:
    """Every JavaScript file the server would serve, tracked by git or not."""
    return {str(path.relative_to(STATIC_DIR)): path.read_text(encoding="utf-8")
            for path in sorted(STATIC_DIR.rglob("*.js"))}


def test_no_script_over_400_lines() -> None:
    scripts = _scripts()
    assert "js/main.js" in scripts, sorted(scripts)
    long = {name: n for name, text in scripts.items() if (n := len(text.splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"


def test_the_page_loads_one_module_that_reaches_every_script() -> None:
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script\b[^>]*>", html) == ['<script type="module" src="static/js/main.js">'], \
        "the page loads main.js as a module, and nothing else (no inline script, no classic script)"
    scripts = _scripts()
    reached, todo = set(), ["js/main.js"]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        for target in re.findall(r'^\s*import\b[^"\']*["\']\./([\w-]+\.js)["\']', scripts[name], re.M):
            assert f"js/{target}" in scripts, f"{name} imports {target}, which is not there"
            todo.append(f"js/{target}")
    assert reached == set(scripts), f"scripts no module imports: {sorted(set(scripts) - reached)}"


def test_the_modules_share_no_mutable_state() -> None:
    """A module's state is its own: no exported ``let``/``var`` (a binding others see change), and nothing
    put on ``window`` but the tests' read-only ``window.kiosk``."""
    for name, text in _scripts().items():
        assert not re.search(r"\bexport\s+(let|var)\b", text), f"{name} exports a mutable binding"
        assert not re.search(r"^\s*var\s", text, re.M), f"{name} declares a var"
        put = re.findall(r"\b(?:window|globalThis|self)\.(\w+)\s*=[^=]", text)
        assert put in ([], ["kiosk"]) and (not put or name == "js/main.js"), f"{name} sets window.{put}"


def _turned(state: dict, sent: list) -> None:
    """The state's paths turned round (in place), each noted in ``sent`` with its game and move number."""
    board = state.get("board") or {}
    board["paths"] = {pit: path[::-1] for pit, path in (board.get("paths") or {}).items()}
    last = state.get("last")
    if last and last.get("path"):
        last["path"] = last["path"][::-1]
        sent.append((state["game"], last["number"], last["path"]))


@pytest.mark.simh
def test_the_page_sows_exactly_the_path_the_server_sends(browser_page, tmp_path, kalah_tape) -> None:
    page = browser_page
    sent: list[tuple] = []  # (game, move number, the turned path), every state's last move

    def turn_paths(text: str | bytes) -> str | bytes:
        message = json.loads(text)
        if message.get("type") == "state":
            _turned(message, sent)
        elif message.get("type") == "hello":
            _turned(message["state"], sent)
        else:
            return text
        return json.dumps(message)

    def route(ws) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda text: ws.send(turn_paths(text)))  # the page's messages go on untouched

    page.route_web_socket(re.compile(r"/ws(\?.*)?$"), route)
    with _server(tmp_path, sound=False, think_rate=200_000) as server:
        page.goto(server.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        # every cell the page sows, with the game shown and which of the page's sowings it belongs to
        page.evaluate("""() => {
          window.sownCells = [];
          const name = (el) => el.id ? [el.id, 0] : [el.parentElement.id === 'top-row' ? 'top' : 'bottom',
                                                     [...el.parentElement.children].indexOf(el)];
          const added = (c) => c.target.classList.contains('sown') && !(c.oldValue || '').includes('sown');
          new MutationObserver((changes) => {
            for (const c of changes) if (added(c)) sownCells.push([kiosk.state.game, kiosk.moveStarts, name(c.target)]);
          }).observe(document.getElementById('board'),
                     {attributes: true, attributeFilter: ['class'], attributeOldValue: true, subtree: true});
        }""")
        page.locator('[data-action="play"]').tap()
        page.locator('[data-action="close-rules"]').tap()
        _your_move(page)
        game = page.evaluate("kiosk.state.game")
        touched = page.evaluate("kiosk.state.board.paths['2']")
        assert touched == [["bottom-store", 0], ["bottom", 3], ["bottom", 2]], touched  # 2, 3, the store, turned
        page.locator('#bottom-row .pit[data-pit="2"]').tap()  # the extra turn
        _your_move(page)
        page.locator("#bottom-row .pit.legal").first.tap()
        # until the PDP-1 has moved and its move has been sown (or the game is over)
        page.wait_for_function("kiosk.state.last && kiosk.state.last.player === 'pdp-1'"
                               " || kiosk.state.phase === 'game_over'")
        page.wait_for_selector('body:not([data-sowing="yes"])')
        cells = page.evaluate("sownCells")

    sowings: dict[int, list] = {}  # the page's sowings in the visitor's game, in order
    for shown_game, start, cell in cells:
        if shown_game == game:
            sowings.setdefault(start, []).append(cell)
    moves = {number: path for sent_game, number, path in sent if sent_game == game}  # by move number
    expected = [moves[number] for number in sorted(moves)]
    assert [sowings[start] for start in sorted(sowings)] == expected
    assert len(expected) >= 3 and touched == expected[0], (touched, expected)
    assert any(len(path) > 1 for path in expected), "no path long enough to tell a turned one"


def _paper_whole(text: str) -> str:
    """The paper's HTML for the sheet ``text``, drawn whole: its last 120 lines, each the PDP-1's (red) up to a
    question's "? " and the visitor's answer after it (black)."""
    lines = text.split("\n")[-120:]
    html = []
    for n, line in enumerate(lines):
        ask = line.rfind("? ")
        html.append(f'<span class="pdp1">{line[:ask + 2] if ask >= 0 else line}</span>')
        if ask >= 0 and ask + 2 < len(line):
            html.append(f'<span class="visitor">{line[ask + 2:]}</span>')
        if n < len(lines) - 1:
            html.append("\n")
    return "".join(html)


def test_the_paper_drawn_a_piece_at_a_time_is_the_paper_drawn_whole(browser_page) -> None:
    """The page draws only the lines a piece changes; after any run of pieces (short and long, new lines,
    answers, a repeat, an overlap, a new game, the sheet trimmed past 40,000 characters) the paper is what
    drawing the whole sheet gives."""
    import random

    page = browser_page
    page.route("http://exhibit.test/**", lambda route: route.fulfill(
        body=(STATIC_DIR / route.request.url.split("/static/", 1)[1]).read_text(encoding="utf-8")
        if "/static/" in route.request.url else '<pre id="paper"></pre>',
        content_type="text/javascript" if route.request.url.endswith(".js") else "text/html"))
    page.goto("http://exhibit.test/paper.html")
    pick = random.Random(1960)
    words = ["your move? ", "you play ", "pdp-1 plays 3", "captures 4", "\n", "\n\n", "4", "game over.", " "]
    pieces, at, game = [], 0, 1
    for n in range(2_400):
        if n == 300:  # a new game: a fresh sheet
            game, at = 2, 0
        text = "".join(pick.choice(words) for _ in range(pick.randint(1, 12)))
        back = pick.choice([0, 0, 0, 2, len(text)]) if at else 0  # (a repeat, or a piece overlapping the last)
        pieces.append({"game": game, "at": max(0, at - back), "text": text, "reset": n == 300})
        at = max(at, max(0, at - back) + len(text))
    drawn = page.evaluate("""async (pieces) => {
        const paper = await import("/static/js/paper.js");
        const seen = [];
        pieces.forEach((piece, n) => {
            paper.addPiece(piece);
            if (n % 40 === 39 || n === pieces.length - 1)
                seen.push([paper.text(), document.getElementById("paper").innerHTML]);
        });
        return seen;
    }""", pieces)
    assert len(drawn) == 60
    assert len(drawn[-1][0]) < 40_000 < at, "the sheet was trimmed on the way"
    for text, html in drawn:
        assert html == _paper_whole(text)
