"""``make bench-kiosk``: what a visitor waits for, measured at the kiosk's shipped settings.

Why a benchmark and not a test: the figures depend on the host, so they are
printed, not asserted.  It is the exhibit as a gallery runs it: the kiosk
server with ``kiosk.sample.toml``'s settings (a free port and a scratch
state folder aside), Debian's Chromium driven by Playwright touching the
page as a visitor does, and, unless told otherwise, a busy neighbour (a
process spinning one core) beside it.  For each game it reports:

* every PDP-1 reply: wall seconds from the visitor's touch to the next
  question for the visitor (the touch's own move line, the thinking, the
  PDP-1's moves typed, the question), the visitor's own extra turns apart;
* the game's wall time, from the first touch to the result;
* the emulator's use of a core while it waits for a touch.

The targets it prints them against are the exhibit's (docs/kiosk.md).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..exhibit.procinfo import cpu_seconds
from ..exhibit.web_guard import free_port
from ..kiosk.config import parse_config
from ..kiosk.soak import ROOT, Server, health, wait_healthy

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                 "--autoplay-policy=no-user-gesture-required"]
SHIPPED_CONFIG = ROOT / "kiosk.sample.toml"
IDLE_SAMPLE = 5.0  # seconds the emulator's use of a core is sampled while it waits for a touch
GAME_LIMIT = 30 * 60  # a game that takes longer than this is abandoned (and reported)

# The exhibit's targets (docs/kiosk.md)
REPLY_TARGET = {"authentic": 15.0, "fast": 1.5}  # wall seconds, 95 % of PDP-1 replies
GAME_TARGET = {"quick": 180.0, "classic": 360.0}  # wall seconds a game at authentic speed
IDLE_TARGET = 10.0  # per cent of one core while waiting for a touch

PROMPTS = "(kiosk.paper.text.match(/your move/g) || []).length"
PDP1_MOVES = "(kiosk.paper.text.match(/pdp-1 (plays|swaps)/g) || []).length"


@dataclass
class GameFigures:
    """One visitor game's waits."""

    size: str
    speed: str
    replies: list[float] = field(default_factory=list)  # touch to the next question, the PDP-1 having moved
    own_turns: list[float] = field(default_factory=list)  # touch to the next question, the visitor moving again
    to_result: float | None = None  # the last touch to the result on the screen (the end typed)
    seconds: float = 0.0  # the first touch to the result
    idle_cpu: list[float] = field(default_factory=list)  # per cent of a core, each sample
    finished: bool = False


def shipped_strength() -> str:
    """The strength a visitor gets without choosing: the shipped configuration's level, by its choice's name."""
    strength = parse_config(SHIPPED_CONFIG.read_text()).default_choice()["strength"]
    if strength is None:
        raise ValueError(f"{SHIPPED_CONFIG.name}: its level is none of the strengths offered")
    return strength


def _idle_cpu(pid: int) -> float:
    """Per cent of a core the emulator used over IDLE_SAMPLE seconds."""
    before, began = cpu_seconds(pid), time.monotonic()
    time.sleep(IDLE_SAMPLE)
    return 100.0 * (cpu_seconds(pid) - before) / (time.monotonic() - began)


def _config(folder: Path, speed: str) -> tuple[Path, str]:
    """The shipped configuration, on a free port with a scratch state folder, at ``speed``; and its URL."""
    port = free_port()
    text = SHIPPED_CONFIG.read_text()
    text = text.replace('port = 8360', f'port = {port}', 1)
    text = text.replace('state_dir = "records/kiosk"', 'state_dir = "state"', 1)
    text = text.replace('speed = "authentic"', f'speed = "{speed}"', 1)
    path = folder / "kiosk.toml"
    path.write_text(text)
    return path, f"http://127.0.0.1:{port}"


@contextlib.contextmanager
def shipped_kiosk(folder: Path, speed: str) -> Iterator[str]:
    """The kiosk server at the shipped settings but ``speed``, on a free port with its state in ``folder``
    (made here): its URL once its emulator is up; stopped, its pdp1 with it, after the block."""
    (folder / "state").mkdir(parents=True)
    config, url = _config(folder, speed)
    server = Server(config, folder / "server-output.txt")
    server.start()
    try:
        if wait_healthy(url, server) is None:
            raise RuntimeError(f"the kiosk server did not start: {(folder / 'server-output.txt').read_text()[-800:]}")
        yield url
    finally:
        server.stop()


def _play(page, figures: GameFigures, strength: str, rng: random.Random, pdp1_pid) -> None:
    """Touch the size and the strength, then play (or new game); then random legal pits until the result."""
    page.locator(f'[data-choice="{figures.size}"]').tap()
    page.locator(f'[data-choice="{strength}"]').tap()
    start = page.locator('[data-action="play"]')
    (start if start.is_visible() else page.locator('[data-action="new-game"]')).tap()
    page.wait_for_selector('#rules:not([hidden]), body[data-mode="visitor"][data-phase="your_turn"]')
    if page.locator("#rules:not([hidden])").count():  # shown at the first game after attract mode
        page.locator('[data-action="close-rules"]').tap()
    began: float | None = None
    deadline = time.monotonic() + GAME_LIMIT
    while time.monotonic() < deadline:
        page.wait_for_selector('body[data-phase="your_turn"] #bottom-row .pit.legal, body[data-phase="game_over"]',
                               timeout=GAME_LIMIT * 1000)
        if page.locator('body[data-phase="game_over"]').count():
            figures.finished = True
            break
        if len(figures.idle_cpu) < 2 and (pid := pdp1_pid()):
            sampled = time.monotonic()
            figures.idle_cpu.append(_idle_cpu(pid))
            if began is not None:  # a visitor's thinking time is not the exhibit's: the sample does not count
                began += time.monotonic() - sampled
        prompts, pdp1_moves = page.evaluate(PROMPTS), page.evaluate(PDP1_MOVES)
        pits = page.locator("#bottom-row .pit.legal")
        pit = pits.nth(rng.randrange(pits.count()))
        touched = time.monotonic()
        began = began or touched
        pit.tap()
        page.wait_for_function(f"document.body.dataset.phase === 'game_over' || "
                               f"(document.body.dataset.phase === 'your_turn' && {PROMPTS} > {prompts})",
                               timeout=GAME_LIMIT * 1000)
        wait = time.monotonic() - touched
        if page.evaluate("document.body.dataset.phase") == "game_over":
            figures.to_result = wait  # the last move, the last board and the scores typed
        elif page.evaluate(PDP1_MOVES) > pdp1_moves:
            figures.replies.append(wait)
        else:
            figures.own_turns.append(wait)
        if os.environ.get("BENCH_KIOSK_TRACE"):
            last_lines = page.evaluate("kiosk.paper.text").splitlines()[-4:]
            print(f"    wait {wait:5.1f} s; the paper's last lines: {last_lines}", flush=True)
    figures.seconds = time.monotonic() - (began or time.monotonic())


def browser_ready(command: str = "bench-kiosk") -> None:
    """Debian's Chromium and Playwright, which ``make COMMAND``'s set-up (``test`` mode) installs before
    the command starts; run any other way without them, the command stops with one line saying so."""
    if importlib.util.find_spec("playwright") is None or not Path(CHROMIUM).exists():
        raise SystemExit(f"{command}: Debian's chromium and Playwright are missing: "
                         f"scripts/bootstrap.sh test installs them (make {command} runs it)")


def run_bench(speeds: list[str], sizes: list[str], games: int, neighbour: bool, seed: int) -> list[GameFigures]:
    """Play ``games`` visitor games of each size at each speed; print each game's figures, then the summary."""
    browser_ready()
    from playwright.sync_api import sync_playwright

    strength = shipped_strength()
    results: list[GameFigures] = []
    rng = random.Random(seed)
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if neighbour else None
    try:
        with tempfile.TemporaryDirectory(prefix="bench-kiosk-") as scratch, sync_playwright() as pw:
            for speed in speeds:
                folder = Path(scratch) / speed
                with shipped_kiosk(folder, speed) as url:
                    context = pw.chromium.launch_persistent_context(
                        str(folder / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                        viewport={"width": 1280, "height": 800}, has_touch=True,
                        bypass_csp=True)  # (the page's policy forbids the eval of wait_for_function)
                    try:
                        page = context.pages[0] if context.pages else context.new_page()
                        page.set_default_timeout(60_000)
                        page.goto(url + "/")
                        page.wait_for_selector('[data-action="play"]', state="visible")
                        for size in sizes:
                            for _ in range(games):
                                figures = GameFigures(size, speed)
                                _play(page, figures, strength, rng, lambda url=url: _pdp1_pid(url))
                                results.append(figures)
                                print(_game_line(figures), flush=True)
                        final = health(url) or {}
                        print(f"  {speed}: the server's counters: emulator restarts {final.get('restarts', '?')}, "
                              f"mismatches {final.get('mismatches', '?')}, errors {final.get('errors', '?')}",
                              flush=True)
                        for line in (folder / "state" / "kiosk.log").read_text(errors="replace").splitlines():
                            if " WARNING " in line or " ERROR " in line:
                                print("    " + line[:300], flush=True)
                    finally:
                        context.close()
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait(10)
    if "authentic" in speeds:
        print(counting_margin(neighbour), flush=True)
    print(summary(results, neighbour, strength))
    return results


def counting_margin(neighbour: bool) -> str:
    """How far ahead of a 1960 pace exact counting runs: a classic game the PDP-1 plays itself at the
    default level, every thought stepped and counted as fast as the host can, the neighbour still busy."""
    from ..driver.driver import play_games
    from ..driver.pacing import Pacer
    from ..machine.front_panel import PanelSettings

    (outcome,) = play_games(PanelSettings(demo=True, brief=True), None, 1, pacer=Pacer(counted=True))
    speeds = sorted(t.counting_speed for t in outcome.thoughts if t.host_seconds > 0.05)
    total = sum(t.seconds for t in outcome.thoughts) / sum(t.host_seconds for t in outcome.thoughts)
    return (f"  authentic: cycles counted at {total:.2f} times 1960 speed over {len(outcome.thoughts)} thoughts "
            f"(slowest thought {speeds[0]:.2f}, median {statistics.median(speeds):.2f}; below 1.00 a 1960 pace "
            f"falls behind){', beside the busy neighbour' if neighbour else ''}")


def _pdp1_pid(url: str) -> int | None:
    report = health(url)
    return report.get("pdp1_pid") if report else None


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered) + 0.5)) - 1))]


def _game_line(f: GameFigures) -> str:
    replies = f"replies {len(f.replies)}: median {statistics.median(f.replies):.1f} s, max {max(f.replies):.1f} s" \
        if f.replies else "no reply"
    own = f"; own extra turns {len(f.own_turns)}: max {max(f.own_turns):.1f} s" if f.own_turns else ""
    idle = f"; emulator waiting for a touch: {max(f.idle_cpu):.1f} % of a core" if f.idle_cpu else ""
    own += f"; the last touch to the result {f.to_result:.1f} s" if f.to_result is not None else ""
    end = "" if f.finished else " (NOT FINISHED)"
    return f"  {f.speed} {f.size}: game {f.seconds / 60:.1f} min{end}; {replies}{own}{idle}"


def summary(results: list[GameFigures], neighbour: bool, strength: str) -> str:
    """The figures against the targets, one line each."""
    lines = [f"bench-kiosk: the shipped settings, strength {strength!r}, "
             f"{'a busy neighbour spinning one core' if neighbour else 'no neighbour'}"]
    for speed in dict.fromkeys(r.speed for r in results):
        mine = [r for r in results if r.speed == speed]
        replies = [w for r in mine for w in r.replies]
        if replies:
            p95 = _percentile(replies, 0.95)
            lines.append(f"  {speed}: PDP-1 replies, touch to the next question: {len(replies)}, median "
                         f"{statistics.median(replies):.1f} s, 95 % within {p95:.1f} s, max {max(replies):.1f} s "
                         f"(target {REPLY_TARGET[speed]:g} s for 95 %: "
                         f"{'met' if p95 <= REPLY_TARGET[speed] else 'NOT met'})")
        idle = [c for r in mine for c in r.idle_cpu]
        if idle:
            lines.append(f"  {speed}: the emulator waiting for a touch: {max(idle):.1f} % of a core at most "
                         f"(target {IDLE_TARGET:g} %: {'met' if max(idle) <= IDLE_TARGET else 'NOT met'})")
        if speed == "authentic":
            for size in dict.fromkeys(r.size for r in mine):
                times = [r.seconds for r in mine if r.size == size]
                worst = max(times)
                lines.append(f"  {speed} {size} game: {len(times)} played, longest {worst / 60:.1f} min "
                             f"(target {GAME_TARGET[size] / 60:g} min: "
                             f"{'met' if worst <= GAME_TARGET[size] and all(r.finished for r in mine) else 'NOT met'})")
    return "\n".join(lines)
