"""The browser edition's folder (``make web``): everything a visitor's browser loads, from one place, for any
static web host to serve.

Why a folder and not a server: the PDP-1 (SIMH as WebAssembly), the game driver and the reference (Python in
Pyodide) all run in the visitor's browser, so what a museum puts on its web site is files.  This writes them
next to the emulator ``scripts/build-web.sh`` compiled (``pdp1.js``, ``pdp1.wasm``):

* ``index.html`` -- the exhibit's page, marked ``data-edition="browser"`` (its connection is then a Worker),
  and ``static/`` -- the page's own files, as the servers serve them;
* ``web/worker.mjs``, ``web/python_start.mjs`` and ``web/machine.mjs``, copied -- the Worker, how it starts Python
  (from a snapshot an earlier visit kept, when there is one) and the machine's port; ``pdp1.mjs`` -- the compiled
  emulator as a module a Worker can import (emcc's own script, with an ``export``);
* ``pyodide/`` -- Pyodide's files from the npm package the lockfile pins (web/node_modules);
* ``python.zip`` -- the project's Python (``python_bridge``, ``tools``) and the game's tape with its symbols;
* ``settings.toml`` -- the museum's settings (``browser.settings``), written once: kept when it is there.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Iterator

from ..exhibit.page import STATIC_DIR, page_html
from ..machine.kalah_program import GAME, ensure_tape, symbols_beside
from ..machine.wasm_port import WEB_FOLDER, WEB_SCRIPTS

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
PYODIDE = WEB / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PYTHON_PACKAGES = ("python_bridge", "tools")
LEFT_OUT = ("__pycache__", "static", "fonts")  # folders of the packages the Worker never reads (the page has them)
SETTINGS = """# The browser edition's settings: read by the visitor's browser when the page opens.
# [browser] pace: "1960" (the PDP-1 thinks and types at 1960 speed) or "fast".
# [browser] records: where the page sends each finished game's record, a path on its own site ("records");
#   left out on a static host (the online server of the browser edition serves a settings.toml of its own).
# [game] and [choices]: as the online exhibit's (docs/online.md).
[browser]
pace = "1960"
"""


def write_folder(out: Path) -> list[Path]:
    """The folder at ``out`` (the emulator already compiled there); the files written."""
    missing = [p for p in (out / "pdp1.js", out / "pdp1.wasm", PYODIDE / PYODIDE_FILES[0]) if not p.exists()]
    if missing:
        raise FileNotFoundError(f"{missing[0]} is missing: make web builds it (and set-up installs Pyodide)")
    written = [_page(out), *_static(out), _module(out)]
    for name in WEB_SCRIPTS:
        written.append(_copy(WEB / name, out / name))
    written += [_copy(PYODIDE / name, out / "pyodide" / name) for name in PYODIDE_FILES]
    written.append(_python(out / "python.zip"))
    settings = out / "settings.toml"
    if not settings.exists():
        settings.write_text(SETTINGS, encoding="utf-8")
    return [*written, settings]


def _page(out: Path) -> Path:
    html = page_html("online").replace("<body ", '<body data-edition="browser" ', 1)
    (out / "index.html").write_text(html, encoding="utf-8")
    return out / "index.html"


def _static(out: Path) -> list[Path]:
    target = out / "static"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(STATIC_DIR, target)
    return [target]


def _module(out: Path) -> Path:
    """emcc's script (``MODULARIZE``: it defines ``createPdp1``) as a module: a module Worker imports it."""
    script = (out / "pdp1.js").read_text(encoding="utf-8")
    (out / "pdp1.mjs").write_text(script + "\nexport default createPdp1;\n", encoding="utf-8")
    return out / "pdp1.mjs"


def _copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def _python(target: Path, tape: Path | None = None) -> Path:
    """The project's Python as the Worker unpacks it (``/kalah``), with the tape it reads in, ready: the game's own
    (``build/kalah.rim``), or ``tape`` -- another tape of the game, its symbol table beside it -- in its place."""
    tape = tape or ensure_tape()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for package in PYTHON_PACKAGES:
            for path in sorted((ROOT / package).rglob("*.py")):
                if not set(path.relative_to(ROOT).parts) & set(LEFT_OUT):
                    archive.write(path, path.relative_to(ROOT).as_posix())
        archive.write(tape, f"build/{GAME.tape.name}")
        archive.write(symbols_beside(tape), f"build/{GAME.symbols.name}")
    return target


def linked_copy(built: Path, folder: Path, settings: str, tape: Path | None = None) -> Path:
    """``built`` (a folder ``write_folder`` wrote) as ``folder``, its files linked and not copied (15 MB), with
    ``settings`` for its ``settings.toml``: a trial's own edition.  Given ``tape`` (another tape of the game, its
    symbol table beside it: a changed ``pdp1_src/`` tried in the browser), its ``python.zip`` is this checkout's
    Python with that tape in it, written afresh."""
    folder.mkdir(parents=True, exist_ok=True)
    for entry in built.iterdir():
        if entry.name != "settings.toml" and not (tape is not None and entry.name == "python.zip"):
            (folder / entry.name).symlink_to(entry.resolve())
    (folder / "settings.toml").write_text(settings, encoding="utf-8")
    if tape is not None:
        _python(folder / "python.zip", tape)
    return folder


@contextlib.contextmanager
def served(folder: Path, port: int, start_s: float = 10.0) -> Iterator[str]:
    """``folder`` served as any static host serves it, by Python's own ``http.server`` alone, on the loopback at
    ``port``: its URL, while the server runs (stopped and reaped at the end)."""
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                               str(folder), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + start_s
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"http.server did not serve {folder}") from None
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    write_folder(Path(sys.argv[1]) if len(sys.argv) > 1 else WEB_FOLDER)
