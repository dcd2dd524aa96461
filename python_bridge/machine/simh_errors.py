"""What goes wrong with a simulated PDP-1, as exceptions: the simulator's own failures, and each way
the machine can stop, read from the message SIMH prints.

Why a module of its own: every reader of the console (``simh_output``), the console commands
(``simh``) and the programs built on them catch these; the one table of SIMH's stop messages
(``STOP_CLASSES``) turns a message into its exception.
"""

from __future__ import annotations

import re

from tools.fiodec import keyboard


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
STEP_RE = re.compile(r"\r?\nStep expired(?:, PC: ([0-7]+))?[^\r\n]*\r?\n$")


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
STOP_CLASSES: dict[str, type[MachineStopped]] = {
    "HALT instruction": MachineHalted,
    "Undefined instruction": UndefinedInstruction,
    "Infinite I/O wait state": IoWaitStopped,
    "Breakpoint": BreakpointReached,
    "Simulation stopped": MachineStopped,
}
STOP_WORDS = tuple(STOP_CLASSES)
STOP_RE = re.compile(
    r"(?:\r?\n)?(" + "|".join(map(re.escape, STOP_WORDS)) + r")(?:, PC: ([0-7]+))?[^\r\n]*\r?\n"
)


class AssemblyFailed(SimhError):
    """MACRO source given to ``read_in_source``/``load_source`` did not assemble; the message is macro1's."""
