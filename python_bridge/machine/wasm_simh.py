"""The SIMH wrapper's second transport: SIMH's pdp1 compiled to WebAssembly (``make web``), run in slices.

``WasmSimh`` has ``Simh``'s public API (the shared commands are ``simh_console``'s, the reading of
output and stops ``simh_output``'s), so a program, a test or the game driver uses either machine
alike.  The difference is who runs the machine: a ``pdp1`` process runs on its own while Python
reads its pty; this one runs only when asked, a slice of at most ``slice`` instructions at a time
(each ``expect`` or ``read_some`` runs slices until what it waits for comes, the machine stops, or
its time is up), and keys typed between slices wait for the typewriter's next keyboard poll.  So
nothing runs while nobody waits for it (a browser page idle while its visitor thinks), and
``suspend`` and ``gone_on`` have nothing to do.  It reaches the machine through a ``Port``
(``wasm_port``): node beside Python now, Pyodide in a browser's Worker later.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from .simh_console import ConsoleCommands
from .simh_errors import STOP_RE, SimhError, UntypableKeys, untypable
from .simh_process import FULL_SPEED, PROMPT, MachineConfig
from .wasm_port import NodePort, Port

SLICE = 200_000  # instructions a slice: about 4 ms of node's time, so a key waits at most that long
COMMAND_BUDGET = 2_000_000_000  # a run given to ``command`` (native: until it stops) ends after these at most


class WasmSimh(ConsoleCommands):
    """One WebAssembly PDP-1.  Use as a context manager, or call ``close()``."""

    messages_split = False  # a slice's output comes with its stop message, whole

    def __init__(self, config: MachineConfig = FULL_SPEED, *, timeout: float = 10.0, port: Port | None = None,
                 slice_instructions: int = SLICE) -> None:
        super().__init__()
        self.config = config
        self.timeout = timeout
        self.running = False
        self.suspended = False
        self.slice = slice_instructions
        self.pc: int | None = None  # where the last command or slice left the PC
        self._stopped = False  # the machine stopped by itself: its message is in the output, nothing follows
        self._files = 0
        self.port = port if port is not None else NodePort()
        try:
            for cmd in config.commands():
                if cmd.startswith("set throttle"):  # nothing runs unasked: a slower machine would only be later
                    continue
                answer = self.command(cmd)
                if answer:
                    raise SimhError(f"SIMH refused {cmd!r}: {answer}", self.tail())
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """End the machine (its node process), whatever state it is in; remove its tapes."""
        self.running = False
        self.port.close()
        self._remove_tapes()

    def kill(self) -> None:
        """End the machine at once, as a lost emulator ends (tests of recovery)."""
        self.port.kill()

    def __enter__(self) -> "WasmSimh":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what a process-backed machine needs and this one does not -----------------------
    @property
    def alive(self) -> bool:
        return self.port.alive

    def suspend(self) -> None:
        """Nothing runs between calls: there is nothing to put to sleep."""

    def wake(self) -> None:
        """Nothing was put to sleep."""

    def gone_on(self) -> bool:
        """A key typed now is never lost: it waits for the next keyboard poll."""
        return self.running

    def wait_gone_on(self, until: float) -> None:
        """Nothing to wait for (``gone_on``)."""

    # -- the console ------------------------------------------------------------------------
    def _run(self, line: str, budget: int) -> str:
        """One command line to the machine; its output, a stop's message included (in the transcript too)."""
        answer = self.port.command(line, budget)
        self.pc = answer.pc
        self._stopped = self._stopped or bool(answer.stop)
        text = answer.output + answer.stop
        self._record(f"{PROMPT}{line}\n{text}" if not self.running else text)
        return text

    def command(self, cmd: str, timeout: float | None = None) -> str:
        """Run a SIMH command at the (stopped) machine's console and return what it printed."""
        if self.running:
            raise SimhError(f"cannot run {cmd!r} while the machine runs: stop it first", self.tail())
        out = self._run(cmd, COMMAND_BUDGET)
        self._note_breakpoints(cmd)
        return out.replace("\r", "").strip("\n")

    def _start(self, cmd: str) -> None:
        """Give ``cmd``; it runs one instruction at once (so SIMH's refusal shows here), then slices follow."""
        if self.running:
            raise SimhError("the machine is already running", self.tail())
        self._stopped = False
        self.running = True
        answer = self.port.command(cmd, 1)
        self.pc = answer.pc
        if answer.status and not answer.stop:
            self.running = False
            raise SimhError(f"{cmd}: {answer.output.strip()}", self.tail())
        self._stopped = bool(answer.stop)
        text = answer.output + answer.stop
        self._record(f"{PROMPT}{cmd}\n{text}")
        self._unread += text

    def _read_more(self, timeout: float) -> bool:
        """Run slices until the machine types something or stops; False when ``timeout`` passes first."""
        if not self.running or self._stopped:
            return False
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            text = self._run("cont", self.slice)
            if text:
                self._unread += text
                return True
            if time.monotonic() >= deadline:
                return False

    def _tape_path(self, tape: str | os.PathLike[str]) -> str:
        """The tape copied into the machine's own file system (it has no other): its path there."""
        return self._mount(Path(tape).read_bytes())

    def _mount(self, tape: bytes) -> str:
        """The tape as a file in the machine's own file system; its path there."""
        self._files += 1
        path = f"/tape{self._files}.rim"
        self.port.write_file(path, tape)
        return path

    def stop(self) -> int | None:
        """Stop the machine between slices and return its PC (a stop it made itself meanwhile raises)."""
        if not self.running:
            return None
        stop = STOP_RE.search(self._unread)
        if stop:
            raise self._take_stop(stop)
        self.running = False
        return self.pc

    def step(self, instructions: int, timeout: float | None = None) -> tuple[str, int | None]:
        """Run exactly ``instructions`` instructions of the stopped machine, as ``Simh.step``."""
        if self.running:
            raise SimhError("step needs a stopped machine: stop it first", self.tail())
        if instructions < 1:
            raise ValueError(f"step needs a positive number of instructions, not {instructions}")
        return self._stepped(f"step {instructions}", self._run(f"step {instructions}", 0))

    def listing(self, command: str, timeout: float) -> bytes:
        """A (long) answer to ``command``, as bytes, kept out of the transcript (``Simh.listing``: a
        history of 65,536 instructions for counting cycles)."""
        if self.running:
            raise SimhError(f"cannot run {command!r} while the machine runs: stop it first", self.tail())
        return self.port.command(command, 0).output.encode("latin-1")

    def type(self, keys: str) -> None:
        """Type on the console typewriter: the keys wait for the keyboard's polls, one a poll."""
        bad = untypable(keys)
        if bad:
            raise UntypableKeys(bad)
        if not self.running:
            raise SimhError("typing while the machine is stopped would be lost", self.tail())
        self.port.keys(keys)
