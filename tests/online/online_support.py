"""The online server as a subprocess on a free loopback port, and a WebSocket page that keeps its game."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import aiohttp

from tests.kiosk.kiosk_support import ROOT, Page, free_port
from tests.server_process import ServerProcess

# A game over in a few moves: 2 pits, 1 seed, the PDP-1 one ply deep, no choices offered; its searches in the
# server's own interpreter (workers = 0) unless a test asks for worker processes (the shipped default: a core each).
QUICK = """[online]
max_games = {max_games}
max_waiting = {max_waiting}
per_ip_games = {per_ip}
min_free_mb = {min_free_mb}
pace = "{pace}"
idle_seconds = {idle_seconds}
watchdog_seconds = {watchdog_seconds}
workers = {workers}
{tape}[game]
pits = {pits}
seeds = {seeds}
level = {level}
first = "{first}"
{choices}"""


def write_settings(folder: Path, *, max_games: int = 2, max_waiting: int = 10, per_ip: int = 50, pits: int = 2,
                   seeds: int = 1, min_free_mb: int = 0, pace: str = "fast", level: int = 1,
                   idle_seconds: int = 300, watchdog_seconds: float = 10, workers: int = 0, first: str = "visitor",
                   tape: Path | None = None, choices: bool = False) -> Path:
    """The server's settings file in ``folder``; ``tape``: another tape of the game to play (``[online] tape``);
    ``choices``: the kiosk's choices offered (none by default)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "online.toml"
    path.write_text(QUICK.format(max_games=max_games, max_waiting=max_waiting, per_ip=per_ip, pits=pits, seeds=seeds,
                                 min_free_mb=min_free_mb, pace=pace, level=level, idle_seconds=idle_seconds,
                                 watchdog_seconds=watchdog_seconds, workers=workers, first=first,
                                 tape=f'tape = "{tape}"\n' if tape else "",
                                 choices="" if choices else "[choices]\ngames = []\nstrengths = []\n"))
    return path


class OnlineServer(ServerProcess):
    """``python -m python_bridge online`` as a subprocess; stopping it leaves no pdp1 behind."""

    def __init__(self, settings: Path, state_dir: Path, ready=lambda h: h["status"] == "ok") -> None:
        self.settings = settings
        self.ready = ready  # what health must say before the server counts as started
        self.state_dir = state_dir
        self.port = free_port()
        super().__init__(["online", "--config", str(settings), "--port", str(self.port), "--state-dir",
                          str(state_dir)], f"http://127.0.0.1:{self.port}", settings.parent / "server-output.txt")

    def start(self, timeout: float = 20, ready=None) -> "OnlineServer":
        return super().start(timeout, ready or self.ready)

    def move(self) -> None:
        super().move()
        self.port = int(self.url.rsplit(":", 1)[1])


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


YOUR_MOVE = 'body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal'


def start_in_browser(page, url: str) -> str:
    """Open the online page in a Chromium tab, play (the rules card closed if it opens) until the visitor is
    asked a move; the game's ID, as the tab keeps it."""
    page.goto(url + "/")
    page.wait_for_function("sessionStorage.getItem('kalah-game') !== null")
    page.locator('[data-action="play"]').tap()
    page.wait_for_selector('body[data-mode="visitor"]')  # (the game begun: how to play is shown, if at all)
    if page.locator('[data-action="close-rules"]').is_visible():
        page.locator('[data-action="close-rules"]').tap()
    page.wait_for_selector(YOUR_MOVE)
    return page.evaluate("sessionStorage.getItem('kalah-game')")


# The kiosk's choices and its classic board (six pits) at the fast pace: the pages' layout and vision walks.
CLASSIC = """[online]
max_games = {max_games}
workers = 0
per_ip_games = 50
min_free_mb = 0
pace = "fast"
[game]
level = 1
"""


@contextlib.contextmanager
def classic_server(folder: Path, max_games: int) -> Iterator[OnlineServer]:
    """A server of the classic board in ``folder`` (its settings and state), stopped after the block."""
    settings = folder / "conf" / "online.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text(CLASSIC.format(max_games=max_games))
    with OnlineServer(settings, folder / "state") as started:
        yield started


def online_command(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m python_bridge online ARGS`` (its database looked after: prune, backup, restore, stats)."""
    return subprocess.run([sys.executable, "-m", "python_bridge", "online", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def where(database: tuple[str, Path]) -> list[str]:
    """The options naming a test's database (``database`` fixture): PostgreSQL's URL, or SQLite's folder."""
    url, state = database
    return ["--database", url] if url else ["--state-dir", str(state)]
