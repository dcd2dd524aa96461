"""``make bench-online``: how many visitors one host serves, measured with simulated visitors.

Why a benchmark and not a test: what a host holds depends on the host; the figures are printed, never
asserted.  The server is started on a free loopback port with the shipped settings (a scratch state
folder aside), behind nothing; each simulated visitor is a real WebSocket client, seeded, that plays
one whole game: it thinks 2 to 8 seconds a move (uniform, from its own seeded generator) and plays a
random legal pit.  Visitors arrive together at each step of the ramp (10, 25, 50, 100, 200 by
default), each from an address of its own, said by ``X-Forwarded-For`` as a trusted proxy (the
loopback, the only one trusted here) would say it.  For each step it prints:

* games completed;
* the PDP-1's replies, p50, p95 and max, measured at the server from the move's arrival to the next
  question;
* the wait in line for a machine, p95, at the visitors;
* the CPU of the server and of the emulators as a share of the host, from /proc;
* the resident memory at the step's peak, in all and per game;
* errors and mismatches (the server's counters, and visitors that did not finish);
* the pace: the wall seconds the PDP-1's replies took for each of their counted 1960 seconds -- the
  thinking's memory cycles at 200,000 a second and the typewriter's characters at 10 a second -- timed
  at the server from the visitor's move to the next question (1.00 is the 1960 pace kept exactly; the
  target is within 10 %, 0.90 to 1.10; "-" when unpaced).

Then the capacity: the largest step whose reply p95 meets the target (1.5 s at ``--pace fast``, 15 s
at the shipped 1960 pace, the pace kept within 10 % there), every game finished and checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..exhibit.procinfo import cpu_seconds, descendants, rss_kb
from ..exhibit.web_guard import free_port
from ..kiosk.soak import ROOT
from .online_visitor import visit

TARGET_P95_S = {"fast": 1.5, "1960": 15.0}
PACE_TOLERANCE = 0.10  # the 1960 pace: a counted second of thinking takes 0.9 to 1.1 wall seconds
THINK_S = (2.0, 8.0)
STRENGTHS = ("gentle", "fair", "full")


class ServerDidNotStart(RuntimeError):
    """The server measured never answered /health (the command says so in one line, exit status 2)."""


@dataclass
class Step:
    visitors: int
    completed: int = 0
    failed: int = 0
    waits: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    server_cpu: float = 0.0
    emulator_cpu: float = 0.0
    peak_rss_kb: int = 0
    peak_games: int = 0
    baseline_rss_kb: int = 0
    errors: int = 0
    mismatches: int = 0
    seconds: float = 0.0
    paced_1960_s: float = 0.0  # the PDP-1's paced replies in the step: their counted 1960 seconds
    paced_wall_s: float = 0.0  # and the wall seconds they took
    shares: list[int] = field(default_factory=list)  # games each server finished in the step
    parts_cpu: dict[str, float] = field(default_factory=dict)  # HAProxy's, PostgreSQL's, as a share of the host

    def costs(self) -> str:
        """The servers' shares of the games and what the parts in front and behind cost."""
        total = sum(self.shares) or 1
        shares = " ".join(f"{n / total:.0%}" for n in self.shares)
        parts = ", ".join(f"{name} {cpu:.1%}" for name, cpu in self.parts_cpu.items())
        return f"servers' shares {shares}" + (f"; {parts} of the host" if parts else "")

    def pace(self) -> float | None:
        """Wall seconds a counted 1960 second of the PDP-1's replies took (1.00: the pace kept exactly); None
        unpaced."""
        return self.paced_wall_s / self.paced_1960_s if self.paced_1960_s else None

    def row(self) -> str:
        def pct(values: list[float], q: float) -> str:
            if not values:
                return "    -"
            return f"{sorted(values)[min(len(values) - 1, int(q * len(values)))]:5.2f}"

        per_game = (self.peak_rss_kb - self.baseline_rss_kb) / max(1, self.peak_games) / 1024
        p50 = f"{statistics.median(self.replies):5.2f}" if self.replies else "    -"
        return (f"{self.visitors:8d}  {self.completed:9d}  {p50}  {pct(self.replies, 0.95)}  "
                f"{max(self.replies, default=0):6.2f}  {pct(self.waits, 0.95)}  {self.server_cpu:6.1%}  "
                f"{self.emulator_cpu:6.1%}  {self.peak_rss_kb / 1024:8.1f}  {per_game:7.2f}  "
                f"{self.errors + self.failed:6d}  {self.mismatches:6d}  {self.seconds:6.0f}  "
                f"{'   -' if self.pace() is None else f'{self.pace():4.2f}'}")

    def meets(self, target_s: float) -> bool:
        """Reply p95 within ``target_s``, the 1960 pace (when paced) kept within PACE_TOLERANCE, and every game
        finished and checked."""
        ratio = self.pace()
        paced = ratio is None or abs(ratio - 1) <= PACE_TOLERANCE
        return self.p95() <= target_s and paced and not self.failed and not self.errors and not self.mismatches

    def p95(self) -> float:
        return sorted(self.replies)[min(len(self.replies) - 1, int(0.95 * len(self.replies)))] if self.replies \
            else float("inf")


HEADER = ("visitors  completed  p50 s  p95 s   max s  wait95  server  pdp1s   RSS MB  MB/game  errors  "
          "mism.  wall s  pace")


def _health(url: str, replies_from: int | None = None) -> dict:
    query = f"?replies={replies_from}" if replies_from is not None else ""
    try:
        with urllib.request.urlopen(url + "/health" + query, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return json.loads(err.read())


def _reaped_children_cpu(pid: int) -> float:
    """CPU seconds of the children ``pid`` has waited for (its pdp1s, a postmaster's backends): cutime, cstime."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def _tree_cpu(pid: int, own: bool = True) -> float:
    """CPU seconds of ``pid`` (unless not ``own``) and of every process below it, running or ended."""
    total = (cpu_seconds(pid) if own else 0.0) + _reaped_children_cpu(pid)
    for kid in descendants(pid):
        try:
            total += cpu_seconds(kid)
        except OSError:
            pass
    return total


@dataclass
class Measured:
    """What a step measures: the servers (each its URL and pid), where the visitors go, and the parts in
    front and behind (HAProxy, PostgreSQL: name -> pid), each costed with everything below it."""

    url: str
    servers: list[tuple[str, int]]
    parts: dict[str, int] = field(default_factory=dict)

    def usage(self) -> tuple[float, float, int, int, dict[str, float]]:
        """CPU seconds of the servers and of their pdp1s (running and ended), the resident memory of them all
        (KiB), how many pdp1s run, and each part's CPU seconds."""
        server = emulators = 0.0
        rss = kids = 0
        for _, pid in self.servers:
            below = descendants(pid)
            server += cpu_seconds(pid)
            emulators += _tree_cpu(pid, own=False)
            rss += rss_kb(pid) + sum(rss_kb(k) for k in below)
            kids += len(below)
        return server, emulators, rss, kids, {name: _tree_cpu(pid) for name, pid in self.parts.items()}


async def visitors_step(site: Measured, visitors: int, seed: int, strength: str | None,
                        think: tuple[float, float]) -> Step:
    """``visitors`` arriving together at ``site``, each playing one whole game: the step measured."""
    step = Step(visitors)
    step.baseline_rss_kb = sum(rss_kb(pid) for _, pid in site.servers)  # idle servers: the games add to this
    before = {url: _health(url) for url, _ in site.servers}
    cpu0 = site.usage()
    began = time.monotonic()
    tasks = [asyncio.create_task(visit(site.url, n, seed, strength, step, think)) for n in range(visitors)]
    while not all(task.done() for task in tasks):
        _, _, rss, kids, _ = site.usage()
        step.peak_rss_kb, step.peak_games = max(step.peak_rss_kb, rss), max(step.peak_games, kids)
        await asyncio.wait(tasks, timeout=1.0)
    for task in tasks:
        if task.exception() is not None:
            step.failed += 1
    step.seconds = time.monotonic() - began
    _settled(site)
    cpu1 = site.usage()
    cores = len(os.sched_getaffinity(0))
    step.server_cpu = (cpu1[0] - cpu0[0]) / step.seconds / cores
    step.emulator_cpu = max(0.0, cpu1[1] - cpu0[1]) / step.seconds / cores
    step.parts_cpu = {name: max(0.0, cpu1[4][name] - cpu0[4][name]) / step.seconds / cores for name in site.parts}
    for url, _ in site.servers:
        was = before[url]
        after = _health(url, was.get("replies_timed", 0))
        step.replies += after.get("replies", [])
        step.errors += after["errors"] - was["errors"]
        step.mismatches += after["mismatches"] - was["mismatches"]
        step.paced_1960_s += after["reply_1960_s"] - was["reply_1960_s"]
        step.paced_wall_s += after["reply_wall_s"] - was["reply_wall_s"]
        step.shares.append(after["games_played"] - was["games_played"])
    return step


def _settled(site: Measured, timeout: float = 30.0) -> None:
    """Wait until every server has counted its games: a visitor sees the end before its server has done
    with the game (the typewriter's last line, the record kept)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(_health(url).get("games", 0) == 0 for url, _ in site.servers):
            return
        time.sleep(0.2)


def ramp(site: Measured, steps: list[int], pace: str, strength: str | None, seed: int, think: tuple[float, float],
         max_games: int, title: str = "bench-online") -> list[Step]:
    """The visitors ramped on ``site``: its heading, a row a step (with the servers' shares and the parts'
    costs past one server), and the capacity line; the steps."""
    target = TARGET_P95_S[pace]
    print(f"{title}: pace {pace}, strength {strength or 'the shipped default'}, max_games {max_games}"
          f"{' a server' if len(site.servers) > 1 else ''}, {len(os.sched_getaffinity(0))} cores, seed {seed}; "
          f"visitors think {think[0]:g}-{think[1]:g} s a move; target: reply p95 <= {target:g} s", flush=True)
    print(HEADER, flush=True)
    met, done = [], []
    for visitors in steps:
        step = asyncio.run(visitors_step(site, visitors, seed, strength, think))
        done.append(step)
        print(step.row(), flush=True)
        if len(site.servers) > 1 or site.parts:
            print("          " + step.costs(), flush=True)
        if step.meets(target):
            met.append(visitors)
    kept = f", the 1960 pace kept within {PACE_TOLERANCE:.0%}" if pace == "1960" else ""
    print(f"capacity: {max(met) if met else 'none of the steps'} simultaneous visitors "
          f"(the largest step whose reply p95 met {target:g} s{kept}, every game finished and checked)", flush=True)
    return done


def settings_text(pace: str, max_games: int | None) -> str:
    """The shipped settings but the pace (and ``max_games`` if given); the loopback the one trusted proxy."""
    lines = ["[online]", f'pace = "{pace}"', 'trusted_proxies = ["127.0.0.1"]', "per_ip_games = 4",
             "max_waiting = 100000"]
    if max_games is not None:
        lines.append(f"max_games = {max_games}")
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def one_server(pace: str, max_games: int | None, options: tuple[str, ...] = (), extra_settings: str = "",
               cpus: set[int] | None = None) -> Iterator[tuple[Measured, int]]:
    """One server on SQLite with the shipped settings but ``pace`` (and ``max_games``, ``extra_settings``'
    lines of ``[online]``, the command's ``options``), on a free loopback port with a scratch state folder,
    kept to ``cpus`` (every process it starts too) when given: the site to measure and its ``max_games``;
    stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="bench-online-") as scratch:
        folder = Path(scratch)
        port = free_port()
        settings = folder / "online.toml"
        settings.write_text(settings_text(pace, max_games) + extra_settings)
        with open(folder / "server.log", "wb") as log:
            server = subprocess.Popen([sys.executable, "-m", "python_bridge", "online", "--config", str(settings),
                                       "--port", str(port), "--state-dir", str(folder / "state"), *options],
                                      cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                      preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus))
            url = f"http://127.0.0.1:{port}"
            try:
                health = _started(url, server)
                yield Measured(url, [(url, server.pid)]), health["max_games"]
            finally:
                server.terminate()
                try:
                    server.wait(60)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(5)


def _started(url: str, server: subprocess.Popen) -> dict:
    """The server's first health answer, once it answers (ServerDidNotStart if it never does)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return _health(url)
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise ServerDidNotStart("the online server did not start (its log was in the scratch folder)") from None
            time.sleep(0.2)


def run_bench(steps: list[int], pace: str, strength: str | None, seed: int, max_games: int | None,
              think: tuple[float, float] = THINK_S) -> int:
    """Start one server on SQLite, ramp the visitors, print a row a step and the capacity; the exit status."""
    with one_server(pace, max_games) as (site, games):
        ramp(site, steps, pace, strength, seed, think, games)
    return 0
