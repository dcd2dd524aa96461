"""Helpers for the kiosk tests: a real kiosk server in a subprocess, and a WebSocket client for it."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import aiohttp

from python_bridge.exhibit.web_guard import free_port
from tests.programs import need
from tests.server_process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]

# Small, fast games for tests: 4 pits x 3 seeds, a fixed low level, every pause short, seeded.
TEST_CONFIG = """\
[game]
pits = 4
seeds = 3
level = 3
first = "visitor"
[kiosk]
speed = "fast"
idle_seconds = {idle}
countdown_seconds = {countdown}
port = {port}
state_dir = "state"
{extra_kiosk}
[attract]
attract_seed = 1960
attract_level = 3
attract_pause = {attract_pause}
end_pause = 0.5
[operation]
watchdog_seconds = 3
"""


def write_config(folder: Path, *, idle: float = 30, countdown: float = 3, attract_pause: float = 0.3,
                 extra_kiosk: str = "", port: int | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "kiosk.toml"
    path.write_text(TEST_CONFIG.format(idle=idle, countdown=countdown, port=port or free_port(),
                                       attract_pause=attract_pause, extra_kiosk=extra_kiosk))
    return path


class KioskServer(ServerProcess):
    """``python -m python_bridge kiosk --config FILE`` as a subprocess; stopping it leaves no pdp1 behind."""

    what = "the kiosk"

    def __init__(self, config: Path, env: dict[str, str] | None = None) -> None:
        self.config = config
        self.port = int(config.read_text().split("port = ")[1].split()[0])
        super().__init__(["kiosk", "--config", str(config)], f"http://127.0.0.1:{self.port}",
                         config.parent / "server-output.txt", env)

    def move(self) -> None:
        """Another free port, in the configuration file (where the kiosk reads its port)."""
        old, self.port = self.port, free_port()
        self.config.write_text(self.config.read_text().replace(f"port = {old}\n", f"port = {self.port}\n", 1))
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20, ready=lambda h: h["status"] == "ok" and h["pdp1_alive"]) -> "KioskServer":
        return super().start(timeout, ready)

    def health(self) -> dict:
        report = super().health()
        if report.get("pdp1_pid"):
            self.seen.add(report["pdp1_pid"])
        return report


class Page:
    """A WebSocket client that keeps the kiosk's state as a page would (for protocol tests)."""

    def __init__(self, server: KioskServer, *, origin: str | None = "", control: str | None = None) -> None:
        self.server = server
        self.origin = server.url if origin == "" else origin  # the kiosk's own page by default
        self.control_token = control
        self.controls: bool | None = None
        self.state: dict = {}
        self.paper = ""
        self.rejected: list[str] = []
        self.messages: list[dict] = []

    async def __aenter__(self) -> "Page":
        self.session = aiohttp.ClientSession()
        query = f"?control={self.control_token}" if self.control_token else ""
        self.ws = await self.session.ws_connect(self.server.url + "/ws" + query, origin=self.origin)
        await self.until(lambda: bool(self.state))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()
        await self.session.close()

    def _take(self, msg: dict) -> None:
        self.messages.append(msg)
        kind = msg["type"]
        if kind == "hello":
            self.state, self.paper, self.controls = msg["state"], msg["paper"]["text"], msg["control"]
        elif kind == "control":
            self.controls = msg["control"]
        elif kind == "state":
            self.state = msg
        elif kind == "paper":
            self.paper = msg["text"] if msg.get("reset") else self.paper + msg["text"]
        elif kind == "rejected":
            self.rejected.append(msg["reason"])

    async def until(self, condition, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"page: condition not met; state {self.state}; rejected {self.rejected}")
            try:
                msg = await self.ws.receive(timeout=left)
            except asyncio.TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                await self.dropped(msg, deadline)
                continue
            self._take(json.loads(msg.data))
            await self.taken()

    async def dropped(self, msg: aiohttp.WSMessage, deadline: float) -> None:
        """The connection ended (a page of a test that expects none fails; one that comes back overrides)."""
        raise AssertionError(f"the server closed the connection: {msg}")

    async def taken(self) -> None:
        """After each message taken (a page that answers by itself overrides)."""

    async def settle(self, seconds: float = 0.3) -> None:
        """Take whatever arrives within ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = await self.ws.receive(timeout=left)
            except asyncio.TimeoutError:
                return
            if msg.type == aiohttp.WSMsgType.TEXT:
                self._take(json.loads(msg.data))

    async def send(self, message: dict | str) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def move(self, pit: int, turn: int | None = None) -> None:
        """A tap on a pit, answering the question on show (or ``turn``)."""
        await self.send({"type": "move", "pit": pit, "turn": self.state["turn"] if turn is None else turn})

    def your_turn(self) -> bool:
        return self.state.get("mode") == "visitor" and self.state.get("phase") == "your_turn"


# -- the deployment (deploy/): its units as install.sh fills them in, and the screen's programs ---------------
SCREEN_PROGRAMS = ("/usr/bin/cage", "/usr/bin/Xwayland", "/usr/bin/chromium", "/usr/bin/wlr-randr")


def render_unit(name: str, prefix: Path, etc: Path, state: Path) -> str:
    """deploy/NAME with its placeholders filled in as deploy/install.sh does."""
    text = (ROOT / "deploy" / name).read_text()
    for key, value in (("@PREFIX@", str(prefix)), ("@ETC@", str(etc)), ("@STATE@", str(state)),
                       ("@USER@", "kalah-kiosk"), ("@SCREEN_USER@", "kalah-screen")):
        text = text.replace(key, value)
    return text


def screen_programs() -> None:
    """Debian's cage, Xwayland, Chromium and wlr-randr (what make install-kiosk installs for the screen), as
    the test set-up installed them; a missing one fails the test with its package's name."""
    for program in SCREEN_PROGRAMS:
        need(program)


def processes_using(marker: str) -> list[int]:
    """The processes whose command line names ``marker`` (a profile folder: Chromium left behind)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            pass
    return found
