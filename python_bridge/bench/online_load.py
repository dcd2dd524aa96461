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
* the pace: the wall seconds the PDP-1's paced thinking took for each of its counted 1960 seconds
  (1.00 is the 1960 pace kept exactly; the target is within 10 %, 0.90 to 1.10; "-" when unpaced).

Then the capacity: the largest step whose reply p95 meets the target (1.5 s at ``--pace fast``, 15 s
at the shipped 1960 pace, the pace kept within 10 % there), every game finished and checked.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from ..kiosk.procinfo import cpu_seconds, descendants, rss_kb
from ..kiosk.soak import ROOT, free_port

TARGET_P95_S = {"fast": 1.5, "1960": 15.0}
PACE_TOLERANCE = 0.10  # the 1960 pace: a counted second of thinking takes 0.9 to 1.1 wall seconds
THINK_S = (2.0, 8.0)
GAME_LIMIT_S = 3600.0  # a visitor that has not finished in an hour counts as an error
STRENGTHS = ("gentle", "fair", "full")


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
    paced_1960_s: float = 0.0  # the PDP-1's paced thinking in the step: its counted 1960 seconds
    paced_wall_s: float = 0.0  # and the wall seconds it took

    def pace(self) -> float | None:
        """Wall seconds a counted 1960 second of thinking took (1.00: the pace kept exactly); None unpaced."""
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


async def _visitor(url: str, number: int, seed: int, strength: str | None, step: Step,
                   think: tuple[float, float]) -> None:
    import aiohttp

    rng = random.Random(f"{seed}:{number}")
    address = f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"
    began = time.monotonic()
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(url + "/ws", origin=url, headers={"X-Forwarded-For": address},
                                   heartbeat=30)
        state: dict = {}
        waited: float | None = None
        if strength:
            await ws.send_str(json.dumps({"type": "choose", "strength": strength}))
        await ws.send_str(json.dumps({"type": "play"}))
        asked = time.monotonic()
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            kind = data["type"]
            if kind in ("hello",):
                state = data["state"]
            elif kind == "state":
                state = data
            elif kind == "full":
                break
            elif kind == "rejected" and state.get("phase") == "your_turn":  # (too fast for the rate limit)
                await asyncio.sleep(1.0)  # as a person taps again
                await ws.send_str(json.dumps({"type": "move", "pit": rng.choice(state["legal"]),
                                              "turn": state["turn"]}))
            if state.get("mode") == "visitor" and waited is None:
                waited = time.monotonic() - asked
            if state.get("phase") == "game_over":
                step.completed += 1
                break
            if kind == "state" and state.get("mode") == "visitor" and state.get("phase") == "your_turn":
                await asyncio.sleep(rng.uniform(*think))
                await ws.send_str(json.dumps({"type": "move", "pit": rng.choice(state["legal"]),
                                              "turn": state["turn"]}))
            if time.monotonic() - began > GAME_LIMIT_S:
                break
        if state.get("phase") != "game_over":
            step.failed += 1
        if waited is not None:
            step.waits.append(waited)
        await ws.close()


def _reaped_children_cpu(pid: int) -> float:
    """CPU seconds of the children ``pid`` has waited for (its pdp1s that ended): /proc's cutime and cstime."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def _usage(pid: int) -> tuple[float, float, int, int]:
    """CPU seconds of the server and of its pdp1s (running, and ended), the resident memory of them all (KiB),
    how many pdp1s run."""
    kids = descendants(pid)
    server = cpu_seconds(pid)
    emulators = _reaped_children_cpu(pid)
    for kid in kids:
        try:
            emulators += cpu_seconds(kid)
        except OSError:
            pass
    return server, emulators, rss_kb(pid) + sum(rss_kb(k) for k in kids), len(kids)


async def _step(url: str, pid: int, visitors: int, seed: int, strength: str | None,
                think: tuple[float, float]) -> Step:
    step = Step(visitors)
    step.baseline_rss_kb = rss_kb(pid)  # the server idle: what the games add is over this
    before = _health(url)
    first_reply = before.get("replies_timed", 0)
    cpu0 = _usage(pid)
    began = time.monotonic()
    tasks = [asyncio.create_task(_visitor(url, n, seed, strength, step, think)) for n in range(visitors)]
    while not all(task.done() for task in tasks):
        _, _, rss, kids = _usage(pid)
        step.peak_rss_kb, step.peak_games = max(step.peak_rss_kb, rss), max(step.peak_games, kids)
        await asyncio.wait(tasks, timeout=1.0)
    for task in tasks:
        if task.exception() is not None:
            step.failed += 1
    step.seconds = time.monotonic() - began
    cpu1 = _usage(pid)
    cores = len(os.sched_getaffinity(0))
    step.server_cpu = (cpu1[0] - cpu0[0]) / step.seconds / cores
    step.emulator_cpu = max(0.0, cpu1[1] - cpu0[1]) / step.seconds / cores
    after = _health(url, first_reply)
    step.replies = after.get("replies", [])
    step.errors = after["errors"] - before["errors"]
    step.mismatches = after["mismatches"] - before["mismatches"]
    step.paced_1960_s = after["thinking_1960_s"] - before["thinking_1960_s"]
    step.paced_wall_s = after["thinking_wall_s"] - before["thinking_wall_s"]
    return step


def run_bench(steps: list[int], pace: str, strength: str | None, seed: int, max_games: int | None,
              think: tuple[float, float] = THINK_S) -> int:
    """Start the server, ramp the visitors, print a row a step and the capacity; the exit status."""
    with tempfile.TemporaryDirectory(prefix="bench-online-") as scratch:
        folder = Path(scratch)
        port = free_port()
        settings = folder / "online.toml"
        lines = ["[online]", f'pace = "{pace}"', 'trusted_proxies = ["127.0.0.1"]', "per_ip_games = 4",
                 "max_waiting = 100000"]
        if max_games is not None:
            lines.append(f"max_games = {max_games}")
        settings.write_text("\n".join(lines) + "\n")
        log = open(folder / "server.log", "wb")
        server = subprocess.Popen([sys.executable, "-m", "python_bridge", "online", "--config", str(settings),
                                   "--port", str(port), "--state-dir", str(folder / "state")],
                                  cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    health = _health(url)
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        print("bench-online: the server did not start", file=sys.stderr)
                        return 1
                    time.sleep(0.2)
            target = TARGET_P95_S[pace]
            print(f"bench-online: pace {pace}, strength {strength or 'the shipped default'}, max_games "
                  f"{health['max_games']}, {len(os.sched_getaffinity(0))} cores, seed {seed}; visitors think "
                  f"{think[0]:g}-{think[1]:g} s a move; target: reply p95 <= {target:g} s", flush=True)
            print(HEADER, flush=True)
            met = []
            for visitors in steps:
                step = asyncio.run(_step(url, server.pid, visitors, seed, strength, think))
                print(step.row(), flush=True)
                ratio = step.pace()
                paced = ratio is None or abs(ratio - 1) <= PACE_TOLERANCE
                if step.p95() <= target and paced and not step.failed and not step.errors and not step.mismatches:
                    met.append(visitors)
            kept = f", the 1960 pace kept within {PACE_TOLERANCE:.0%}" if pace == "1960" else ""
            print(f"capacity: {max(met) if met else 'none of the steps'} simultaneous visitors "
                  f"(the largest step whose reply p95 met {target:g} s{kept}, every game finished and checked)")
        finally:
            server.terminate()
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
            log.close()
    return 0
