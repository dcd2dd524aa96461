"""Our SIMH wrapper: drives Debian's ``/usr/bin/pdp1`` on a pty the way an operator drives the console.

A library for testing any PDP-1 program, not only Kalah::

    from python_bridge.machine.simh import MachineConfig, Simh

    with Simh(MachineConfig(memory_words=4096, multiply_divide=False)) as sim:
        sim.read_in_source(SOURCE)          # MACRO source, assembled by tools.macro and read in
        sim.expect("ready")                 # typewriter output (a regular expression)
        sim.type("x")                       # keys on the console typewriter
        sim.expect("x")
        assert sim.wait_for_halt() == 0o100 # the address of the hlt that stopped it

The public API: ``Simh(config)``; ``read_in`` / ``read_in_tape`` / ``read_in_source`` (hardware
read-in, running) and ``load`` / ``load_source`` (SIMH's fast loader, stopped); ``go``, ``cont``,
``stop``, ``step``; ``set_switches``, ``set_test_word``; ``type``, ``expect``, ``expect_output``,
``read_some``; ``set_breakpoint``, ``clear_breakpoint``, ``wait_for_stop``, ``wait_for_halt``;
``examine``, ``deposit``, ``instructions``, ``command``; ``close`` (also at exit, and the child
dies with its parent).  Stops raise a ``MachineStopped`` subclass; ``pytest_plugin`` wraps it all
in a ``pdp1`` fixture.

Why a pty and pexpect: with pipes SIMH's stdio swallows stdin, messages come
out of order, and at end of input its ``sim>`` loop prints prompts forever.
Every wait here has a timeout, every way the simulated machine can stop
becomes a specific exception carrying the transcript's tail, and ``close()``
always reaps the process (the child is also told to die with its parent, so
no ``pdp1`` outlives its owner even if the owner is killed).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import re
import signal
import tempfile
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Self

import pexpect

from tools.fiodec import keyboard

if TYPE_CHECKING:
    from tools.macro import Program

PDP1_BINARY = "/usr/bin/pdp1"
PROMPT = "sim> "
STOP_RETRY = 0.5  # seconds to wait for a ^E to stop the machine before sending another
TAIL_CHARS = 2000  # transcript tail carried by exceptions
TRANSCRIPT_LIMIT = 256 * 1024  # the transcript kept in memory (the kiosk runs for weeks)

NEVER = re.compile(r"(?!x)x")  # a pattern that never matches: ``expect(NEVER)`` waits for the machine to stop

_ANY = re.compile(r".+", re.DOTALL)  # whatever has arrived


def _ready_length(unread: str) -> int:
    """How much of ``unread`` is surely program output: all but a last line that may be a stop
    message still arriving (SIMH starts those on a line of their own: the start of one, or one
    whose line end has not come yet), or a lone CR."""
    cut = unread.rfind("\n") + 1
    last = unread[cut:]
    # the message may have arrived in part (a prefix of its words) or whole but for its CR LF
    if last and any(word.startswith(last) or last.startswith(word) for word in _STOP_WORDS):
        if cut and unread[cut - 1] == "\n":  # the message's own new line goes with it
            cut -= 2 if cut > 1 and unread[cut - 2] == "\r" else 1
        return cut
    if unread.endswith("\r"):
        return len(unread) - 1
    return len(unread)


def _held_line_break(unread: str) -> int:
    """Characters at the end of ``unread`` that are a line break a stop message may still claim.

    SIMH prints a stop message on a line of its own, writing the CR LF that starts it before the
    message: read between the two writes, that CR LF looks like the program's own line break
    (the demonstration's transcript once had stray blank lines before its moves this way).
    """
    if unread.endswith("\r\n"):
        return 2
    return 1 if unread.endswith("\n") or unread.endswith("\r") else 0


# How long a trailing line break is held back while breakpoints are set, waiting for the stop
# message that may follow it.  SIMH writes the two within microseconds; this covers a loaded host.
STOP_MESSAGE_GRACE = 0.15
_BREAK_CMD = re.compile(r"\s*(no)?break(?:\s+(\S+))?\s*$", re.IGNORECASE)


class UntypableKeys(ValueError):
    """Keys the console typewriter cannot take: no FIO-DEC code (``€``, ``é``), or a control key
    that would reach SIMH itself (^E stops the simulation).  Nothing was typed."""

    def __init__(self, keys: str) -> None:
        self.keys = keys
        super().__init__("no typewriter key for " + ", ".join(repr(k) for k in keys))


def untypable(keys: str) -> str:
    """The characters of ``keys`` that ``Simh.type`` refuses, in order, each once.

    Why here: pexpect would raise UnicodeEncodeError for a character latin-1 lacks, and SIMH
    keeps only the low seven bits of a byte, so ``é`` (351) would arrive as ``i``.  What stays
    typable is what SIMH's keyboard handles as ``tools.fiodec.keyboard`` describes it: printable
    ASCII (those without a FIO-DEC code, ``;`` ``$``..., are echoed and dropped, which programs
    under test may rely on), the control keys it delivers (CR, tab, backspace, DEL) and LF
    (echoed, never delivered).  Any other control key is refused: ^E would stop the simulation.
    """
    bad: list[str] = []
    for char in keys:
        if " " <= char <= "~" or char == "\n" or (ord(char) < 128 and keyboard(char)[0]):
            continue
        if char not in bad:
            bad.append(char)
    return "".join(bad)


# What SIMH prints when a ``step N`` has run its N instructions.
_STEP_RE = re.compile(r"\r?\nStep expired(?:, PC: ([0-7]+))?[^\r\n]*\r?\n$")


class SimhError(RuntimeError):
    """Something went wrong with the simulator; ``tail`` holds the last of its transcript."""

    def __init__(self, message: str, tail: str = "") -> None:
        super().__init__(message)
        self.tail = tail

    def __str__(self) -> str:
        base = super().__str__()
        if not self.tail:
            return base
        lines = self.tail.replace("\r", "").splitlines()[-8:]
        return base + "\n  last transcript lines:\n" + "\n".join(f"  | {ln}" for ln in lines)


class SimhNotFound(SimhError):
    """``/usr/bin/pdp1`` is not installed (``make setup`` installs Debian's simh package)."""


class SimhDied(SimhError):
    """The pdp1 process exited or was killed."""


class SimhTimeout(SimhError):
    """The simulator did not produce what was expected in time: hung, or the program is stuck."""


class MachineStopped(SimhError):
    """The simulated PDP-1 stopped on its own; ``reason`` is SIMH's message, ``pc`` the PC it gave."""

    def __init__(self, reason: str, pc: int | None, tail: str = "") -> None:
        where = f" at PC {pc:06o}" if pc is not None else ""
        super().__init__(f"the PDP-1 stopped: {reason}{where}", tail)
        self.reason = reason
        self.pc = pc


class MachineHalted(MachineStopped):
    """A ``hlt`` instruction ran.  SIMH's ``pc`` is the next address; ``address`` is the hlt's own."""

    @property
    def address(self) -> int | None:
        return None if self.pc is None else (self.pc - 1) & 0o7777


class UndefinedInstruction(MachineStopped):
    """The PDP-1 fetched a word that is no instruction (a wild jump, a smashed program)."""


class IoWaitStopped(MachineStopped):
    """The PDP-1 waits for an I/O completion that can never come."""


class BreakpointReached(MachineStopped):
    """A breakpoint set with ``break`` was reached."""


# The messages SIMH prints when the simulated machine stops, each with the PC, and what each
# becomes: the one table of them.  SIMH starts each on a new line of its own: that CR LF belongs
# to the message, not to the program's output.
_STOP_CLASSES: dict[str, type[MachineStopped]] = {
    "HALT instruction": MachineHalted,
    "Undefined instruction": UndefinedInstruction,
    "Infinite I/O wait state": IoWaitStopped,
    "Breakpoint": BreakpointReached,
    "Simulation stopped": MachineStopped,
}
_STOP_WORDS = tuple(_STOP_CLASSES)
_STOP_RE = re.compile(
    r"(?:\r?\n)?(" + "|".join(map(re.escape, _STOP_WORDS)) + r")(?:, PC: ([0-7]+))?[^\r\n]*\r?\n"
)


@dataclass(frozen=True)
class MachineConfig:
    """How the simulated PDP-1 is set up before a tape is read in.

    ``throttle``: None for full speed, or SIMH's setting such as ``"2M"``
    (instructions a second).  It is no way to 1960 speed: SIMH 3.8.1
    calibrates it at full speed for the first few million instructions
    after every ``run``/``cont`` and lets the typewriter's waits pass in no
    host time, so 1960 pacing is done by stepping (see checking.pacing).  ``tto_time``: typewriter
    output time per character in instructions (20000 at 200K gives the real
    10 characters a second).  ``tti_time``: the keyboard poll interval in
    instructions; one key can arrive per poll.
    """

    memory_words: int = 4096
    multiply_divide: bool = False
    throttle: str | None = None
    tto_time: int = 10
    tti_time: int = 100  # the program takes a key in about 20 instructions: a 5x margin

    def commands(self) -> list[str]:
        cmds = [
            "set cpu 4k" if self.memory_words == 4096 else f"set cpu {self.memory_words // 1024}k",
            "set cpu mdv" if self.multiply_divide else "set cpu nomdv",
            f"deposit tto time {self.tto_time}",
            f"deposit tti time {self.tti_time}",
        ]
        cmds.append(self.throttle_command())
        return cmds

    def throttle_command(self) -> str:
        """The SIMH command that sets this speed (it may be given again while the machine is stopped)."""
        return f"set throttle {self.throttle}" if self.throttle else "set nothrottle"


FULL_SPEED = MachineConfig()
# For a machine paced by stepping (the kiosk and the demonstration at 1960 speed): a throttle of
# 2 million instructions a second, about twenty times 1960 speed, makes the PDP-1's keyboard loop cost a few
# percent of a host core instead of all of one (measured: 4% against 80% idle), while ``step``
# still runs exact instruction counts.  Weeks of an idle kiosk cost nothing.
QUIET_SPEED = MachineConfig(throttle="2M")
# For a machine that runs free but waits for a visitor's touch most of the time (the kiosk's fast mode):
# set while the PDP-1 waits for a key, and taken off as a key is typed, so that its thinking runs flat out.
IDLE_SPEED = MachineConfig(throttle="1M")

_live: "weakref.WeakSet[Simh]" = weakref.WeakSet()


_HELD = {signal.SIGINT, signal.SIGTERM, signal.SIGQUIT}  # held while a pdp1 is born and registered


def _die_with_parent() -> None:
    """In the child before exec: ask Linux to SIGKILL pdp1 when its parent dies; take the parent's held signals back."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@atexit.register
def _close_all() -> None:
    for sim in list(_live):
        sim.close()


class Closing:
    """Closed when its ``with`` block ends, however the block ends.

    Why a base: everything that holds a ``pdp1`` (the simulator, the Kalah
    machine, the thinker, the proof machine, a recovering game) must reap it
    on every way out, and each said so in the same three lines.
    """

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Simh(Closing):
    """One running ``pdp1`` process.  Use as a context manager, or call ``close()``."""

    def __init__(
        self,
        config: MachineConfig = FULL_SPEED,
        *,
        timeout: float = 10.0,
        binary: str = PDP1_BINARY,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        if not Path(binary).exists():
            raise SimhNotFound(f"{binary} is missing: run `make setup` (it installs Debian's simh package)")
        self.config = config
        self.timeout = timeout
        self.transcript = ""
        self._unread = ""  # read from the simulator, not yet taken by any reader
        self.running = False
        self._tape_dir: tempfile.TemporaryDirectory[str] | None = None  # tapes given as bytes or source
        self._tapes = 0
        self.breakpoints: set[str] = set()  # addresses SIMH would stop at, as given to ``break``
        # Ctrl-C between the fork and ``_live.add`` would leave a pdp1 nobody closes: hold it until
        # the child is registered (``close`` and the exit handler then reap it whatever happens next).
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            self.child = self._spawn(binary, timeout, cwd)
            _live.add(self)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            self._expect_prompt(timeout)
            for cmd in config.commands():
                answer = self.command(cmd)
                if answer:  # these commands answer nothing unless SIMH refuses them
                    raise SimhError(f"SIMH refused {cmd!r}: {answer}", self.tail())
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _spawn(binary: str, timeout: float, cwd: str | os.PathLike[str] | None) -> pexpect.spawn:
        """The ``pdp1`` child on a pty, 200 columns wide, keystrokes sent without pexpect's delay."""
        child = pexpect.spawn(
            binary,
            ["-q"],
            encoding="latin-1",
            timeout=timeout,
            cwd=str(cwd) if cwd else None,
            preexec_fn=_die_with_parent,
            dimensions=(50, 200),
        )
        child.delaybeforesend = None  # 50 ms a keystroke otherwise
        return child

    # -- life cycle -------------------------------------------------------------------
    @property
    def pid(self) -> int:
        return self.child.pid

    @property
    def alive(self) -> bool:
        return self.child.isalive()

    def close(self) -> None:
        """Stop the simulator and reap the process, whatever state it is in."""
        child = self.child
        if child.isalive():
            try:
                if self.running:
                    child.sendcontrol("e")
                    child.expect(PROMPT, timeout=1)
                child.send("quit\r")
                child.expect(pexpect.EOF, timeout=1)
            except (pexpect.ExceptionPexpect, OSError):
                pass
        try:
            child.close(force=True)
        except (pexpect.ExceptionPexpect, OSError):
            pass
        self.running = False
        if self._tape_dir is not None:
            self._tape_dir.cleanup()
            self._tape_dir = None
        _live.discard(self)

    def kill(self) -> None:
        """SIGKILL the process (used by tests of recovery)."""
        if self.child.isalive():
            os.kill(self.child.pid, signal.SIGKILL)

    # -- reading ---------------------------------------------------------------------------
    # Everything the simulator prints is read into ``_unread`` (and the transcript); every
    # reader -- expect, read_some, commands -- takes from there, so no output is ever seen
    # twice or lost, and output typed before a stop message stays readable after the stop.

    def _record(self, text: str) -> None:
        self.transcript += text
        if len(self.transcript) > TRANSCRIPT_LIMIT:
            self.transcript = self.transcript[-TRANSCRIPT_LIMIT // 2:]

    def tail(self, chars: int = TAIL_CHARS) -> str:
        return self.transcript[-chars:]

    def _read_more(self, timeout: float) -> bool:
        """Read what the simulator prints next into _unread; False if nothing came in ``timeout``."""
        idx = self.child.expect([_ANY, pexpect.EOF, pexpect.TIMEOUT], timeout=max(0.0, timeout))
        if idx == 0:
            text = self.child.after
            self._record(text)
            self._unread += text
            return True
        if idx == 1:
            self.running = False
            raise SimhDied("the pdp1 process exited", self.tail())
        return False

    def _until(self, find, timeout: float, what: str):
        """Read until ``find(_unread)`` gives a result; raise SimhTimeout after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            found = find(self._unread)
            if found is not None:
                return found
            if not self._read_more(deadline - time.monotonic()):
                raise SimhTimeout(f"no {what} in time", self.tail())

    def _expect_prompt(self, timeout: float) -> str:
        """Read up to SIMH's ``sim>`` prompt; return what came before it."""
        index = self._until(lambda u: u.find(PROMPT) if PROMPT in u else None, timeout, "sim> prompt")
        before, self._unread = self._unread[:index], self._unread[index + len(PROMPT):]
        return before

    def _take_stop(self, stop: re.Match[str]) -> MachineStopped:
        """Remove a stop message (and the prompt after it) from _unread; the exception to raise."""
        self.running = False
        head, rest = self._unread[:stop.start()], self._unread[stop.end():]
        self._unread = rest
        try:
            self._expect_prompt(2)
        except SimhError:
            pass
        self._unread = head + self._unread  # what the program typed before the stop is still its output
        pc = int(stop.group(2), 8) if stop.group(2) else None
        return _STOP_CLASSES[stop.group(1)](stop.group(1), pc, self.tail())

    def expect(self, pattern: str | re.Pattern[str], timeout: float | None = None) -> re.Match[str]:
        """Wait while the machine runs until its output matches ``pattern``; consume through the match.

        Raises MachineStopped (a subclass for each stop reason) if the PDP-1
        stops first, SimhDied if the process ends, SimhTimeout if nothing comes.
        """
        if not self.running and not self._unread:
            raise SimhError("the machine is not running", self.tail())
        compiled = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern)

        def find(unread: str):
            match, stop = compiled.search(unread), _STOP_RE.search(unread)
            if stop and (match is None or stop.start() < match.end()):
                return stop
            return match

        found = self._until(find, self.timeout if timeout is None else timeout, repr(compiled.pattern) + " from the PDP-1")
        if found.re is _STOP_RE:
            raise self._take_stop(found)
        self._unread = self._unread[found.end():]
        return found

    def expect_output(self, pattern: str | re.Pattern[str], timeout: float | None = None) -> tuple[str, re.Match[str]]:
        """Like ``expect``, also returning the output that came before the match."""
        match = self.expect(pattern, timeout)
        return match.string[:match.start()], match

    def read_some(self, timeout: float) -> str:
        """Return the output that arrives next (waiting up to ``timeout`` for the first of it).

        For live display: output before a stop message is returned first;
        the next call raises MachineStopped for the stop.  SimhDied at end of
        file, SimhTimeout if nothing at all comes.  A line that may be the
        start of a stop message is held back until it is complete.
        """
        deadline = time.monotonic() + timeout
        held_since: float | None = None  # when a trailing line break began to be held back
        while True:
            stop = _STOP_RE.search(self._unread)
            if stop:
                if stop.start() > 0:
                    text, self._unread = self._unread[:stop.start()], self._unread[stop.start():]
                    return text
                raise self._take_stop(stop)
            ready = _ready_length(self._unread)
            held = _held_line_break(self._unread[:ready]) if self.breakpoints and self.running else 0
            if held and held_since is not None and time.monotonic() - held_since >= STOP_MESSAGE_GRACE:
                held = 0  # no stop message came: the line break is the program's
            if ready - held > 0:
                text, self._unread = self._unread[:ready - held], self._unread[ready - held:]
                return text
            if not self.running and not self._unread:
                raise SimhError("the machine is not running", self.tail())
            wait = deadline - time.monotonic()
            if held:
                held_since = time.monotonic() if held_since is None else held_since
                wait = min(wait, held_since + STOP_MESSAGE_GRACE - time.monotonic())
            if not self._read_more(wait) and not held:
                raise SimhTimeout(f"no output from the PDP-1 for {timeout:.0f} s", self.tail())

    def discard_output(self) -> None:
        """Forget output not yet read: what came before is of no interest."""
        self._unread = ""

    def unread(self, text: str) -> None:
        """Give output back: the next ``read_some`` or ``expect`` sees ``text`` first (e.g. a step's output)."""
        self._unread = text + self._unread

    # -- the console --------------------------------------------------------------------
    def command(self, cmd: str, timeout: float | None = None) -> str:
        """Run a SIMH command at the ``sim>`` prompt and return what it printed."""
        if self.running:
            raise SimhError(f"cannot run {cmd!r} while the machine runs: stop it first", self.tail())
        pending, self._unread = self._unread, ""  # program output not yet read stays unread
        try:
            self.child.send(cmd + "\r")
            out = self._expect_prompt(self.timeout if timeout is None else timeout)
        finally:
            self._unread = pending + self._unread
        self._note_breakpoints(cmd)
        out = out.replace("\r", "")
        first, _, rest = out.partition("\n")
        if first.strip() != cmd.strip():
            rest = out
        return rest.strip("\n")

    def _note_breakpoints(self, cmd: str) -> None:
        """Keep ``breakpoints`` as SIMH has them after ``cmd`` (read_some's stop-message care needs it)."""
        match = _BREAK_CMD.match(cmd)
        if not match or not match.group(2):
            return
        where = match.group(2).lower()
        if not match.group(1):
            self.breakpoints.add(where.lstrip("0") or "0")
        elif where == "all":
            self.breakpoints.clear()
        else:
            self.breakpoints.discard(where.lstrip("0") or "0")

    def deposit(self, target: str | int, value: int) -> None:
        where = f"{target:o}" if isinstance(target, int) else target
        out = self.command(f"deposit {where} {value:o}")
        if out:
            raise SimhError(f"deposit {where}: {out}", self.tail())

    def examine(self, target: str | int) -> int:
        """Read a register (``ac``, ``pc``, ``pf``...) or a memory word (an int address)."""
        where = f"{target:o}" if isinstance(target, int) else target
        out = self.command(f"examine {where}")
        match = re.search(r":\s*([0-7]+)\s*$", out)
        if not match:
            raise SimhError(f"examine {where}: {out!r}", self.tail())
        return int(match.group(1), 8)

    def examine_words(self, addresses: Iterable[int]) -> tuple[dict[int, int], str]:
        """Memory words at ``addresses``, in one command: the words SIMH gave (address -> word) and its
        answer, for the caller to say what was missing (a board read at every move, cycle counting's
        pointer words)."""
        out = self.command("examine " + ",".join(f"{a:o}" for a in addresses))
        return {int(a, 8): int(w, 8) for a, w in re.findall(r"^([0-7]+):\s*([0-7]+)\s*$", out, re.M)}, out

    def instructions(self) -> int:
        """SIMH's count of time units since the run started: one per instruction."""
        out = self.command("show time")
        match = re.search(r"Time:\s*(\d+)", out)
        if not match:
            raise SimhError(f"show time: {out!r}", self.tail())
        return int(match.group(1))

    def set_switches(self, switches: int) -> None:
        """The six sense switches: switch 1 is 040 ... switch 6 is 001."""
        self.deposit("ss", switches & 0o77)

    def set_test_word(self, word: int) -> None:
        self.deposit("tw", word & 0o777777)

    # -- running -------------------------------------------------------------------------
    def read_in(self, tape: str | os.PathLike[str]) -> None:
        """Hardware read-in: mount the tape on the reader and press READ IN (``boot ptr``).

        The tape's own loader runs and starts the program: the machine is
        running when this returns.
        """
        self.command(f"attach ptr {Path(tape).resolve()}")
        self._start("boot ptr")

    def load(self, tape: str | os.PathLike[str]) -> None:
        """SIMH's fast loader (``load -b``): the program is in core, not running."""
        out = self.command(f"load -b {Path(tape).resolve()}")
        if out:
            raise SimhError(f"load: {out}", self.tail())

    def read_in_tape(self, tape: bytes) -> None:
        """Hardware read-in of a tape given as bytes (kept in a file of its own until ``close``)."""
        self.read_in(self._tape_file(tape))

    def read_in_source(self, source: str | list[tuple[str, str]], *, name: str = "program.mac") -> "Program":
        """Assemble MACRO source with ``tools.macro`` (as macro1 would), punch it and read it in.

        ``source`` is one text or ``(filename, text)`` pairs assembled as one program.  Raises
        ``AssemblyFailed`` with macro1's messages when it does not assemble.  Returns the program
        (its ``symbols`` give the addresses to break at or examine).
        """
        program = _assemble(source, name)
        self.read_in_tape(program.tape)
        return program

    def load_source(self, source: str | list[tuple[str, str]], *, name: str = "program.mac") -> "Program":
        """Assemble MACRO source and put it in core with SIMH's fast loader; the machine stays stopped."""
        program = _assemble(source, name)
        self.load(self._tape_file(program.tape))
        return program

    def _tape_file(self, tape: bytes) -> Path:
        if self._tape_dir is None:
            self._tape_dir = tempfile.TemporaryDirectory(prefix="simh-tape-")
        self._tapes += 1
        path = Path(self._tape_dir.name) / f"tape{self._tapes}.rim"
        path.write_bytes(tape)
        return path

    def set_breakpoint(self, address: int) -> None:
        """Stop (raising ``BreakpointReached``) when the PDP-1 is about to execute ``address``."""
        out = self.command(f"break {address:o}")
        if out:
            raise SimhError(f"break {address:o}: {out}", self.tail())

    def clear_breakpoint(self, address: int | None = None) -> None:
        """Remove the breakpoint at ``address``, or every breakpoint."""
        self.command("nobreak all" if address is None else f"nobreak {address:o}")

    def wait_for_stop(self, timeout: float | None = None) -> MachineStopped:
        """Let the running machine run until it stops by itself (a halt, a breakpoint...); the stop.

        Typewriter output before the stop stays readable (``read_some``, ``expect``).  Raises
        ``SimhTimeout`` if it is still running after ``timeout`` seconds (then it is still running).
        """
        try:
            self.expect(NEVER, timeout)  # wait for the stop
        except MachineStopped as stop:
            return stop
        raise SimhError("the machine did not stop", self.tail())  # pragma: no cover - expect always raises

    def wait_for_halt(self, timeout: float | None = None) -> int:
        """Run until a ``hlt``; the address of that hlt.  Any other stop raises as itself."""
        stop = self.wait_for_stop(timeout)
        if not isinstance(stop, MachineHalted) or stop.address is None:
            raise stop
        return stop.address

    def go(self, address: int) -> None:
        """Start the program at ``address`` (``run``)."""
        self._start(f"run {address:o}")

    def cont(self) -> None:
        """Continue after a stop."""
        self._start("cont")

    def _start(self, cmd: str) -> None:
        if self.running:
            raise SimhError("the machine is already running", self.tail())
        pending, self._unread = self._unread, ""  # program output not yet read stays unread
        self.child.send(cmd + "\r")
        echo = cmd + "\r\n"
        index = self._until(lambda u: u.find(echo) if echo in u else None, self.timeout, f"echo of {cmd!r}")
        self._unread = pending + self._unread[index + len(echo):]
        self.running = True

    def stop(self) -> int | None:
        """Stop the running machine (^E) and return the PC it stopped at."""
        if not self.running:
            return None
        # SIMH flushes the terminal's input when it starts running (TCSAFLUSH), so a ^E sent just
        # after a run or cont can be thrown away: send it again until the machine stops.
        deadline = time.monotonic() + self.timeout
        sent = 0
        while True:
            self.child.sendcontrol("e")
            sent += 1
            try:
                stop = self.wait_for_stop(min(STOP_RETRY, max(0.0, deadline - time.monotonic())))
                break
            except SimhTimeout:
                if time.monotonic() >= deadline:
                    raise
        if sent > 1 or type(stop) is not MachineStopped:
            # a ^E that came late, or after the machine had stopped by itself, sits on the sim> line,
            # where it would spoil the next command: an empty command clears it
            self.command("")
        if type(stop) is not MachineStopped:  # it stopped by itself before the ^E
            raise stop
        return stop.pc

    def step(self, instructions: int, timeout: float | None = None) -> tuple[str, int | None]:
        """Run exactly ``instructions`` instructions of the stopped machine (SIMH's ``step``), then stop.

        Why: SIMH 3.8.1's throttle recalibrates at full speed (about 3.4
        million instructions) after every ``cont``, so a throttled machine
        cannot be stopped to be looked at without running away.  Stepping a
        full-speed machine in measured slices paces it exactly instead (the
        kiosk shows the PDP-1 thinking in 1960 time this way), and its
        registers can be examined between slices.  Returns the typewriter
        output not yet read, the slice's included (also kept in the
        transcript), and the PC; any other stop (a halt...) raises as
        ``expect`` does.
        """
        if self.running:
            raise SimhError("step needs a stopped machine: stop it first", self.tail())
        if instructions < 1:
            raise ValueError(f"step needs a positive number of instructions, not {instructions}")
        cmd = f"step {instructions}"
        pending, self._unread = self._unread, ""
        try:
            self.child.send(cmd + "\r")
            raw = self._expect_prompt(self.timeout if timeout is None else timeout)
        finally:
            self._unread = pending + self._unread
        echo = raw.find(cmd + "\r\n")  # the echo of the command line (after the prompt's space)
        if echo >= 0 and not raw[:echo].strip():
            raw = raw[echo + len(cmd) + 2:]
        done = _STEP_RE.search(raw)
        if done:
            earlier, self._unread = self._unread, ""  # output not yet read comes first
            return earlier + raw[:done.start()], int(done.group(1), 8) if done.group(1) else None
        stop = _STOP_RE.search(raw)
        if stop:
            self._unread += raw[:stop.start()]
            raise _STOP_CLASSES[stop.group(1)](stop.group(1), int(stop.group(2), 8) if stop.group(2) else None,
                                               self.tail())
        raise SimhError(f"{cmd}: unexpected answer {raw!r}", self.tail())

    def type(self, keys: str) -> None:
        """Type on the console typewriter.  A carriage return is ``\\r`` (LF has no FIO-DEC code).

        Raises ``UntypableKeys`` (a ValueError), typing nothing, for keys the typewriter lacks.
        """
        bad = untypable(keys)
        if bad:
            raise UntypableKeys(bad)
        if not self.running:
            raise SimhError("typing while the machine is stopped would be lost", self.tail())
        if not self.child.isalive():  # died while nobody read it (a visitor thinking over a move)
            self.running = False
            raise SimhDied("the pdp1 process exited", self.tail())
        try:
            self.child.send(keys)
        except OSError as failure:
            self.running = False
            raise SimhDied(f"the pdp1 process cannot be typed to: {failure}", self.tail()) from None


class AssemblyFailed(SimhError):
    """MACRO source given to ``read_in_source``/``load_source`` did not assemble; the message is macro1's."""


def _assemble(source: str | list[tuple[str, str]], name: str) -> "Program":
    from tools.macro import assemble  # the assembler is needed only by machines started from source

    program = assemble(source, name=name)
    if not program.ok or program.tape is None:
        raise AssemblyFailed(f"{name} does not assemble:\n{(program.fatal or program.messages).strip()}")
    return program


def live_simulators() -> Iterator[Simh]:
    """The simulators this process has open (tests check none is left behind)."""
    return iter(list(_live))
