"""The Worker's Python: what web/worker.mjs runs once Pyodide, the machine and this project's code are there.

Why so little here: the game is the exhibit's session with its one driver (``page_game``), the machine is
SIMH as WebAssembly (``machine.wasm_simh``, reached through ``pyodide_port``), and the checks are the
reference's, as on a server.  This joins them to the Worker's JavaScript (the module ``kalah_page`` it
registers): the page's messages are waited for through Pyodide's ``run_sync`` (the Worker's event loop runs
meanwhile, so a visitor who thinks costs nothing), and the session's go to the page as they are made (a finished
game's record with where the page sends it, on a site that keeps records: the page sends it, not this Worker,
since only the page can still send one as the visitor leaves).
"""

from __future__ import annotations

import json
import logging

from ..exhibit.settings import ConfigError
from ..machine.wasm_simh import WasmSimh
from .page_game import PageGame
from .pyodide_port import PyodidePort
from .settings import browser_settings, records_path


def main() -> None:
    """Play games for as long as the page is open."""
    import kalah_page  # type: ignore[import-not-found]  # (registered by web/worker.mjs)
    from pyodide.ffi import run_sync  # type: ignore[import-not-found]

    logging.basicConfig(level=logging.INFO, format="%(name)s %(levelname)s %(message)s")
    log = logging.getLogger("kalah.browser")

    def post(message: dict) -> None:
        kalah_page.post(json.dumps(message))

    def receive(seconds: float) -> str | None:
        got = run_sync(kalah_page.next_message(seconds * 1000))
        return None if got is None else str(got)

    def machine(config, timeout: float) -> WasmSimh:
        return WasmSimh(config, timeout=timeout, port=PyodidePort(kalah_page.new_machine()))

    try:
        text = str(kalah_page.settings)
        settings, records = browser_settings(text), records_path(text)
    except ConfigError as bad:
        post({"type": "failed", "reason": str(bad)})
        return
    PageGame(settings, post, receive, log, transport=machine, records=records).run()
