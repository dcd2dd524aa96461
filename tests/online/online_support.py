"""The online server as a subprocess on a free loopback port, and a WebSocket page that keeps its game."""

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

import aiohttp

from python_bridge.kiosk.procinfo import descendants
from tests.kiosk.kiosk_support import ROOT, Page, free_port
from tests.processes import still_running

# A game over in a few moves: 2 pits, 1 seed, the PDP-1 one ply deep, no choices offered.
QUICK = """[online]
max_games = {max_games}
max_waiting = {max_waiting}
per_ip_games = {per_ip}
min_free_mb = {min_free_mb}
pace = "fast"
[game]
pits = {pits}
seeds = {seeds}
level = 1
[choices]
games = []
strengths = []
"""


def write_settings(folder: Path, *, max_games: int = 2, max_waiting: int = 10, per_ip: int = 50, pits: int = 2,
                   seeds: int = 1, min_free_mb: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "online.toml"
    path.write_text(QUICK.format(max_games=max_games, max_waiting=max_waiting, per_ip=per_ip, pits=pits, seeds=seeds,
                                 min_free_mb=min_free_mb))
    return path


class OnlineServer:
    """``python -m python_bridge online`` as a subprocess; stopping it leaves no pdp1 behind."""

    def __init__(self, settings: Path, state_dir: Path, ready=lambda h: h["status"] == "ok") -> None:
        self.settings = settings
        self.ready = ready  # what health must say before the server counts as started
        self.state_dir = state_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = settings.parent / "server-output.txt"
        self.proc: subprocess.Popen | None = None
        self.seen: set[int] = set()  # every process the server ran (its pdp1s)

    def start(self, timeout: float = 20) -> "OnlineServer":
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "python_bridge", "online", "--config", str(self.settings),
                 "--port", str(self.port), "--state-dir", str(self.state_dir)],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        try:
            self.wait_for(self.ready, timeout)
        except AssertionError:
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

    def wait_for(self, condition, timeout: float = 20, what: str = "the server") -> dict:
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
        raise AssertionError(f"{what}: condition not met in {timeout} s; last health {last}\n{self.output()}")

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
        time.sleep(0.2)
        left = still_running(self.seen)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left behind: {left}"

    def __enter__(self) -> "OnlineServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class OnlinePage(Page):
    """A page of the online exhibit: its game's ID, its place in line, a "full" answer."""

    def __init__(self, server: OnlineServer, game: str | None = None, origin: str | None = "") -> None:
        super().__init__(server, origin=origin)  # type: ignore[arg-type]
        self.asked = game
        self.game: str | None = None
        self.queue: dict | None = None
        self.full: dict | None = None

    async def __aenter__(self) -> "OnlinePage":
        self.session = aiohttp.ClientSession()
        query = f"?game={self.asked}" if self.asked is not None else ""
        self.ws = await self.session.ws_connect(self.server.url + "/ws" + query, origin=self.origin)
        await self.until(lambda: bool(self.state))
        return self

    def _take(self, msg: dict) -> None:
        super()._take(msg)
        if msg["type"] == "hello":
            self.game = msg["game"]
        elif msg["type"] == "queue":
            self.queue = msg
        elif msg["type"] == "full":
            self.full = msg

    async def play_out(self, timeout: float = 60) -> None:
        """Answer every question with the first legal pit until the game is over."""
        deadline = time.monotonic() + timeout
        while self.state.get("phase") != "game_over":
            assert time.monotonic() < deadline, f"the game did not end: {self.state}"
            await self.until(lambda: self.your_turn() or self.state.get("phase") == "game_over", timeout)
            if self.your_turn():
                turn = self.state["turn"]
                await self.move(self.state["legal"][0])
                await self.until(lambda turn=turn: self.state["turn"] != turn
                                 or self.state.get("phase") == "game_over", timeout)
