"""The console's commands that any transport of the PDP-1 answers alike: the public API shared by ``Simh``
(Debian's ``pdp1`` on a pty) and ``WasmSimh`` (SIMH as WebAssembly, run in slices).

Why a module of its own: deposit, examine, breakpoints, switches, reading tapes in and waiting for a
halt are said the same way to either machine, through ``command`` and ``_start``; only how a command
reaches SIMH and how its output comes back differs, and that is each transport's.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from .simh_errors import STEP_RE, STOP_CLASSES, STOP_RE, AssemblyFailed, MachineHalted, MachineStopped, SimhError
from .simh_output import NEVER, ConsoleOutput

if TYPE_CHECKING:
    from tools.macro import Program

_BREAK_CMD = re.compile(r"\s*(no)?break(?:\s+(\S+))?\s*$", re.IGNORECASE)


class ConsoleCommands(ConsoleOutput):
    """The shared commands; a transport gives ``command``, ``_start`` and ``_tape_path``."""

    _tape_dir: tempfile.TemporaryDirectory[str] | None = None  # tapes given as bytes or source
    _tapes = 0

    def command(self, cmd: str, timeout: float | None = None) -> str:
        """Run a SIMH command at the ``sim>`` prompt and return what it printed."""
        raise NotImplementedError

    def _start(self, cmd: str) -> None:
        """Give ``cmd`` (``boot ptr``, ``run 100``, ``cont``): the machine runs when this returns."""
        raise NotImplementedError

    def _tape_path(self, tape: str | os.PathLike[str]) -> str:
        """Where SIMH finds the tape file ``tape`` (on the host's disk, or in the machine's own file system)."""
        raise NotImplementedError

    def read_in(self, tape: str | os.PathLike[str]) -> None:
        """Hardware read-in: mount the tape on the reader and press READ IN (``boot ptr``).

        The tape's own loader runs and starts the program: the machine is
        running when this returns.
        """
        self.command(f"attach ptr {self._tape_path(tape)}")
        self._start("boot ptr")

    def load(self, tape: str | os.PathLike[str]) -> None:
        """SIMH's fast loader (``load -b``): the program is in core, not running."""
        out = self.command(f"load -b {self._tape_path(tape)}")
        if out:
            raise SimhError(f"load: {out}", self.tail())

    def _remove_tapes(self) -> None:
        """The tapes kept in files for ``read_in_tape`` and ``load_source``, removed (at ``close``)."""
        if self._tape_dir is not None:
            self._tape_dir.cleanup()
            self._tape_dir = None

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

    def _stepped(self, cmd: str, raw: str) -> tuple[str, int | None]:
        """A ``step``'s answer ``raw`` read, whichever transport gave it: what the program typed (after what was not
        yet read) and the PC where the step expired; the stop it met instead raised (``MachineStopped``)."""
        done = STEP_RE.search(raw)
        if done:
            earlier, self._unread = self._unread, ""  # output not yet read comes first
            return earlier + raw[:done.start()], int(done.group(1), 8) if done.group(1) else None
        stop = STOP_RE.search(raw)
        if stop:
            self._unread += raw[:stop.start()]
            raise STOP_CLASSES[stop.group(1)](stop.group(1), int(stop.group(2), 8) if stop.group(2) else None,
                                               self.tail())
        raise SimhError(f"{cmd}: unexpected answer {raw!r}", self.tail())

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



def _assemble(source: str | list[tuple[str, str]], name: str) -> "Program":
    from tools.macro import assemble  # the assembler is needed only by machines started from source

    program = assemble(source, name=name)
    if not program.ok or program.tape is None:
        raise AssemblyFailed(f"{name} does not assemble:\n{(program.fatal or program.messages).strip()}")
    return program
