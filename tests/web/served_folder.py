"""The browser edition's folder (``make web``'s build/web) served as a museum's web host would serve it: by
``python3 -m http.server`` alone, on a free loopback port, with settings of the test's own.

The folder is served through a copy made of links (15 MB are not copied), with its own ``settings.toml``."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from python_bridge.exhibit.web_guard import free_port
from tests.processes import still_running

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / "build" / "web"
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


class ServedFolder:
    """build/web, linked into ``folder`` with ``settings``, served by Python's own static server."""

    def __init__(self, folder: Path, settings: str) -> None:
        assert (BUILT / "pdp1.wasm").exists() and (BUILT / "python.zip").exists(), "make web builds build/web"
        folder.mkdir(parents=True, exist_ok=True)
        for entry in BUILT.iterdir():
            if entry.name != "settings.toml":
                (folder / entry.name).symlink_to(entry)
        (folder / "settings.toml").write_text(settings, encoding="utf-8")
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "ServedFolder":
        self.proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                                      str(self.folder), str(self.port)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(self.url + "/settings.toml", timeout=2):
                    return self
            except OSError:
                assert self.proc.poll() is None and time.monotonic() < deadline, "http.server did not start"
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            assert not still_running([self.proc.pid])
