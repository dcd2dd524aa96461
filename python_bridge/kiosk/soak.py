"""``make soak GAMES=N`` or ``make soak DURATION=2h``: the kiosk plays attract games unattended, as it
would for weeks, and is hurt on purpose meanwhile.

A real kiosk server is started (``python -m python_bridge kiosk``) with a
page connected to it the whole time (reconnecting as a real page does).
Every ``kill_every`` games its ``pdp1`` is killed mid-game (recovery: the
game restored on a new emulator); every ``restart_every`` games the server
itself is killed (SIGKILL, no chance to tidy up) and started again on the
same ``state_dir`` (the saved game restored, the counters kept).  The log
rotates at 100 kB so that its rotation is exercised too.

At the end it prints the games played, emulator restarts, server restarts,
cross-check mismatches and errors, the server's memory, open files and
processes at the start (after a first game, warm) and at the end of each
server's life (a leak shows as growth there), and the log's size and
rotations.  Exit status 0 when nothing was lost and nothing grew, 1
otherwise, 130 when stopped by SIGTERM or Ctrl-C (the server and its
``pdp1`` stopped, the temporary folder removed, the figures so far printed).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from ..driver.wording import count
from ..exhibit.health import alive
from ..exhibit.web_guard import free_port

ROOT = Path(__file__).resolve().parents[2]
MEMORY_SLACK_KB = 4096  # allocator noise; a leak grows game after game, far past this
FD_SLACK = 3  # the page's connection may be between reconnections at either look
LOG_MAX_BYTES = 100_000
LOG_BACKUPS = 3

CONFIG = """\
[game]
pits = {pits}
seeds = {seeds}
level = {level}
[kiosk]
speed = "fast"
port = {port}
state_dir = "state"
[attract]
attract_pause = 0.0
end_pause = 0.0
[operation]
log_max_bytes = {log_max_bytes}
log_backups = {log_backups}
"""


@dataclass(frozen=True)
class SoakPlan:
    """What to run: stop at ``games`` or after ``duration`` seconds, whichever comes first (None: no limit)."""

    games: int | None = 20
    duration: float | None = None
    kill_every: int = 5
    restart_every: int = 0
    pits: int = 6
    seeds: int = 4
    level: int = 0
    timeout: float = 3600.0  # a run that reaches neither limit by then fails


class SoakStopped(BaseException):
    """SIGTERM: stop the soak as Ctrl-C does (a BaseException, so no ``except Exception`` swallows it)."""


@dataclass
class Life:
    """One server process's figures: at its first finished game (warm) and at its last look."""

    pid: int
    base: int | None = None  # games played (totals) at its first look
    start: dict | None = None
    end: dict | None = None


@dataclass
class Figures:
    lives: list[Life] = field(default_factory=list)
    cold: dict | None = None
    last: dict | None = None
    pdp1_killed: int = 0
    server_killed: int = 0
    rotations: int = 0
    page_messages: int = 0
    page_reconnections: int = 0


def health(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url + "/health", timeout=5) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return json.loads(err.read())
    except (OSError, ValueError):
        return None


class Page(threading.Thread):
    """A page connected for the whole run, reading everything the kiosk sends, reconnecting when dropped."""

    def __init__(self, url: str, figures: Figures) -> None:
        super().__init__(name="soak-page", daemon=True)
        self.url, self.figures = url, figures
        self.stopping = threading.Event()

    def run(self) -> None:
        asyncio.run(self._watch())

    async def _watch(self) -> None:
        import aiohttp  # (here, not at the top: a usage error or a soak's plan needs no web client, 0.3 s to load)

        while not self.stopping.is_set():
            try:
                async with aiohttp.ClientSession() as session, \
                        session.ws_connect(self.url.replace("http", "ws") + "/ws", origin=self.url) as ws:
                    self.figures.page_reconnections += 1
                    while not self.stopping.is_set():
                        try:
                            msg = await ws.receive(timeout=0.5)
                        except asyncio.TimeoutError:
                            continue
                        if msg.type != aiohttp.WSMsgType.TEXT:
                            break
                        self.figures.page_messages += 1
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.5)


class Server:
    """The kiosk server under test, started and killed by the soak (only the processes it started)."""

    def __init__(self, config: Path, output: Path) -> None:
        self.config, self.output = config, output
        self.proc: subprocess.Popen | None = None
        self.pdp1_pids: set[int] = set()

    def start(self) -> int:
        # its temporary files (the emulators' tapes) inside the soak's folder: a killed server cannot remove them
        tmp = self.config.parent / "tmp"
        tmp.mkdir(exist_ok=True)
        with open(self.output, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "python_bridge", "kiosk", "--config", str(self.config)],
                                         cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                         env={**os.environ, "TMPDIR": str(tmp)})
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a power cut or a crash would; its pdp1 dies with it (PR_SET_PDEATHSIG)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._reap_pdp1()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._reap_pdp1()

    def _reap_pdp1(self) -> None:
        deadline = time.monotonic() + 5
        for pid in list(self.pdp1_pids):
            while alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.pdp1_pids.discard(pid)


def wait_healthy(url: str, server: Server, seconds: float = 30) -> dict | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.alive:
        report = health(url)
        if report is not None and report.get("pdp1_alive"):
            return report
        time.sleep(0.1)
    return None


def _log_inode(log: Path) -> int | None:
    try:
        return log.stat().st_ino
    except OSError:
        return None


def _play(plan: SoakPlan, url: str, server: Server, log: Path, figures: Figures) -> str | None:
    """The soak's loop; None when a limit was reached, else why it had to stop early."""
    began = time.monotonic()
    figures.lives.append(Life(server.start()))
    figures.cold = wait_healthy(url, server)
    if figures.cold is None:
        return "the kiosk server did not start"
    next_kill = plan.kill_every or None
    next_restart = plan.restart_every or None
    inode = _log_inode(log)
    while True:
        now = time.monotonic()
        if plan.duration is not None and now - began >= plan.duration:
            return None
        if now - began >= plan.timeout:
            return f"timed out after {plan.timeout:g} s"
        if not server.alive:
            return "the kiosk server exited by itself"
        report = health(url)
        if report is None:
            time.sleep(0.2)
            continue
        figures.last = report
        life = figures.lives[-1]
        if report.get("pdp1_pid"):
            server.pdp1_pids.add(report["pdp1_pid"])
        played = report["attract_games"]
        if life.base is None:
            life.base = report["games_played"]
        elif life.start is None and report["games_played"] > life.base:  # warm: a first game finished
            life.start = report
        life.end = report
        current = _log_inode(log)
        if current is not None and inode is not None and current != inode:
            figures.rotations += 1
        inode = current if current is not None else inode
        if plan.games is not None and played >= plan.games:
            return None
        if next_restart is not None and played >= next_restart:
            server.kill()
            figures.server_killed += 1
            next_restart += plan.restart_every
            figures.lives.append(Life(server.start()))
            if wait_healthy(url, server) is None:
                return "the kiosk server did not come back after being killed"
            continue
        if next_kill is not None and played >= next_kill and report["phase"] in ("thinking", "typing", "demo_turn") \
                and report["pdp1_pid"]:
            try:
                os.kill(report["pdp1_pid"], signal.SIGKILL)
                figures.pdp1_killed += 1
            except ProcessLookupError:
                pass
            next_kill += plan.kill_every
        time.sleep(0.2)


def _stopped_by_sigterm(signum: int, frame: object) -> None:
    raise SoakStopped()


def run_soak(plan: SoakPlan) -> int:
    """Run ``plan``; print the figures; 0 if nothing was lost and nothing grew, 1 if something did, 130 if stopped."""
    figures = Figures()
    previous = signal.signal(signal.SIGTERM, _stopped_by_sigterm)
    began = time.monotonic()
    stopped = False
    problem: str | None = None
    log_text = ""
    log_bytes, backups = 0, 0
    try:
        with tempfile.TemporaryDirectory(prefix="kiosk-soak-") as tmp:
            port = free_port()
            config = Path(tmp) / "soak.toml"
            config.write_text(CONFIG.format(pits=plan.pits, seeds=plan.seeds, level=plan.level, port=port,
                                            log_max_bytes=LOG_MAX_BYTES, log_backups=LOG_BACKUPS))
            url = f"http://127.0.0.1:{port}"
            log = Path(tmp) / "state" / "kiosk.log"
            server = Server(config, Path(tmp) / "server.txt")
            page = Page(url, figures)
            try:
                page.start()
                problem = _play(plan, url, server, log, figures)
                time.sleep(0.5)
                if server.alive and (final := health(url)) is not None:
                    figures.last = final
                    figures.lives[-1].end = final
            except (KeyboardInterrupt, SoakStopped):
                stopped = True
            finally:
                page.stopping.set()
                server.stop()
                page.join(5)
                logs = sorted(log.parent.glob("kiosk.log*")) if log.parent.is_dir() else []
                log_bytes = sum(p.stat().st_size for p in logs)
                backups = len(logs) - 1 if logs else 0
                log_text = "\n".join(p.read_text(errors="replace") for p in reversed(logs))
    except (KeyboardInterrupt, SoakStopped):  # a second Ctrl-C while tidying up: the tidying is done
        stopped = True
    finally:
        signal.signal(signal.SIGTERM, previous)
    return _report(plan, figures, time.monotonic() - began, problem, stopped, log_text, log_bytes, backups)


def _report(plan: SoakPlan, figures: Figures, seconds: float, problem: str | None, stopped: bool, log_text: str,
            log_bytes: int, backups: int) -> int:
    end = figures.last or {}
    limits = [count(plan.games, "game") if plan.games is not None else "",
              f"{plan.duration:g} s" if plan.duration else ""]
    print(f"kiosk soak: {plan.pits} pits, {plan.seeds} seeds, level {plan.level or 'auto'}, fast speed, "
          f"until {' or '.join(limit for limit in limits if limit)}; ran {seconds:.0f} s")
    if not end:
        print("  no figures: the server never answered")
        return 130 if stopped else 1
    print(f"  games played:      {end['attract_games']} attract-mode games ({end['aborted_games']} left unfinished)")
    print(f"  emulator restarts: {end['restarts']} (pdp1 killed {figures.pdp1_killed} times on purpose)")
    print(f"  server restarts:   {figures.server_killed} (killed with SIGKILL on purpose); server starts "
          f"{end['server_starts']}, games restored after a restart {end['restored_after_server_restart']}")
    print(f"  mismatches:        {end['mismatches']}   errors: {end['errors']}")
    print(f"  page messages:     {figures.page_messages} received by a page connected throughout "
          f"({figures.page_reconnections} connections)")
    grew: list[str] = []
    measured = [(n, life) for n, life in enumerate(figures.lives, 1) if life.start is not None and life.end is not None]
    for k, (n, life) in enumerate(measured):
        start, last = life.start, life.end
        assert start is not None and last is not None
        if k in (0, len(measured) - 1):
            print(f"  server {n} (pid {life.pid}): memory {start['rss_kb']} -> {last['rss_kb']} KiB, open files "
                  f"{start['open_fds']} -> {last['open_fds']}, processes {start['processes']} -> {last['processes']}, "
                  f"games {start['attract_games']} -> {last['attract_games']}")
        if last["rss_kb"] > start["rss_kb"] + MEMORY_SLACK_KB:
            grew.append(f"server {n}'s memory grew ({start['rss_kb']} -> {last['rss_kb']} KiB)")
        if last["open_fds"] > start["open_fds"] + FD_SLACK:
            grew.append(f"server {n}'s open files grew ({start['open_fds']} -> {last['open_fds']})")
        if last["processes"] > start["processes"]:
            grew.append(f"server {n}'s process count grew")
    if len(measured) > 2:
        print(f"  ({len(measured) - 2} servers between, each checked the same way)")
    if len(figures.lives) > len(measured):
        print(f"  ({len(figures.lives) - len(measured)} servers stopped before they finished a game: not compared)")
    print(f"  log:               {log_bytes} bytes in kiosk.log and {backups} old files; {figures.rotations} "
          f"rotations seen (at {LOG_MAX_BYTES} bytes, {LOG_BACKUPS} kept)")
    if stopped:
        print("soak stopped (SIGTERM or Ctrl-C): the server and its pdp1 stopped, the temporary folder removed")
        return 130
    problems = [problem] if problem else []
    if plan.games is not None and plan.duration is None and end["attract_games"] < plan.games:
        problems.append(f"only {end['attract_games']} of {plan.games} games")
    if end["mismatches"] or end["errors"]:
        problems.append("mismatches or errors (see the log lines below)")
    if not any(life.end["attract_games"] > life.start["attract_games"] for _, life in measured):  # type: ignore[index]
        problems.append(f"nothing was measured: {count(end['attract_games'], 'attract game')} finished, and a "
                        "server's first game is its warm-up, so no server played a game to compare against it "
                        "(ask for more games or a longer --duration)")
    problems += grew
    if problems:
        print("SOAK FAILED: " + "; ".join(problems))
        print("\n".join(line for line in log_text.splitlines() if " ERROR " in line or " WARNING " in line)[-3000:])
        return 1
    print("soak passed: nothing grew, nothing was lost")
    return 0
