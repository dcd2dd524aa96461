"""``docs/figures.md``, written by ``make figures``: every figure the docs quote, each from the command
that measures it.

Why a page of command outputs: a figure typed into prose goes stale the day the program changes (the
README once said "41 blocks" of a tape that had 49).  Here each section is one command run as a user
would run it (this Python, ``-m`` the module), its standard output kept verbatim under the command
line, the date, the machine's cores and the time the run took; the other pages point here instead of
typing numbers.

Sections are kept between runs: a run regenerates the sections asked for and leaves the others as
they were, with their own dates.  The default set takes minutes; the long ones (the two-seed proofs
with every cycle counted, the three-seed proof, the strength benchmark: up to hours) run only when
asked for by name or with ``all``, so refreshing the rest never costs hours.  A command that fails
leaves its old section in place and makes the run fail (exit 1), after the others have run.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..machine.kalah_program import SOURCE_FILES
from ..machine.simh import TYPEWRITER_CHARACTERS_PER_SECOND

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "figures.md"
KALAH_SOURCES = tuple(f"pdp1_src/{name}" for name in SOURCE_FILES)


@dataclass(frozen=True)
class Section:
    """One command whose output is a section of the page."""

    name: str                 # the section's name on the command line (``FIGURES=name``)
    title: str
    what: str                 # what the figures are and how they were measured, for a reader
    module: str               # run as ``python -m module args...``
    args: tuple[str, ...] = ()
    long: bool = False        # only when asked for by name, or with ``all``

    def argv(self) -> list[str]:
        return [sys.executable, "-m", self.module, *self.args]

    def shown(self) -> str:
        """The command as a reader types it, from the project's folder with its virtual environment."""
        return " ".join([".venv/bin/python", "-m", self.module, *self.args])


def _prove(name: str, seeds: int, title: str, what: str, *flags: str, long: bool = False) -> Section:
    return Section(name, title, what, "python_bridge", ("prove", "--pits", "6", "--seeds", str(seeds), *flags), long)


SECTIONS = (
    Section("core", "The PDP-1 program's core", "Words of core the program uses, from the assembler's symbols and "
            "the tape.", "python_bridge",
            ("bench", "--core")),
    Section("bench", "The PDP-1 program: cycles a position, the default level, rates",
            "The `b` search's instructions and memory "
            "cycles a position (every instruction's cycles from SIMH's history, the Handbook's table), and where "
            "they go by routine. The default level as play mode thinks (`think`) on positions of seeded 6-pit, "
            "4-seed games: true 1960 seconds a move (cycles x 5 us) and the depth reached. Play-mode moves "
            "cross-checked a second and diagnostic fuzz cases a second, at full speed, on this machine.",
            "python_bridge", ("bench",)),
    Section("reference", "The reference search's and proof's speed",
            "The reference search every PDP-1 move is checked with: version 0.2.0's readable search against the "
            "fast one (the same pit, value and node count), on seeded midgame positions of 6 pits and 4 seeds, at "
            "the default level and fixed depths 4 and 8; CPU seconds, the fastest of three runs, and the ratio. "
            "Then the reference proof every `w` is checked with: the readable proof (the specification) against "
            "the fast one (the same answer, node count and deepest ply), on the starts of Kalah(4,3), (6,2) and "
            "(5,3) at the bounds either side of their value, and the fast proof's positions a CPU second.",
            "python_bridge", ("bench-ref",)),
    Section("contract", "What each search-contract change buys",
            "The default level's deepening within its position budget, with each candidate change to the "
            "search contract switched on by itself, over seeded 6-pit, 4-seed positions: the depth reached, "
            "over all positions and over the midgame ones. \"kept\" is the contract the PDP-1 runs.",
            "python_bridge", ("bench-contract",)),
    Section("assembler", "The cross-assembler against macro1",
            "The project's assembler (`tools.macro`: `tools/macro/*.py`, its tapes punched by "
            "`tools/papertape/*.py`) and Debian's `macro1`, each as a separate process, best of several "
            "runs, on a long generated source and on the game tape's sources (the list in "
            "`python_bridge/machine/tapes.py`); their tapes and listings compared.",
            "tools.macro.bench", KALAH_SOURCES),
    _prove("prove-6-1", 1, "Proof: Kalah(6,1), standard rules",
           "The PDP-1's `w 0` from the start, every memory cycle counted, checked against `ref prove`."),
    _prove("prove-6-1-empty", 1, "Proof: Kalah(6,1), empty capture",
           "The same under the empty-capture rule.", "--empty-capture"),
    _prove("value-6-1", 1, "Exact value: Kalah(6,1)",
           "The first player's exact margin by bound tests on the PDP-1, each checked, compared with "
           "`ref solve`.", "--value"),
    _prove("value-6-2", 2, "Exact value: Kalah(6,2)",
           "The same for two seeds, at full speed (instructions counted, not cycles).", "--value", "--no-cycles"),
    _prove("prove-6-2", 2, "Proof: Kalah(6,2), standard rules",
           "The PDP-1's `w 0` from the start, every memory cycle counted (host time: a minute or two)."),
    _prove("prove-6-2-empty", 2, "Proof: Kalah(6,2), empty capture",
           "The same under the empty-capture rule.", "--empty-capture"),
    _prove("prove-6-3", 3, "Proof: Kalah(6,3), standard rules",
           "McCarthy's third claim under the standard rule, on the analysis tape, at full speed: the "
           "instructions counted, the memory cycles estimated from counted slices spread through the proof "
           "(counting them all would take days), checked against `ref prove`, which works beside it.",
           "--no-cycles", long=True),
    _prove("prove-6-3-above-2", 3, "Proof: Kalah(6,3), standard rules, more than 2 ahead?",
           "The same proof asked `w 2`: does the first player finish more than 2 ahead? With `w 0` above, the "
           "exact margin: every margin is even (all 36 seeds end in the stores, so a margin is twice a store "
           "less 36), so above 0 and not above 2 is exactly 2.", "--bound", "2", "--no-cycles", long=True),
    _prove("value-6-3", 3, "Exact value: Kalah(6,3)",
           "The first player's exact margin by bound tests on the PDP-1 at full speed, each checked against "
           "`ref prove` beside it, compared with `ref solve`.", "--value", "--no-cycles", long=True),
    Section("solve-6-3", "Exact value: Kalah(6,3), the reference's solver",
            "The reference's solver (`ref solve`, MTD(f) with a table, no PDP-1), the exact value of the start "
            "under the standard rule: the independent check of the value the two proofs above give.",
            "python_bridge", ("ref", "solve", "--pits", "6", "--seeds", "3"), long=True),
    _prove("prove-6-3-empty", 3, "Proof: Kalah(6,3), empty capture",
           "The same under the empty-capture rule.", "--empty-capture", "--no-cycles", long=True),
    *(_prove(f"deepen-6-{n}", n, f"Deepening: Kalah(6,{n})",
             f"McCarthy's \"strong indications\" for {n} seeds a pit: the analysis tape's `d` from the start, "
             "the value looking 1, 2, ... plies ahead, for five minutes here, every depth checked against the "
             "reference.", "--deepen", "99", "--minutes", "5", long=True) for n in (4, 5, 6)),
    Section("kiosk", "The kiosk: a visitor's waits",
            "The kiosk server at its shipped settings (kiosk.sample.toml: 1960 thinking, the typewriter at "
            f"{TYPEWRITER_CHARACTERS_PER_SECOND} characters a second, the brief form) and in fast mode, "
            "played in Debian's Chromium by random "
            "touches at the shipped default strength, with a process spinning one core beside it: "
            "wall seconds from a touch to the next question after each PDP-1 reply, each game's minutes, and "
            "the emulator's share of a core while it waits for a touch.",
            "python_bridge", ("bench-kiosk", "--games", "1"), long=True),
    Section("pictures", "The docs' pictures",
            "The pictures the README, `docs/kiosk.md` and `docs/online.md` show (`docs/pictures/*.png`): the kiosk's "
            "screen at its shipped settings and the online page on a phone and a desktop, each a seeded classic game "
            "at the visitor's fifth question, screenshots of the real pages in Debian's Chromium (device scale 1, "
            "reduced motion), the fast pace aside. Each picture's size, distinct colours and bytes. Run by name "
            "(or with `all`): it needs the test set-up's Playwright.",
            "python_bridge", ("pictures",), long=True),
    Section("first-visit", "A first-time visitor against the kiosk's strengths",
            "A novice's model (the rules card's extra turn when one is in sight, else the biggest capture, "
            "else any pit, and one move in four anywhere) moving first against the kiosk's three strengths, "
            "quick and classic games, on the reference engine (which the PDP-1 mirrors move for move).",
            "python_bridge", ("first-visit", "--games", "100")),
    Section("strength", "Strength against OpenSpiel",
            "The default level (the reference's `level_move`, which the PDP-1 mirrors move for move) against "
            "OpenSpiel's alpha-beta and MCTS bots, all 35 two-ply openings with both colours. Needs the "
            "optional package open-spiel (`make bench-strength` or `make figures FIGURES=all` installs it).",
            "python_bridge", ("strength", "--games", "70", "--seed", "1", "--jobs", "2"), long=True),
    Section("online-targets", "The PDP-1 online: the host's targets",
            "What one host must serve, each row on a server of its own with the shipped settings but the pace: "
            "100 visitors thinking 2-8 s a move and 40 thinking 1-3 s at the fast pace and full strength (reply "
            "p95 within 1.5 s), and 200 playing at once at the 1960 pace and the shipped strength (p95 within "
            "15 s, the pace within 10 %). The visitors arrive together and each plays one whole game; every move "
            "of the PDP-1 is checked by the reference before the visitor sees the next question. The shipped "
            "`max_games` follows from the last row.",
            "python_bridge", ("bench-online", "--targets"), long=True),
    Section("web", "The browser edition: a visitor's browser and the site's server",
            "The browser edition's folder (`make web`) served from the loopback by `http.server` alone, in Debian's "
            "Chromium with a fresh profile: the first question from opening the page with an empty cache and "
            "after a reload, the bytes fetched on the first visit by file, all the browser's processes' CPU over "
            "10 s while the visitor thinks, a whole game's replies at the fast pace and full strength (each PDP-1 "
            "move cross-checked in the page), and three replies at the 1960 pace against their counted 1960 "
            "seconds. Then a server of the browser edition, kept to one core, receiving a thousand finished "
            "games' records, each checked by the reference. Run by name (or with `all`): it needs `make web` and "
            "the test set-up's Playwright.",
            "python_bridge", ("bench-web",), long=True),
    Section("online-fast", "The PDP-1 online: simulated visitors, fast",
            "The online server with its shipped settings but the fast pace, the PDP-1 at full strength, loaded by "
            "simulated visitors (real WebSocket clients, seeded, thinking 2-8 s a move, each playing one whole "
            "game), ramped; the replies timed at the server from a move's arrival to the next question. Target: "
            "p95 within 1.5 s.",
            "python_bridge", ("bench-online", "--pace", "fast", "--strength", "full"),
            long=True),
    Section("online-1960", "The PDP-1 online: simulated visitors, at the shipped settings",
            "The same at the shipped settings: the 1960 pace (thinking counted and paced at 200,000 memory "
            "cycles a second, the typewriter at its speed) and the shipped strength. Target: p95 within 15 s, "
            "and the pace (wall seconds a counted 1960 second of the PDP-1's replies took, thinking and typing) "
            "within 10 %.",
            "python_bridge", ("bench-online",), long=True),
    Section("online-cluster", "The PDP-1 online past one host: one server on SQLite, then three on PostgreSQL",
            "The same simulated visitors in one run, first on one server with SQLite, then through HAProxy on "
            "three servers sharing a scratch PostgreSQL, all on this host (so the comparison is of their costs, "
            "not of more hardware): under each row of the three, each server's share of the games and what "
            "HAProxy and PostgreSQL cost, as shares of the host. Fast pace, full strength.",
            "python_bridge", ("bench-online", "--servers", "3", "--steps", "10,50,100", "--pace", "fast",
                              "--strength", "full"), long=True),
    Section("online-failover", "The PDP-1 online past one host: a visitor's server lost",
            "A visitor playing through HAProxy on three servers; twenty times its server is killed (kill -9), "
            "then twenty times stopped (kill -STOP) past its lease, each timed from the signal to the next "
            "question on the visitor's page.",
            "python_bridge", ("bench-online", "--servers", "3", "--kills", "20"), long=True),
)
BY_NAME = {section.name: section for section in SECTIONS}
DEFAULT = tuple(section.name for section in SECTIONS if not section.long)

_BLOCK = re.compile(r"<!-- section (?P<name>[\w-]+) -->\n.*?<!-- /section (?P=name) -->\n", re.S)
HEADER = """# Figures

Every measured figure the README and the pages in `docs/` refer to: each section below is the verbatim
output of the command shown above it, run on the date and on the machine (its cores) given there.
Written by `make figures` (`python -m python_bridge figures`); do not edit it by hand.

- `make figures` runs the default sections: {default}.
- `make figures FIGURES=all` runs every section, the long ones too: {long}.
- `make figures FIGURES=name,name` runs the named ones.

Sections not run keep their last output and date; each says how long its command took. Host times
and rates are of a shared machine and vary with its load; instructions, memory cycles, 1960 seconds,
node counts and depths are the same on every run.

"""

def choose(spec: str) -> list[Section]:
    """``default``, ``all`` or a comma-separated list of section names -> the sections, in page order.

    Raises ValueError naming an unknown section (the caller reports it as a usage error)."""
    if spec == "default":
        return [BY_NAME[name] for name in DEFAULT]
    if spec == "all":
        return list(SECTIONS)
    names = [name.strip() for name in spec.split(",") if name.strip()]
    unknown = [name for name in names if name not in BY_NAME]
    if unknown or not names:
        shown = unknown[0] if unknown and len(unknown[0]) <= 40 else (unknown[0][:40] + "..." if unknown else "")
        raise ValueError(f"unknown section {shown!r}" if unknown else "no section named")
    return [section for section in SECTIONS if section.name in names]


def cores() -> int:
    """The cores this process may run on, as ``nproc`` counts them."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def render(section: Section, output: str, when: str, took: float) -> str:
    """One section of the page: title, what it measures, the command line, date, cores and time, the output."""
    return (f"<!-- section {section.name} -->\n## {section.title}\n\n{section.what}\n\n"
            f"`{section.shown()}`  \n{when}, {cores()} cores, took {took:.0f} s\n\n"
            f"```text\n{output.rstrip()}\n```\n<!-- /section {section.name} -->\n")


def placeholder(section: Section) -> str:
    how = f"`make figures FIGURES={section.name}`" + (" or `FIGURES=all`" if section.long else "")
    return (f"<!-- section {section.name} -->\n## {section.title}\n\n{section.what}\n\n"
            f"`{section.shown()}`\n\nNot run yet on this page: {how} runs it.\n<!-- /section {section.name} -->\n")


def kept_sections(page: Path) -> dict[str, str]:
    """The sections an earlier run left on the page, by name."""
    text = page.read_text() if page.is_file() else ""
    return {match["name"]: match[0] for match in _BLOCK.finditer(text)}


def compose(blocks: dict[str, str]) -> str:
    long = ", ".join(section.name for section in SECTIONS if section.long)
    body = "\n".join(blocks.get(section.name) or placeholder(section) for section in SECTIONS)
    return HEADER.format(default=", ".join(DEFAULT), long=long) + body


@dataclass(frozen=True)
class Outcome:
    section: Section
    ok: bool
    took: float
    detail: str               # the output, or why it failed


def run_section(section: Section) -> Outcome:
    """Run one section's command from the project's folder; its stdout is the section's text."""
    began = time.monotonic()
    done = subprocess.run(section.argv(), cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})
    took = time.monotonic() - began
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        return Outcome(section, False, took, f"exit status {done.returncode}: {last}")
    return Outcome(section, True, took, done.stdout)


def write_page(sections: list[Section], page: Path = PAGE,
               say: Callable[[str], None] = print) -> int:
    """Run ``sections`` one after another, rewriting ``page`` after each; 0 when all ran, 1 otherwise."""
    failed = 0
    began = time.monotonic()
    page.parent.mkdir(parents=True, exist_ok=True)
    for n, section in enumerate(sections, 1):
        say(f"figures: [{n}/{len(sections)}] {section.name}: {section.shown()}")
        outcome = run_section(section)
        if outcome.ok:
            when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            blocks = kept_sections(page)  # read again: another run may have written a section meanwhile
            blocks[section.name] = render(section, outcome.detail, when, outcome.took)
            page.write_text(compose(blocks))
            say(f"figures: {section.name} done in {outcome.took:.0f} s")
        else:
            failed += 1
            say(f"figures: {section.name} FAILED after {outcome.took:.0f} s ({outcome.detail}); its old section kept")
    if not page.is_file():
        page.write_text(compose({}))
    say(f"figures: {len(sections) - failed} of {len(sections)} sections written to "
        f"{page.relative_to(ROOT) if page.is_relative_to(ROOT) else page} in {time.monotonic() - began:.0f} s")
    return 1 if failed else 0
