"""The browser edition's folder (``make web``'s build/web) served as a museum's web host would serve it: by
``python3 -m http.server`` alone, on a free loopback port, with settings of the test's own (``browser.folder``'s
``linked_copy`` and ``served``: the benchmark's too)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

from python_bridge.browser.folder import linked_copy, served
from python_bridge.exhibit.web_guard import free_port
from python_bridge.machine.wasm_port import WEB_FOLDER

BUILT = WEB_FOLDER
# How long a test waits for the browser edition's Worker to say hello: Pyodide's start, 2.5 s on a quiet host (a
# second visit 0.4 s), took over 20 s (the tests' default wait) on a host running the whole suite beside it
HELLO_MS = 60_000
QUICK = """[browser]
pace = "fast"
[game]
pits = {pits}
seeds = {seeds}
level = 1
[choices]
games = []
strengths = []
"""
# the online page-vision server's game (tests.online.online_support.CLASSIC): the classic board at the gentle level,
# the visitors' choices offered, at the fast pace -- the same page for the accessibility checks of both editions
CLASSIC = """[browser]
pace = "fast"
[game]
level = 1
"""


def asked_by_the_page(request) -> bool:
    """Whether a request seen by Playwright is the page's own: not Chromium's look for the page's icon, which it
    repeats when it likes (once as the first game began, once in a while from its cache), nor a ``blob:`` address
    the page made itself (a record's link)."""
    return not request.url.startswith("blob:") and not (request.resource_type == "other"
                                                        and request.url.endswith("/static/pdp1.svg"))


@contextlib.contextmanager
def served_folder(folder: Path, settings: str, tape: Path | None = None) -> Iterator[str]:
    """build/web linked into ``folder`` with ``settings`` (and ``tape``, another tape of the game, in its
    python.zip), served: its URL."""
    assert (BUILT / "pdp1.wasm").exists() and (BUILT / "python.zip").exists(), "make web builds build/web"
    with served(linked_copy(BUILT, folder, settings, tape), free_port()) as url:
        yield url
