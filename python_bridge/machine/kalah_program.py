"""The Kalah program on a simulated PDP-1: its tape, read-in with panel settings, and the diagnostic console.

``KalahMachine`` is what tests, fuzz, play, demo and kiosk start: it makes
sure the paper tape is assembled (with the project's own assembler, from
``pdp1_src/``), starts SIMH, sets the sense switches and test word, reads the
tape in as the hardware did, and waits for the program's first output so no
typed key is lost to SIMH's input flush.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from tools.papertape import parse_tape

from .front_panel import PanelSettings
from ..reference.rules import Position
from ..reference.search import SearchResult
from ..reference.notation import NotationError, format_position, parse_position
from .simh import FULL_SPEED, Closing, MachineConfig, Simh, SimhError, SimhTimeout

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = ROOT / "pdp1_src"
BUILD_DIR = ROOT / "build"
# The program's files in assembly order (the Makefile's KALAH_SRC says the same).
SOURCE_FILES = ("kalah.mac", "rules.mac", "search.mac", "prove.mac", "diag.mac", "typewr.mac", "core.mac")
TAPE = BUILD_DIR / "kalah.rim"


def source_paths() -> list[Path]:
    return [SOURCE_DIR / name for name in SOURCE_FILES]


SYMBOLS = BUILD_DIR / "kalah.sym.json"


class TapeDamaged(SimhError):
    """``build/kalah.rim`` fails its own check (a bad checksum, a cut) and cannot be punched again."""


_SOUND: set[tuple[int, int, int]] = set()   # (mtime_ns, size, inode) of tapes already verified


def tape_problem(path: Path) -> str | None:
    """What is wrong with the tape at ``path`` as our own reader reads it (None: it is sound).

    The reader (tools.papertape) sums every block as the loader will, so a damaged tape is
    named block by block before SIMH's loader halts on it at 7775 with no word of why.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    tape = parse_tape(data)
    problems = [str(error) for error in tape.errors] + [f"will not load: {hazard}" for hazard in tape.hazards]
    if not problems:
        return None
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return problems[0] + more


def _verified(path: Path) -> str | None:
    info = path.stat()
    key = (info.st_mtime_ns, info.st_size, info.st_ino)
    if key in _SOUND:
        return None
    problem = tape_problem(path)
    if problem is None:
        _SOUND.add(key)
    return problem


def ensure_tape(build_dir: Path = BUILD_DIR, source_dir: Path = SOURCE_DIR) -> Path:
    """``build/kalah.rim``, sound: assembled with tools.macro if it is missing, older than its
    sources, or damaged (every block's checksum verified before it is booted).

    The symbol table goes beside it (``kalah.sym.json``): the bridge finds the
    program's variables and entry points there, to examine or deposit them.  A
    damaged tape is reported on one line (which block) and punched again from
    ``pdp1_src/``; without the sources it raises ``TapeDamaged``.
    """
    tape, symbols = build_dir / TAPE.name, build_dir / SYMBOLS.name
    sources = [source_dir / name for name in SOURCE_FILES]
    have_sources = all(src.is_file() for src in sources)
    fresh = [tape, symbols]
    if all(f.exists() for f in fresh) and (not have_sources or all(
        f.stat().st_mtime >= src.stat().st_mtime for f in fresh for src in sources
    )):
        problem = _verified(tape)
        if problem is None:
            return tape
        if not have_sources:
            raise TapeDamaged(f"{tape} is damaged: {problem}; the sources to punch it again "
                              f"({source_dir}) are missing")
        print(f"{tape} is damaged: {problem}; punching it again from {source_dir.name}/", file=sys.stderr)
    elif not have_sources:
        raise TapeDamaged(f"{tape} is missing and so are the sources to punch it ({source_dir})")
    from tools.macro import assemble

    program = assemble([(str(p.relative_to(source_dir.parent)), p.read_bytes()) for p in sources])
    if not program.ok or program.tape is None:
        raise SimhError(f"the Kalah source does not assemble:\n{program.messages}")
    build_dir.mkdir(parents=True, exist_ok=True)
    _replace(tape, program.tape)
    _replace(tape.with_suffix(".lst"), program.listing.encode("latin-1"))
    _replace(symbols, json.dumps(program.symbols, indent=0, sort_keys=True).encode())
    problem = _verified(tape)
    if problem is not None:  # the assembler punched a tape our reader refuses: a bug to report, not boot
        raise TapeDamaged(f"{tape} as just punched fails its check: {problem}")
    return tape


def _replace(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: processes that punch the tape at once (the test run's
    workers, a kiosk starting) never read one half written."""
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_bytes(data)
    os.replace(part, path)


def program_symbols() -> dict[str, int]:
    """The Kalah program's symbol table (label -> address), as assembled for build/kalah.rim."""
    ensure_tape()
    return json.loads(SYMBOLS.read_text())


class ProtocolError(SimhError):
    """The PDP-1 answered something the diagnostic protocol does not allow."""


class KalahMachine(Closing):
    """A simulator with the Kalah tape read in and running."""

    def __init__(
        self,
        panel: PanelSettings,
        config: MachineConfig = FULL_SPEED,
        *,
        timeout: float = 10.0,
        tape: Path | None = None,
        breakpoints: tuple[int, ...] = (),
    ) -> None:
        self.panel = panel
        self.config = config
        self.sim = Simh(config, timeout=timeout)
        try:
            self.sim.set_switches(panel.switches())
            self.sim.set_test_word(panel.test_word())
            for address in breakpoints:  # before read-in: the program may reach them at once
                self.sim.command(f"break {address:o}")
            self.sim.read_in(tape or ensure_tape())
        except BaseException:
            self.sim.close()
            raise

    def close(self) -> None:
        self.sim.close()

    def set_panel(self, panel: PanelSettings) -> None:
        """Change switches and test word while the program runs: stop, deposit, continue."""
        self.sim.stop()
        self.sim.set_switches(panel.switches())
        self.sim.set_test_word(panel.test_word())
        self.sim.cont()
        self.panel = panel


_LINE = re.compile(r"([^\r\n]*)\r\n")


@dataclass(frozen=True)
class DiagnosticAnswer:
    """One answer line of the diagnostic protocol."""

    text: str

    @property
    def is_error(self) -> bool:
        return self.text.startswith("error")

    def position(self, pits: int) -> Position:
        """The position of an ``= ...`` answer."""
        if not self.text.startswith("= "):
            raise ProtocolError(f"expected '= <position>', got {self.text!r}")
        try:
            pos = parse_position(self.text[2:])
        except NotationError as exc:
            raise ProtocolError(f"unreadable position {self.text!r}: {exc}") from exc
        if pos.pits != pits:
            raise ProtocolError(f"a position with {pos.pits} pits a side, expected {pits}: {self.text!r}")
        return pos

    def search(self) -> SearchResult:
        """The result of a ``best ...`` answer."""
        m = re.fullmatch(r"best (\d+) value (-?\d+) nodes (\d+)", self.text)
        if not m:
            raise ProtocolError(f"expected 'best <pit> value <v> nodes <k>', got {self.text!r}")
        return SearchResult(int(m.group(1)), int(m.group(2)), int(m.group(3)))


class DiagnosticConsole:
    """The diagnostic-mode protocol (sense switch 6) over the typewriter.

    A command line is typed at once: the program's read loop takes a key in
    a few dozen instructions, far inside SIMH's keyboard poll interval, so no
    key of a line is lost (tests prove it with long lines).
    """

    def __init__(self, machine: KalahMachine) -> None:
        if not machine.panel.diagnostic:
            raise ValueError("the diagnostic console needs sense switch 6 (panel.diagnostic)")
        self.machine = machine
        self.sim = machine.sim
        self.sync()

    def sync(self, attempts: int = 20) -> None:
        """Make sure the program is reading commands: an empty line is answered ``error``.

        Right after read-in (or ``cont``) SIMH flushes pending input and the
        program forgets keys typed before it reads a line, so the empty line
        is retried until the answer comes.  The wait is long enough for the
        typewriter to type the answer at the machine's speed, so a retried
        line is never answered twice.
        """
        wait = 0.25 + 8 * self.machine.config.tto_time / 200_000
        for _ in range(attempts):
            self.sim.type("\r")
            try:
                self.sim.expect(re.compile(r"error\r\n"), timeout=wait)
            except SimhTimeout:
                continue
            return
        raise ProtocolError("the PDP-1 does not answer in diagnostic mode", self.sim.tail())

    def ask(self, line: str, timeout: float | None = None) -> DiagnosticAnswer:
        """Type one command line and return the program's one-line answer."""
        self.sim.type(line + "\r")
        self.sim.expect(re.compile(r"\r\n"), timeout)  # SIMH's echo of the carriage return
        match = self.sim.expect(_LINE, timeout)
        return DiagnosticAnswer(match.group(1))

    def set_position(self, position: Position) -> None:
        answer = self.ask("p " + format_position(position))
        if answer.text != "ok":
            raise ProtocolError(f"p {format_position(position)!r} answered {answer.text!r}", self.sim.tail())

    def move(self, pit: int) -> DiagnosticAnswer:
        return self.ask(f"m {pit}")

    def best(self, depth: int, timeout: float | None = None) -> DiagnosticAnswer:
        return self.ask(f"b {depth}", timeout)
