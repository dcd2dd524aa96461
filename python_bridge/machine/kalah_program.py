"""The Kalah program on a simulated PDP-1: its tape, read-in with panel settings, and the diagnostic console.

``KalahMachine`` is what tests, fuzz, play, demo and kiosk start: it makes
sure the paper tape is assembled (with the project's own assembler, from
``pdp1_src/``), starts SIMH, sets the sense switches and test word, reads the
tape in as the hardware did, and waits for the program's first output so no
typed key is lost to SIMH's input flush.
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tools.atomic_file import write_atomically
from tools.papertape import parse_tape

from ..reference.notation import NotationError, format_position, parse_position
from ..reference.rules import ENDED, NORTH, SOUTH, Position
from ..reference.search import SearchResult
from .front_panel import PanelSettings
from .simh import FULL_SPEED, BreakpointReached, Closing, MachineConfig, Simh, SimhError
from .tapes import SOURCE_FOLDER, TAPES
from .wasm_simh import WasmSimh

# Which SIMH the machine runs on: Debian's pdp1 (``Simh``), or SIMH as WebAssembly (``WasmSimh``); both
# are started as ``transport(config, timeout=...)`` and answer the same API.
Transport = Callable[..., "Simh | WasmSimh"]

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = ROOT / SOURCE_FOLDER
BUILD_DIR = ROOT / "build"


@dataclass(frozen=True)
class Program:
    """One whole program on a tape of its own, for the 4,096-word machine: its sources in assembly
    order (``tapes.TAPES``, which the Makefile reads too; the first names the tape) and what it answers.

    The game and the analysis share the panel, rules, diagnostic and typewriter sources; each is
    read in alone, as separate programs were punched on tapes of their own.
    """

    name: str
    files: tuple[str, ...]
    commands: str  # the diagnostic commands of its own besides p and m: b (search), or w and d (prove, deepen)

    @property
    def tape(self) -> Path:
        return BUILD_DIR / f"{self.name}.rim"

    @property
    def symbols(self) -> Path:
        return BUILD_DIR / f"{self.name}.sym.json"

    def source_paths(self, source_dir: Path = SOURCE_DIR) -> list[Path]:
        return [source_dir / name for name in self.files]


GAME = Program("kalah", *TAPES["kalah"])  # the game: play, the diagnostic commands p, m and b, think
ANALYSIS = Program("prove", *TAPES["prove"])  # the analysis: the proof, the diagnostic commands p, m, w and d
PROGRAMS = (GAME, ANALYSIS)
SOURCE_FILES = GAME.files
TAPE = GAME.tape
SYMBOLS = GAME.symbols


def source_paths(program: Program = GAME) -> list[Path]:
    return program.source_paths()


class TapeDamaged(SimhError):
    """A tape (``build/kalah.rim``, ``build/prove.rim``) fails its own check (a bad checksum, a cut) and cannot be
    punched again."""


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


_SYMBOLS: dict[Path, tuple[tuple[int, int, int], dict[str, int]]] = {}  # a table read, by file and identity


def _verified(path: Path) -> str | None:
    info = path.stat()
    key = (info.st_mtime_ns, info.st_size, info.st_ino)
    if key in _SOUND:
        return None
    problem = tape_problem(path)
    if problem is None:
        _SOUND.add(key)
    return problem


def ensure_tape(build_dir: Path = BUILD_DIR, source_dir: Path = SOURCE_DIR, *,
                program: Program = GAME) -> Path:
    """The program's tape (``build/kalah.rim``, or ``build/prove.rim`` for the analysis), sound:
    assembled with tools.macro if it is missing, older than its sources, or damaged (every block's
    checksum verified before it is booted).

    The symbol table goes beside it (``kalah.sym.json``, ``prove.sym.json``): the bridge finds the
    program's variables and entry points there, to examine or deposit them.  A damaged tape is
    reported on one line (which block) and punched again from ``pdp1_src/``; without the sources
    it raises ``TapeDamaged``.
    """
    tape, symbols = build_dir / program.tape.name, build_dir / program.symbols.name
    sources = program.source_paths(source_dir)
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

    punched = assemble([(str(p.relative_to(source_dir.parent)), p.read_bytes()) for p in sources])
    if not punched.ok or punched.tape is None:
        raise SimhError(f"the {program.name} source does not assemble:\n{punched.messages}")
    build_dir.mkdir(parents=True, exist_ok=True)
    _replace(tape, punched.tape)
    _replace(tape.with_suffix(".lst"), punched.listing.encode("latin-1"))
    _replace(symbols, json.dumps(punched.symbols, indent=0, sort_keys=True).encode())
    problem = _verified(tape)
    if problem is not None:  # the assembler punched a tape our reader refuses: a bug to report, not boot
        raise TapeDamaged(f"{tape} as just punched fails its check: {problem}")
    return tape


def _replace(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: processes that punch the tape at once (the test run's
    workers, a kiosk starting) never read one half written."""
    write_atomically(path, data)


def ensure_tapes() -> list[Path]:
    """Both tapes, sound (``ensure_tape`` for each): what every command that runs the PDP-1 checks first."""
    return [ensure_tape(program=program) for program in PROGRAMS]


# the game's labels the bridge reads or stops at: a tape of the game of another's making must name them all
BRIDGE_SYMBOLS = ("think", "thx", "shbd", "gc1", "gloop", "resume", "bd", "side", "over", "psd", "bots", "swpd",
                  "nmov")


def symbols_beside(tape: Path) -> Path:
    """Where a tape's symbol table is: beside it, as ``ensure_tape`` and tools.macro write it (``kalah.rim``:
    ``kalah.sym.json``)."""
    return tape.with_name(f"{tape.stem}.sym.json")


def game_tape_problem(tape: Path) -> str | None:
    """What keeps ``tape`` from being played as the game (None: it can be): a tape the reader refuses, or no
    symbol table beside it naming every label the bridge reads (``BRIDGE_SYMBOLS``)."""
    problem = tape_problem(tape)
    if problem is not None:
        return f"the tape {tape} {problem}"
    try:
        table = json.loads(symbols_beside(tape).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"the tape's symbol table {symbols_beside(tape)} cannot be read: {getattr(exc, 'strerror', None) or exc}"
    missing = [name for name in BRIDGE_SYMBOLS if not isinstance(table, dict) or not isinstance(table.get(name), int)]
    return f"the tape's symbol table names no {missing[0]!r}" if missing else None


def program_symbols(program: Program = GAME, tape: Path | None = None) -> dict[str, int]:
    """A program's symbol table (label -> address), as assembled for its tape (the game's by default), or,
    given ``tape`` (another tape of the game: ``game_tape_problem`` has passed it), the table beside that."""
    if tape is not None:
        return dict(json.loads(symbols_beside(tape).read_text(encoding="utf-8")))
    ensure_tape(program=program)
    info = program.symbols.stat()
    identity = (info.st_mtime_ns, info.st_size, info.st_ino)
    known = _SYMBOLS.get(program.symbols)
    if known is None or known[0] != identity:  # read once a punching: the online server starts games often
        known = _SYMBOLS[program.symbols] = (identity, json.loads(program.symbols.read_text()))
    return dict(known[1])


class ProtocolError(SimhError):
    """The PDP-1 answered something the diagnostic protocol does not allow."""


BOARD_WORDS = 14  # bd on: south's six pits, south's store, north's six pits, north's store


def board_words(position: Position) -> list[int]:
    """The program's 14 board words for ``position`` (6 pits a side, the pits beyond m empty)."""
    m, board = position.pits, position.board
    return (list(board[:m]) + [0] * (6 - m) + [board[m]]
            + list(board[m + 1:2 * m + 1]) + [0] * (6 - m) + [board[2 * m + 1]])


@dataclass(frozen=True)
class CoreBoard:
    """The game as the program holds it in core: the board words, the side to move, the end flag.

    Why: in the brief form the PDP-1 does not type the board after a move,
    so the bridge reads it from core (the machine stopped) and checks it
    against the reference as it would check a typed one.
    """

    words: tuple[int, ...]
    side: int  # 0 south, 1 north (meaningless once the game is over)
    over: int  # nonzero once the game has ended

    @classmethod
    def read(cls, sim: Simh, symbols: dict[str, int]) -> "CoreBoard":
        """The stopped machine's board (one SIMH command); ``symbols``: its tape's (``program_symbols``),
        looked up once by the caller, not at every move."""
        board = range(symbols["bd"], symbols["bd"] + BOARD_WORDS)
        wanted = [*board, symbols["side"], symbols["over"]]
        words, out = sim.examine_words(wanted)  # one command
        if any(a not in words for a in wanted):
            raise SimhError(f"examine of the board: {out!r}", sim.tail())
        return cls(tuple(words[a] for a in board), words[symbols["side"]], words[symbols["over"]])

    def holds(self, position: Position) -> bool:
        """Whether this is ``position``: the same counts, nothing beyond m, the same side to move or end."""
        if list(self.words) != board_words(position) or bool(self.over) != position.over:
            return False
        return position.over or (self.side == 0) == (position.to_move == SOUTH)

    def position(self, pits: int) -> str:
        """The words as a position in the notation, for a report (stray seeds beyond m shown after a |)."""
        south, north = self.words[:pits], self.words[7:7 + pits]
        stray = [w for i, w in enumerate(self.words) if i % 7 >= pits and i % 7 != 6 and w]
        mover = ENDED if self.over else (SOUTH if self.side == 0 else NORTH)
        text = format_position(Position(tuple(south) + (self.words[6],) + tuple(north) + (self.words[13],), mover))
        return text + (f" | beyond pit {pits}: {stray}" if stray else "")


class KalahMachine(Closing):
    """A simulator with a Kalah tape read in and running: the game's (``GAME``), or the analysis
    tape (``ANALYSIS``) for proofs."""

    def __init__(
        self,
        panel: PanelSettings,
        config: MachineConfig = FULL_SPEED,
        *,
        timeout: float = 10.0,
        tape: Path | None = None,
        breakpoints: tuple[int, ...] = (),
        program: Program = GAME,
        transport: Transport = Simh,
    ) -> None:
        self.panel = panel
        self.program = program
        self.config = config
        self.sim = transport(config, timeout=timeout)
        try:
            self.tape = tape or ensure_tape(program=program)  # the tape read in
            self.sim.set_switches(panel.switches())
            self.sim.set_test_word(panel.test_word())
            for address in breakpoints:  # before read-in: the program may reach them at once
                self.sim.command(f"break {address:o}")
            self.sim.read_in(self.tape)
        except BaseException:
            self.sim.close()
            raise

    def close(self) -> None:
        self.sim.close()

    def symbols(self) -> dict[str, int]:
        """The symbol table of the tape read in (label -> address): the program's own, or the one beside a
        tape given by name."""
        return program_symbols(self.program, None if self.tape == self.program.tape else self.tape)

    def set_panel(self, panel: PanelSettings) -> None:
        """Change switches and test word while the program runs: stop, deposit, continue."""
        self.sim.stop()
        self.sim.set_switches(panel.switches())
        self.sim.set_test_word(panel.test_word())
        self.sim.cont()
        self.panel = panel

    def start_again(self, panel: PanelSettings, start: int, brief_stop: int,
                    while_stopped: Callable[[], None] | None = None) -> None:
        """The program started again at ``start`` with ``panel`` set, from wherever it is (running, or
        stopped at a breakpoint): what it typed meanwhile is discarded, and the brief form's stop at
        ``brief_stop`` (where the board is left in core) set or cleared as the panel says;
        ``while_stopped`` runs once the machine is stopped (SIMH commands, such as its speed)."""
        sim = self.sim
        if sim.running:
            try:
                sim.stop()
            except BreakpointReached:  # it had stopped itself at a breakpoint (a game left midway)
                pass
        if while_stopped is not None:
            while_stopped()
        sim.discard_output()
        sim.set_switches(panel.switches())
        sim.set_test_word(panel.test_word())
        if panel.brief:
            sim.set_breakpoint(brief_stop)
        else:
            sim.clear_breakpoint(brief_stop)
        self.panel = panel
        sim.go(start)


_LINE = re.compile(r"([^\r\n]*)\r\n")
RUBOUT = "\x7f"  # the DEL key (machine.diagnostic's DEL): SIMH delivers it as backspace, and echoes a backspace
_LINE_END = re.compile(r"\r\n")
_SYNC_ANSWER = re.compile(r"\r\nerror\r\n")  # the echo of an empty line's carriage return, and its answer
DEPTH_LINE = "depth "  # a line of the analysis tape's d n: more lines follow


def simh_echo(keys: str) -> str:
    """What SIMH's typewriter prints as it takes ``keys`` (carriage returns aside: each echoes as CR LF).

    Every key is echoed as it is polled, delivered to the program or not, a rubout as a backspace
    (``pdp1_stddev.c``, ``tti_svc``); the run-mode terminal edits no output.
    """
    return keys.replace(RUBOUT, "\b")


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

    Between an answer and the next line the ``pdp1`` process is suspended
    (SIGSTOP; the next exchange wakes it): the program waits for a key in a
    loop that SIMH runs at full speed, a whole core spent while the caller
    works out what to type next.  Safe for the keys: the line answered came
    after any ``cont`` and the keyboard flush that goes with it.

    Nothing here depends on how quickly the host runs the simulator: a key is
    typed only where it cannot be lost (``sync``), every key typed is answered
    once, and an answer is taken only right after SIMH's echo of its own line
    (``ask``), so an answer can never be credited to the wrong line, however
    late it comes.
    """

    def __init__(self, machine: KalahMachine) -> None:
        if not machine.panel.diagnostic:
            raise ValueError("the diagnostic console needs sense switch 6 (panel.diagnostic)")
        self.machine = machine
        self.sim = machine.sim
        self._reach_the_keyboard_loop()
        self.sync()

    def _reach_the_keyboard_loop(self) -> None:
        """Let the program just read in run on to its keyboard loop (stopped there by a breakpoint), then go on.

        Why: on its way to the loop the program forgets the keys typed so far
        (``forget``, at the diagnostic mode's start), and a key it forgot is
        echoed but never answered.  Retrying an unanswered line after a wait
        cannot tell a forgotten key from a late answer on a busy host: the
        late answer then came as well, one answer too many, and every later
        line was credited with the answer to the line before it.  Stopped in
        the loop, the program has forgotten all it will forget.
        """
        sim, loop = self.sim, self.machine.symbols()["gc1"]
        sim.wait_gone_on(time.monotonic() + sim.timeout)  # a ^E typed before SIMH has gone on is flushed
        try:
            sim.stop()
        except BreakpointReached as stopped:  # the caller's own breakpoint, on the way to the loop
            raise ProtocolError(f"the PDP-1 stopped at {stopped.pc:o} before it read a command", sim.tail()) \
                from None
        sim.set_breakpoint(loop)
        try:
            sim.cont()
            stop = sim.wait_for_stop()
            if not (isinstance(stop, BreakpointReached) and stop.pc == loop):
                raise ProtocolError(f"the PDP-1 does not reach its keyboard loop in diagnostic mode: {stop}",
                                    sim.tail())
        finally:
            sim.clear_breakpoint(loop)
        sim.cont()

    def sync(self) -> None:
        """Make sure the program is reading commands, and read past whatever it typed before: an empty line,
        typed once, is answered ``error``.

        Called once the program is in its keyboard loop (it waited there
        before a stop, or ``__init__`` brought it there), so the only way to
        lose the key is SIMH's flush of pending input as it goes on after
        ``cont``: the key waits for that, however long the host takes, and
        is never typed again.  (A key typed again after a wait is answered
        twice when the first answer was merely late.)
        """
        self.sim.wait_gone_on(time.monotonic() + self.sim.timeout)
        self.sim.type("\r")
        self.sim.expect(_SYNC_ANSWER)
        self.sim.suspend()

    def ask(self, line: str, timeout: float | None = None) -> DiagnosticAnswer:
        """Type one command line and return the program's answer: one line, or the analysis tape's
        deepening's lines (``depth ...`` each, then its last line), joined by newlines.

        The answer is the output right after SIMH's echo of this very line; anything else before the
        echo (an answer nobody asked for, keys lost) raises ProtocolError instead of being taken for
        the answer: the caller then ``sync``s.
        """
        self.sim.type(line + "\r")
        echoed, _ = self.sim.expect_output(_LINE_END, timeout)  # SIMH's echo of the carriage return
        if echoed != simh_echo(line):
            raise ProtocolError(f"typed {line!r}, but the output before the answer is {echoed!r}: "
                                "an answer to another line, or keys lost", self.sim.tail())
        lines = [self.sim.expect(_LINE, timeout).group(1)]
        while lines[-1].startswith(DEPTH_LINE):
            lines.append(self.sim.expect(_LINE, timeout).group(1))
        self.sim.suspend()
        return DiagnosticAnswer("\n".join(lines))

    def set_position(self, position: Position) -> None:
        answer = self.ask("p " + format_position(position))
        if answer.text != "ok":
            raise ProtocolError(f"p {format_position(position)!r} answered {answer.text!r}", self.sim.tail())

    def move(self, pit: int) -> DiagnosticAnswer:
        return self.ask(f"m {pit}")

    def best(self, depth: int, timeout: float | None = None) -> DiagnosticAnswer:
        return self.ask(f"b {depth}", timeout)
