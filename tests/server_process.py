"""A server of ours run as a subprocess by a test (the kiosk's, the online exhibit's): started and waited
for through its ``/health``, stopped by a signal, and never leaving a process of its own behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from python_bridge.exhibit.procinfo import descendants
from tests.processes import still_running

ROOT = Path(__file__).resolve().parent.parent


class ServerProcess:
    """``python -m python_bridge ARGS`` on ``url``; ``seen`` gathers every process below it (its pdp1s),
    each of which must be gone once it has stopped."""

    what = "the server"

    def __init__(self, args: list[str], url: str, log: Path, env: dict[str, str] | None = None) -> None:
        self.args = args
        self.url = url
        self.log = log
        self.env = env
        self.proc: subprocess.Popen | None = None
        self.seen: set[int] = set()

    def start(self, timeout: float = 20, ready=lambda h: h["status"] == "ok"):
        """Start the server and wait until its health satisfies ``ready`` (healthy, by default)."""
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "python_bridge", *self.args], cwd=ROOT, stdout=out,
                                         stderr=subprocess.STDOUT, env={**os.environ, **(self.env or {})})
        try:
            self.wait_for(ready, timeout)
        except AssertionError:  # a server that never got ready is stopped all the same, never left behind
            self.stop()
            raise
        return self

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def health(self) -> dict:
        if self.proc is not None:
            self.seen.update(descendants(self.proc.pid))
        return json.loads(self.get("/health")[1])

    def wait_for(self, condition, timeout: float = 20, what: str | None = None) -> dict:
        deadline = time.monotonic() + timeout
        last: dict = {}
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, self.output()
            try:
                last = self.health()
                if condition(last):
                    return last
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise AssertionError(f"{what or self.what}: condition not met in {timeout} s; last health {last}\n"
                             f"{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None:
            return
        self.seen.update(descendants(self.proc.pid))
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None
        left = still_running(list(self.seen))
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left behind: {left}"

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
