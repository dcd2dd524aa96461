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
from python_bridge.exhibit.web_guard import free_port
from tests.processes import still_running

ROOT = Path(__file__).resolve().parent.parent
PORT_TRIES = 3
ADDRESS_IN_USE = "address already in use"  # (errno 98: the server says so in its one line, as asyncio words it)


class PortTaken(AssertionError):
    """The server's port was another process's before the server could listen on it."""


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
        """Start the server and wait until its health satisfies ``ready`` (healthy, by default).

        Its port is a free one (``free_port``), but another worker's server may take it first: then the health
        that answers is another process's, and this server cannot listen.  Such a start is tried again on
        another port (``move``), up to ``PORT_TRIES`` times; a server that fails otherwise fails the test."""
        for _ in range(PORT_TRIES):
            with open(self.log, "ab") as out:
                self.proc = subprocess.Popen([sys.executable, "-m", "python_bridge", *self.args], cwd=ROOT,
                                             stdout=out, stderr=subprocess.STDOUT,
                                             env={**os.environ, **(self.env or {})})
            try:
                self.wait_for(lambda h: self._ours(h) and ready(h), timeout)
                return self
            except PortTaken:
                self.stop()
                self.move()
            except AssertionError:  # a server that never got ready is stopped all the same, never left behind
                self.stop()
                raise
        raise AssertionError(f"{self.what}: every port tried was taken by another process")

    def _ours(self, report: dict) -> bool:
        """Whether ``report`` is this server's own health (PortTaken if another server answered, or this one
        could not listen)."""
        assert self.proc is not None
        pid = report.get("pid", report.get("server_pid"))
        if pid not in (None, self.proc.pid):
            raise PortTaken(f"another server (pid {pid}) answers on {self.url}")
        return True

    def move(self) -> None:
        """Listen on another free port next time (a subclass that names its port elsewhere moves it there)."""
        port = free_port()
        old = self.url.rsplit(":", 1)[1]
        self.args = [str(port) if arg == old else arg for arg in self.args]
        self.url = f"http://127.0.0.1:{port}"

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
            assert self.proc is not None
            if self.proc.poll() is not None and ADDRESS_IN_USE in self.output().lower():
                raise PortTaken(f"{self.url} was taken before {self.what} could listen")
            assert self.proc.poll() is None, self.output()
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
