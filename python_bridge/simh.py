"""Our SIMH wrapper: drives Debian's ``/usr/bin/pdp1`` on a pty the way an operator drives the console.

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
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pexpect

PDP1_BINARY = "/usr/bin/pdp1"
PROMPT = "sim>"
TAIL_CHARS = 2000  # transcript tail carried by exceptions
TRANSCRIPT_LIMIT = 256 * 1024  # the transcript kept in memory (the kiosk runs for weeks)

# Messages SIMH prints when the simulated machine stops, each with the PC.  SIMH starts each on a
# new line of its own: that CR LF belongs to the message, not to the program's output.
_STOP_RE = re.compile(
    r"\r?\n(HALT instruction|Undefined instruction|Infinite I/O wait state|Breakpoint|Simulation stopped)"
    r"(?:, PC: ([0-7]+))?[^\r\n]*\r?\n"
)

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
    """A ``hlt`` instruction ran."""


class UndefinedInstruction(MachineStopped):
    """The PDP-1 fetched a word that is no instruction (a wild jump, a smashed program)."""


class IoWaitStopped(MachineStopped):
    """The PDP-1 waits for an I/O completion that can never come."""


class BreakpointReached(MachineStopped):
    """A breakpoint set with ``break`` was reached."""


_STOP_CLASSES: dict[str, type[MachineStopped]] = {
    "HALT instruction": MachineHalted,
    "Undefined instruction": UndefinedInstruction,
    "Infinite I/O wait state": IoWaitStopped,
    "Breakpoint": BreakpointReached,
    "Simulation stopped": MachineStopped,
}


@dataclass(frozen=True)
class MachineConfig:
    """How the simulated PDP-1 is set up before a tape is read in.

    ``throttle``: None for full speed, or SIMH's setting such as ``"200K"``
    (instructions a second; about 1960 speed).  ``tto_time``: typewriter
    output time per character in instructions (20000 at 200K gives the real
    10 characters a second).  ``tti_time``: the keyboard poll interval in
    instructions; one key can arrive per poll.
    """

    memory_words: int = 4096
    multiply_divide: bool = False
    throttle: str | None = None
    tto_time: int = 10
    tti_time: int = 500

    def commands(self) -> list[str]:
        cmds = [
            "set cpu 4k" if self.memory_words == 4096 else f"set cpu {self.memory_words // 1024}k",
            "set cpu mdv" if self.multiply_divide else "set cpu nomdv",
            f"deposit tto time {self.tto_time}",
            f"deposit tti time {self.tti_time}",
        ]
        cmds.append(f"set throttle {self.throttle}" if self.throttle else "set nothrottle")
        return cmds


FULL_SPEED = MachineConfig()
AUTHENTIC_SPEED = MachineConfig(throttle="200K", tto_time=20000, tti_time=5000)

_live: "weakref.WeakSet[Simh]" = weakref.WeakSet()


def _die_with_parent() -> None:
    """In the child before exec: ask Linux to SIGKILL pdp1 when its parent dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@atexit.register
def _close_all() -> None:
    for sim in list(_live):
        sim.close()


class Simh:
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
        self._carry = ""
        self._pending = ""
        self.running = False
        self.child = pexpect.spawn(
            binary,
            ["-q"],
            encoding="latin-1",
            timeout=timeout,
            cwd=str(cwd) if cwd else None,
            preexec_fn=_die_with_parent,
            dimensions=(50, 200),
        )
        self.child.delaybeforesend = None  # 50 ms a keystroke otherwise
        _live.add(self)
        try:
            self._expect_prompt(timeout)
            for cmd in config.commands():
                self.command(cmd)
        except BaseException:
            self.close()
            raise

    # -- life cycle -------------------------------------------------------------------
    def __enter__(self) -> "Simh":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        _live.discard(self)

    def kill(self) -> None:
        """SIGKILL the process (used by tests of recovery)."""
        if self.child.isalive():
            os.kill(self.child.pid, signal.SIGKILL)

    # -- the transcript -----------------------------------------------------------------
    def _record(self, text: str) -> None:
        self.transcript += text
        if len(self.transcript) > TRANSCRIPT_LIMIT:
            self.transcript = self.transcript[-TRANSCRIPT_LIMIT // 2:]

    def tail(self, chars: int = TAIL_CHARS) -> str:
        return self.transcript[-chars:]

    def _consume(self) -> None:
        """Record what pexpect matched (before + after) into the transcript."""
        before = self.child.before if isinstance(self.child.before, str) else ""
        after = self.child.after if isinstance(self.child.after, str) else ""
        self._record(before + after)

    # -- waiting --------------------------------------------------------------------------
    def _expect_prompt(self, timeout: float) -> str:
        idx = self.child.expect([PROMPT, pexpect.EOF, pexpect.TIMEOUT], timeout=timeout)
        before = self.child.before if isinstance(self.child.before, str) else ""
        self._consume()
        if idx == 1:
            raise SimhDied("the pdp1 process exited", self.tail())
        if idx == 2:
            raise SimhTimeout("no sim> prompt from the simulator", self.tail())
        return before

    def _raise_stop(self, match: re.Match[str]) -> None:
        self.running = False
        reason = match.group(1)
        pc = int(match.group(2), 8) if match.group(2) else None
        # the prompt follows the stop message
        try:
            self._expect_prompt(2)
        except SimhError:
            pass
        raise _STOP_CLASSES[reason](reason, pc, self.tail())

    def expect(self, pattern: str | re.Pattern[str], timeout: float | None = None) -> re.Match[str]:
        """Wait while the machine runs until its output matches ``pattern``.

        Raises MachineStopped (a subclass for each stop reason) if the PDP-1
        stops first, SimhDied if the process ends, SimhTimeout if nothing comes.
        """
        if not self.running:
            raise SimhError("the machine is not running", self.tail())
        compiled = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern)
        if self._pending:  # output that came before a stop is read first
            self.child.buffer = self._pending + self.child.buffer
            self._pending = ""
        idx = self.child.expect(
            [compiled, _STOP_RE, pexpect.EOF, pexpect.TIMEOUT],
            timeout=self.timeout if timeout is None else timeout,
        )
        if idx == 2:
            self._consume()
            self.running = False
            raise SimhDied("the pdp1 process exited", self.tail())
        if idx == 3:
            self._consume()
            raise SimhTimeout(f"no {compiled.pattern!r} from the PDP-1 in time", self.tail())
        match = self.child.match
        self._consume()
        if idx == 1:
            # what the program typed before the stop message is still its output: keep it
            before = self.child.before if isinstance(self.child.before, str) else ""
            self._pending += before
            self._raise_stop(match)
        return match

    def expect_output(self, pattern: str | re.Pattern[str], timeout: float | None = None) -> tuple[str, re.Match[str]]:
        """Like ``expect``, also returning the output that came before the match."""
        before_len = len(self.transcript)
        match = self.expect(pattern, timeout)
        seen = self.transcript[before_len:] if len(self.transcript) >= before_len else self.transcript
        return seen[: len(seen) - len(match.group(0))], match

    # -- the console --------------------------------------------------------------------
    def command(self, cmd: str, timeout: float | None = None) -> str:
        """Run a SIMH command at the ``sim>`` prompt and return what it printed."""
        if self.running:
            raise SimhError(f"cannot run {cmd!r} while the machine runs: stop it first", self.tail())
        self.child.send(cmd + "\r")
        out = self._expect_prompt(self.timeout if timeout is None else timeout)
        # drop the echoed command line
        out = out.replace("\r", "")
        first, _, rest = out.partition("\n")
        if first.strip() != cmd.strip():
            rest = out
        return rest.strip("\n")

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

    def examine_range(self, first: int, last: int) -> dict[int, int]:
        out = self.command(f"examine {first:o}-{last:o}")
        words = {}
        for line in out.splitlines():
            m = re.match(r"\s*([0-7]+):\s*([0-7]+)", line)
            if m:
                words[int(m.group(1), 8)] = int(m.group(2), 8)
        return words

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

    def go(self, address: int) -> None:
        """Start the program at ``address`` (``run``)."""
        self._start(f"run {address:o}")

    def cont(self) -> None:
        """Continue after a stop."""
        self._start("cont")

    def _start(self, cmd: str) -> None:
        if self.running:
            raise SimhError("the machine is already running", self.tail())
        self.child.send(cmd + "\r")
        self.child.expect_exact(cmd + "\r\n", timeout=self.timeout)
        self._consume()
        self._carry = ""
        self.running = True

    def stop(self) -> int | None:
        """Stop the running machine (^E) and return the PC it stopped at."""
        if not self.running:
            return None
        self.child.sendcontrol("e")
        try:
            self.expect(re.compile(r"(?!x)x"), timeout=self.timeout)  # never matches: wait for the stop
        except MachineStopped as stop:
            if type(stop) is not MachineStopped:
                raise
            return stop.pc
        raise SimhError("the machine did not stop", self.tail())  # pragma: no cover - expect always raises

    def step(self, instructions: int, timeout: float | None = None) -> tuple[str, int | None]:
        """Run exactly ``instructions`` instructions of the stopped machine (SIMH's ``step``), then stop.

        Why: SIMH 3.8.1's throttle recalibrates at full speed (about 3.4
        million instructions) after every ``cont``, so a throttled machine
        cannot be stopped to be looked at without running away.  Stepping a
        full-speed machine in measured slices paces it exactly instead (the
        kiosk shows the PDP-1 thinking in 1960 time this way), and its
        registers can be examined between slices.  Returns the typewriter
        output of the slice (also kept in the transcript) and the PC; any
        other stop (a halt...) raises as ``expect`` does.
        """
        if self.running:
            raise SimhError("step needs a stopped machine: stop it first", self.tail())
        if instructions < 1:
            raise ValueError(f"step needs a positive number of instructions, not {instructions}")
        cmd = f"step {instructions}"
        self.child.send(cmd + "\r")
        raw = self._expect_prompt(self.timeout if timeout is None else timeout)
        echo = raw.find(cmd + "\r\n")  # the echo of the command line (after the prompt's space)
        if echo >= 0 and not raw[:echo].strip():
            raw = raw[echo + len(cmd) + 2:]
        done = _STEP_RE.search(raw)
        if done:
            return raw[:done.start()], int(done.group(1), 8) if done.group(1) else None
        stop = _STOP_RE.search(raw)
        if stop:
            self._pending += raw[:stop.start()]
            raise _STOP_CLASSES[stop.group(1)](stop.group(1), int(stop.group(2), 8) if stop.group(2) else None,
                                               self.tail())
        raise SimhError(f"{cmd}: unexpected answer {raw!r}", self.tail())

    def unread(self, text: str) -> None:
        """Give output back: the next ``read_some`` or ``expect`` sees ``text`` first (e.g. a step's output)."""
        self._pending = text + self._pending

    def type(self, keys: str) -> None:
        """Type on the console typewriter.  A carriage return is ``\\r`` (LF has no FIO-DEC code)."""
        if not self.running:
            raise SimhError("typing while the machine is stopped would be lost", self.tail())
        self.child.send(keys)

    def read_some(self, timeout: float) -> str:
        """Return the output that arrives next (waiting up to ``timeout`` for the first of it).

        For live display: raises MachineStopped if SIMH reports a stop in it,
        SimhDied at end of file, SimhTimeout if nothing at all comes.
        """
        if self._pending:  # typewriter output that came just before a stop message
            text, self._pending = self._pending, ""
            return text
        if not self.running:
            raise SimhError("the machine is not running", self.tail())
        try:
            if self.child.buffer:  # output that arrived with an earlier match comes first
                text, self.child.buffer = self.child.buffer, ""
            else:
                text = self.child.read_nonblocking(4096, timeout=timeout)
        except pexpect.TIMEOUT:
            raise SimhTimeout(f"no output from the PDP-1 for {timeout:.0f} s", self.tail()) from None
        except pexpect.EOF:
            self.running = False
            raise SimhDied("the pdp1 process exited", self.tail()) from None
        self._record(text)
        window = self._carry + text  # a stop message may arrive split over two reads
        self._carry = window[-120:]
        stop = _STOP_RE.search(window)
        if stop:
            # what the program typed before the stop message is still output: keep it for the next read
            self._pending = text[: max(0, stop.start() - (len(window) - len(text)))]
            self.running = False
            if PROMPT not in window[stop.end():]:  # the prompt may have come in the same chunk
                try:
                    self._expect_prompt(2)
                except SimhError:
                    pass
            raise _STOP_CLASSES[stop.group(1)](stop.group(1), int(stop.group(2), 8) if stop.group(2) else None,
                                               self.tail())
        return text

    def discard_output(self) -> None:
        """Forget output not yet read (kept or buffered): what came before is of no interest."""
        self._pending = ""
        self.child.buffer = ""

    def drain(self, seconds: float = 0.05) -> str:
        """Collect whatever output arrives within ``seconds`` (for live display)."""
        got = []
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                if self.child.buffer:
                    chunk, self.child.buffer = self.child.buffer, ""
                else:
                    chunk = self.child.read_nonblocking(4096, timeout=left)
            except pexpect.TIMEOUT:
                break
            except pexpect.EOF:
                self.running = False
                raise SimhDied("the pdp1 process exited", self.tail())
            got.append(chunk)
        text = "".join(got)
        self._record(text)
        return text


def live_simulators() -> Iterator[Simh]:
    """The simulators this process has open (tests check none is left behind)."""
    return iter(list(_live))
