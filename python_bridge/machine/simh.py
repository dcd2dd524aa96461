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

import os
import select
import time
from pathlib import Path

from .simh_console import ConsoleCommands
from .simh_errors import (
    AssemblyFailed,
    BreakpointReached,
    IoWaitStopped,
    MachineHalted,
    MachineStopped,
    SimhDied,
    SimhError,
    SimhNotFound,
    SimhTimeout,
    UndefinedInstruction,
    UntypableKeys,
    untypable,
)
from .simh_output import NEVER, STOP_MESSAGE_GRACE, TAIL_CHARS, SimhOutput
from .simh_process import (
    FULL_SPEED,
    IDLE_SPEED,
    PDP1_BINARY,
    PERIOD_RATE,
    PROMPT,
    QUIET_SPEED,
    TYPEWRITER_CHARACTERS_PER_SECOND,
    Closing,
    MachineConfig,
    live_simulators,
)

__all__ = ["AssemblyFailed", "BreakpointReached", "Closing", "FULL_SPEED", "IDLE_SPEED", "IoWaitStopped",
           "MachineConfig", "MachineHalted", "MachineStopped", "NEVER", "PDP1_BINARY", "PERIOD_RATE", "PROMPT",
           "TYPEWRITER_CHARACTERS_PER_SECOND",
           "QUIET_SPEED",
           "STOP_MESSAGE_GRACE", "Simh", "SimhDied", "SimhError", "SimhNotFound", "SimhTimeout", "TAIL_CHARS",
           "UndefinedInstruction", "UntypableKeys", "live_simulators", "untypable"]

STOP_RETRY = 0.5  # seconds to wait for a ^E to stop the machine before sending another
GONE_ON_WAIT = 0.2  # at most this long a key waits for SIMH to have gone on (``gone_on``: a millisecond, as a rule)


class Simh(ConsoleCommands, SimhOutput):
    """One running ``pdp1`` process.  Use as a context manager, or call ``close()``."""

    def __init__(
        self,
        config: MachineConfig = FULL_SPEED,
        *,
        timeout: float = 10.0,
        binary: str = PDP1_BINARY,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        self.config = config
        SimhOutput.__init__(self, timeout=timeout, binary=binary, cwd=cwd)
        try:
            self._expect_prompt(timeout)
            for cmd in config.commands():
                answer = self.command(cmd)
                if answer:  # these commands answer nothing unless SIMH refuses them
                    raise SimhError(f"SIMH refused {cmd!r}: {answer}", self.tail())
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop the simulator and reap the process, whatever state it is in; remove its tapes."""
        super().close()
        self._remove_tapes()

    # -- the console --------------------------------------------------------------------
    def command(self, cmd: str, timeout: float | None = None) -> str:
        """Run a SIMH command at the ``sim>`` prompt and return what it printed."""
        if self.running:
            raise SimhError(f"cannot run {cmd!r} while the machine runs: stop it first", self.tail())
        pending, self._unread = self._unread, ""  # program output not yet read stays unread
        try:
            self.awake().send(cmd + "\r")
            out = self._expect_prompt(self.timeout if timeout is None else timeout)
        finally:
            self._unread = pending + self._unread
        self._note_breakpoints(cmd)
        out = out.replace("\r", "")
        first, _, rest = out.partition("\n")
        if first.strip() != cmd.strip():
            rest = out
        return rest.strip("\n")

    # -- running -------------------------------------------------------------------------
    def _tape_path(self, tape: str | os.PathLike[str]) -> str:
        return str(Path(tape).resolve())

    def _start(self, cmd: str) -> None:
        if self.running:
            raise SimhError("the machine is already running", self.tail())
        pending, self._unread = self._unread, ""  # program output not yet read stays unread
        self.awake().send(cmd + "\r")
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
            self.awake().sendcontrol("e")
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
            self.awake().send(cmd + "\r")
            raw = self._expect_prompt(self.timeout if timeout is None else timeout)
        finally:
            self._unread = pending + self._unread
        echo = raw.find(cmd + "\r\n")  # the echo of the command line (after the prompt's space)
        if echo >= 0 and not raw[:echo].strip():
            raw = raw[echo + len(cmd) + 2:]
        return self._stepped(cmd, raw)

    def listing(self, command: str, timeout: float) -> bytes:
        """Run ``command`` at the ``sim>`` prompt and return its (long) answer, as bytes.

        Why not ``command``: a history of 65,536 lines is 3.5 MB of text, the
        general reader rescans what it holds at every read, and pexpect decodes
        it in small pieces.  This one reads the pty itself in large blocks,
        undecoded, and looks only at the end for the prompt; the listing is not
        copied into the transcript.  (Counting at 1960 speed on a busy host
        depends on it: the listing is most of a slice's cost.)
        """
        child = self.awake()
        child.send(command + "\r")
        fd = child.child_fd
        parts: list[bytes] = []
        tail = b""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SimhTimeout(f"no answer to {command!r} in time", self.tail())
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError:  # EIO: the pty's other end is gone
                chunk = b""
            if not chunk:
                self.running = False
                raise SimhDied("the pdp1 process exited", self.tail())
            parts.append(chunk)
            tail = (tail + chunk)[-16:]
            if tail.endswith(b"sim> "):
                return b"".join(parts)[:-len(b"sim> ")]

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
        child = self.awake()
        # a key typed before SIMH has gone on (straight after a run or cont) is thrown away by its flush
        self.wait_gone_on(time.monotonic() + GONE_ON_WAIT)
        try:
            child.send(keys)
        except OSError as failure:
            self.running = False
            raise SimhDied(f"the pdp1 process cannot be typed to: {failure}", self.tail()) from None
