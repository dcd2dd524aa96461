"""The ``pdp1`` process: started on a pty, registered, reaped on every way out, and dying with its owner.

Why a module of its own: a simulator that outlives its owner runs for weeks unseen (a kiosk, a
test run), so starting and ending the process is kept apart from what is said to it.  Every
``Simh`` is one of these; ``live_simulators`` lists the open ones (the tests check that none is
left behind).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import termios
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Self

from .simh_errors import SimhNotFound

if TYPE_CHECKING:  # pexpect is imported where a process is spawned or ended: a machine with no process (SIMH as
    import pexpect  # WebAssembly in a browser's Pyodide, which lacks the modules pexpect needs) never imports it

PDP1_BINARY = "/usr/bin/pdp1"
PROMPT = "sim> "
# SIMH time units (one an instruction) a second that stand for the 1960 machine's second where a device's
# time is set in them: the tape reader's frames, the typewriter's characters (a tto time of 20,000 at
# this rate is the real 10 characters a second)
PERIOD_RATE = 200_000
# The console typewriter's speed: the one figure every pace, caption and help line names (the PDP-1's
# Soroban-modified IBM typewriter types 10 characters a second)
TYPEWRITER_CHARACTERS_PER_SECOND = 10


@dataclass(frozen=True)
class MachineConfig:
    """How the simulated PDP-1 is set up before a tape is read in.

    ``throttle``: None for full speed, or SIMH's setting such as ``"2M"``
    (instructions a second).  It is no way to 1960 speed: SIMH 3.8.1
    calibrates it at full speed for the first few million instructions
    after every ``run``/``cont`` and lets the typewriter's waits pass in no
    host time, so 1960 pacing is done by stepping (see driver.pacing).  ``tto_time``: typewriter
    output time per character in instructions (20000 at 200K gives the real
    10 characters a second).  ``tti_time``: the keyboard poll interval in
    instructions; one key can arrive per poll.  Each poll is a read() of the
    host's terminal, so the interval sets the emulator's speed as much as the
    latency of a key: measured here, a poll every 100 instructions ran 80
    million instructions a second with half the host's time in the kernel,
    every 1,000 ran 147 million (every 5,000, SIMH's own default, 159).
    """

    memory_words: int = 4096
    multiply_divide: bool = False
    throttle: str | None = None
    tto_time: int = 10
    tti_time: int = 1_000  # the program takes a key in about 20 instructions: a 50x margin; 1 ms at 1M a second

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

_live: "weakref.WeakSet[SimhProcess]" = weakref.WeakSet()


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


class SimhProcess(Closing):
    """One ``pdp1`` process on a pty, ``-q`` (no banner): started, registered, and reaped by ``close``."""

    def __init__(self, *, timeout: float, binary: str, cwd: str | os.PathLike[str] | None) -> None:
        if not Path(binary).exists():
            raise SimhNotFound(f"{binary} is missing: run `make setup` (it installs Debian's simh package)")
        self.timeout = timeout
        self.running = False
        self.suspended = False  # SIGSTOPped by ``suspend``
        # Ctrl-C between the fork and ``_live.add`` would leave a pdp1 nobody closes: hold it until
        # the child is registered (``close`` and the exit handler then reap it whatever happens next).
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            self.child = self._spawn(binary, timeout, cwd)
            _live.add(self)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    @staticmethod
    def _spawn(binary: str, timeout: float, cwd: str | os.PathLike[str] | None) -> pexpect.spawn:
        """The ``pdp1`` child on a pty, 200 columns wide, keystrokes sent without pexpect's delay."""
        import pexpect

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

    def suspend(self) -> None:
        """SIGSTOP: the process takes no CPU at all, SIMH's state and the pty's input kept (a machine waiting
        for a key that will be long in coming).  Nothing may be asked of it until ``wake``."""
        if self.child.isalive() and not self.suspended:
            self.suspended = True  # (first: health, on another thread, must never see it stopped unannounced)
            os.kill(self.child.pid, signal.SIGSTOP)

    def gone_on(self) -> bool:
        """Whether SIMH runs the machine now, its terminal in run mode (not canonical).  SIMH sets that mode with
        TCSAFLUSH as it starts or continues, throwing away the keys not yet read: once it shows, that flush is
        over, and a key typed (or a SIGSTOP) can no longer be lost to it.  (The pty's master reads the mode.)"""
        try:
            return not termios.tcgetattr(self.child.child_fd)[3] & termios.ICANON
        except (OSError, termios.error):
            return False

    def wait_gone_on(self, until: float) -> None:
        """Wait until ``gone_on`` (a millisecond or so after a ``cont``), or at most until monotonic ``until``."""
        while not self.gone_on() and (left := until - time.monotonic()) > 0:
            time.sleep(min(left, 0.002))

    def awake(self) -> pexpect.spawn:
        """The child to speak to or read from, woken first if ``suspend`` had stopped it (every exchange with
        the simulator goes through here, so a machine put to sleep between exchanges never misses one)."""
        self.wake()
        return self.child

    def wake(self) -> None:
        """SIGCONT after ``suspend`` (nothing happens otherwise)."""
        if self.suspended:
            if self.child.isalive():
                os.kill(self.child.pid, signal.SIGCONT)
            self.suspended = False  # (after: as in ``suspend``, the flag covers every moment it is stopped)

    def close(self) -> None:
        """Stop the simulator and reap the process, whatever state it is in."""
        import pexpect

        self.wake()
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



def live_simulators() -> Iterator[SimhProcess]:
    """The simulators this process has open (tests check none is left behind)."""
    return iter(list(_live))
