"""``make soak GAMES=N``: the kiosk plays N attract-mode games unattended, as it would overnight.

A real kiosk server is started (``python -m python_bridge kiosk``) with a
page connected to it the whole time; every KILL_EVERY games its ``pdp1`` is
killed mid-game, to exercise recovery.  At the end it prints the games
played, emulator restarts and cross-check mismatches, and the server's
memory and process count at the start (after a first game, warm) and at the
end: a leak shows as growth there.  Exit status 1 if anything went wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
MEMORY_SLACK_KB = 4096  # allocator noise; a leak grows game after game, far past this

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
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health(url: str) -> dict:
    try:
        with urllib.request.urlopen(url + "/health", timeout=5) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return json.loads(err.read())


async def _watch_page(url: str, counts: dict) -> None:
    """A page connected for the whole run, reading everything the kiosk sends (reconnecting if dropped)."""
    while True:
        try:
            async with aiohttp.ClientSession() as session, session.ws_connect(url.replace("http", "ws") + "/ws", origin=url) as ws:
                async for msg in ws:
                    counts["messages"] = counts.get("messages", 0) + 1
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.5)


async def _soak(args: argparse.Namespace, url: str, proc: subprocess.Popen) -> dict:
    counts: dict = {}
    page = asyncio.create_task(_watch_page(url, counts))
    loop = asyncio.get_running_loop()
    deadline = time.monotonic() + args.timeout
    start: dict | None = None
    cold = await loop.run_in_executor(None, _health, url)
    killed = 0
    next_kill = args.kill_every
    report = cold
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            report = await loop.run_in_executor(None, _health, url)
            played = report["attract_games"]
            if start is None and played >= 1:
                start = report
            if played >= args.games:
                break
            if args.kill_every and played >= next_kill and report["phase"] in ("thinking", "typing", "demo_turn") \
                    and report["pdp1_pid"]:
                try:
                    os.kill(report["pdp1_pid"], signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
                next_kill += args.kill_every
            await asyncio.sleep(0.2)
    finally:
        page.cancel()
    await asyncio.sleep(0.5)
    end = await loop.run_in_executor(None, _health, url)
    return {"cold": cold, "start": start or cold, "end": end, "killed": killed, "page_messages": counts.get("messages", 0)}


def run_soak(games: int, kill_every: int, pits: int, seeds: int, level: int, timeout: float) -> int:
    """Start a kiosk server, play ``games`` attract games killing its pdp1 every ``kill_every``; print the
    figures; 1 if anything was lost or grew."""
    args = argparse.Namespace(games=games, kill_every=kill_every, pits=pits, seeds=seeds, level=level, timeout=timeout)
    with tempfile.TemporaryDirectory(prefix="kiosk-soak-") as tmp:
        port = _free_port()
        config = Path(tmp) / "soak.toml"
        config.write_text(CONFIG.format(pits=args.pits, seeds=args.seeds, level=args.level, port=port))
        url = f"http://127.0.0.1:{port}"
        out = open(Path(tmp) / "server.txt", "wb")
        proc = subprocess.Popen([sys.executable, "-m", "python_bridge", "kiosk", "--config", str(config)],
                                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        began = time.monotonic()
        try:
            for _ in range(200):
                try:
                    if _health(url)["status"] == "ok":
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            figures = asyncio.run(_soak(args, url, proc))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
            out.close()
        log = (Path(tmp) / "state" / "kiosk.log").read_text(errors="replace")
    start, end, cold = figures["start"], figures["end"], figures["cold"]
    seconds = time.monotonic() - began
    print(f"kiosk soak: {args.pits} pits, {args.seeds} seeds, level {args.level or 'auto'}, fast speed, "
          f"{seconds:.0f} s")
    print(f"  games played:      {end['attract_games']} attract-mode games "
          f"({end['aborted_games']} left unfinished)")
    print(f"  emulator restarts: {end['restarts']} (pdp1 killed {figures['killed']} times on purpose)")
    print(f"  mismatches:        {end['mismatches']}   errors: {end['errors']}")
    print(f"  page messages:     {figures['page_messages']} received by a page connected throughout")
    print(f"  server memory:     {cold['rss_kb']} KiB at launch, {start['rss_kb']} KiB after the first game, "
          f"{end['rss_kb']} KiB at the end")
    print(f"  processes:         {start['processes']} at the start (server + pdp1), {end['processes']} at the end")
    problems = []
    if end["attract_games"] < args.games:
        problems.append(f"only {end['attract_games']} of {args.games} games")
    if end["mismatches"] or end["errors"]:
        problems.append("mismatches or errors (see the log lines below)")
    if end["rss_kb"] > start["rss_kb"] + MEMORY_SLACK_KB:
        problems.append("the server's memory grew")
    if end["processes"] > start["processes"]:
        problems.append("the process count grew")
    if problems:
        print("SOAK FAILED: " + "; ".join(problems))
        print("\n".join(line for line in log.splitlines() if " ERROR " in line or " WARNING " in line)[-3000:])
        return 1
    print("soak passed: nothing grew, nothing was lost")
    return 0


