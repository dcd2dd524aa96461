"""The Worker's Python started from the snapshot an earlier visit kept (web/python_start.mjs): a first visit keeps
one, a return starts from it and plays; a snapshot that will not start is thrown away and Python starts afresh;
the browser keeps one snapshot, named for the Python it holds."""

from __future__ import annotations

import hashlib

from tests.exhibit.keyboard_game import start_by_keyboard
from tests.web.served_folder import BUILT, QUICK, served_folder

STORE = "kalah-python-snapshot"
KEPT = f"async () => (await (await caches.open('{STORE}')).keys()).map((request) => request.url)"


def _visit(page, url: str) -> dict:
    """Open the page, wait for the Worker's hello; how its Python started ({ms, fromSnapshot})."""
    page.goto(url + "/")
    page.wait_for_selector("#languages button", timeout=60_000)
    page.wait_for_function("kiosk.measured && kiosk.measured.started")
    return page.evaluate("kiosk.measured.started")


def _kept(page) -> list[str]:
    """The snapshots kept (the first visit's is kept after its Python started: wait for it)."""
    page.wait_for_function(f"({KEPT})().then((urls) => urls.length > 0)")
    return page.evaluate(KEPT)


def _one_reply(page) -> None:
    """Play starts, the first legal pit is touched, and the PDP-1 answers (the snapshot's Python runs the game)."""
    start_by_keyboard(page)
    turn = page.evaluate("kiosk.state.turn")
    page.locator("#bottom-row .pit.legal").first.click()
    page.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")


def test_a_return_starts_from_the_kept_snapshot_and_a_spoiled_one_is_replaced(tmp_path, browser_page) -> None:
    python = hashlib.sha256((BUILT / "python.zip").read_bytes()).hexdigest()
    warnings: list[str] = []
    browser_page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    with served_folder(tmp_path / "site", QUICK.format(pits=3, seeds=2)) as url:
        first = _visit(browser_page, url)
        assert first["fromSnapshot"] is False
        kept = _kept(browser_page)
        assert len(kept) == 1 and f"/python-snapshot/{python}-" in kept[0]

        again = _visit(browser_page, url)
        assert again["fromSnapshot"] is True and again["ms"] < first["ms"]
        _one_reply(browser_page)
        assert _kept(browser_page) == kept and not warnings

        browser_page.evaluate(f"""async (name) => {{
            const store = await caches.open('{STORE}');
            await store.put(name, new Response(new Uint8Array(1000).fill(7)));
        }}""", kept[0])
        spoiled = _visit(browser_page, url)
        assert spoiled["fromSnapshot"] is False
        assert any("would not start" in warning for warning in warnings), warnings
        _one_reply(browser_page)
        browser_page.wait_for_function(f"""({KEPT})().then(async (urls) => urls.length === 1 &&
            (await (await (await caches.open('{STORE}')).match(urls[0])).arrayBuffer()).byteLength > 1000)""")
        assert _visit(browser_page, url)["fromSnapshot"] is True
