"""The WebAssembly PDP-1's port: how Python reaches SIMH compiled by ``make web`` (build/web/pdp1.js).

Why a port: ``WasmSimh`` speaks to the machine in four calls (put a file in its file system, run one
SIMH command line within an instruction budget, type keys, close), and these reach the same
``web/machine.mjs`` whether it runs under node beside Python (``NodePort``: one node process a
machine, lines of JSON through ``web/node_machine.mjs``) or, later, in a browser's Worker next to
Pyodide (a port of its own there, calling machine.mjs directly).
"""

from __future__ import annotations

import base64
import json
import os
import select
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .simh_errors import SimhDied, SimhError, SimhNotFound, SimhTimeout
from .simh_process import _die_with_parent

ROOT = Path(__file__).resolve().parents[2]
WEB_FOLDER = ROOT / "build" / "web"  # what make web writes: the browser edition's folder, its emulator in it
WEB_MODULE = WEB_FOLDER / "pdp1.js"
# the Worker's own modules, copied from web/ to the folder's top by make web (and served there by the online server)
WEB_SCRIPTS = ("worker.mjs", "python_start.mjs", "machine.mjs")
NODE_BRIDGE = ROOT / "web" / "node_machine.mjs"
NODE = "/usr/bin/node"
ANSWER_TIMEOUT = 120.0  # seconds for one answer: the longest run a command may ask for (2e9 instructions) and then some


@dataclass(frozen=True)
class Answer:
    """What one command line gave: its output (the typewriter's, for a run), the message SIMH printed
    when a run stopped by itself (empty if it did not, or its budget ended it: then ``spent``), SIMH's
    status (0 when it took the command) and the PC."""

    output: str
    stop: str
    spent: bool
    status: int
    pc: int


class Port(Protocol):
    """One WebAssembly PDP-1, reached from Python."""

    def write_file(self, path: str, data: bytes) -> None: ...

    def command(self, line: str, budget: int) -> Answer: ...

    def keys(self, text: str) -> int: ...

    @property
    def alive(self) -> bool: ...

    def kill(self) -> None: ...

    def close(self) -> None: ...


class NodePort:
    """A machine in a node process of its own (web/node_machine.mjs), which dies with its owner."""

    def __init__(self, module: Path = WEB_MODULE, node: str = NODE, timeout: float = ANSWER_TIMEOUT) -> None:
        for needed, how in ((Path(node), "install Debian's nodejs"), (module, "run `make web`")):
            if not needed.exists():
                raise SimhNotFound(f"{needed} is missing: {how}")
        self.timeout = timeout
        self._errors = tempfile.TemporaryFile()  # what node says on stderr, shown if it dies
        self._pending = b""  # read from node beyond the last answer's line
        self.process = subprocess.Popen(
            [node, str(NODE_BRIDGE), str(module)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._errors, preexec_fn=_die_with_parent)

    def _ask(self, request: dict[str, object]) -> dict[str, object]:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            stdin.flush()
        except (OSError, ValueError):
            pass  # a node gone: said below, with what it printed
        reply = json.loads(self._answer_line())
        if not reply.get("ok"):
            raise SimhError(f"the WebAssembly machine refused {request.get('op')}: {reply.get('error')}")
        return reply

    def _answer_line(self) -> bytes:
        """The next line node answers; a node that dies or stays silent past ``timeout`` is ended and raises."""
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0:
                self.process.kill()
                raise SimhTimeout(f"the WebAssembly machine gave no answer in {self.timeout:.0f} s")
            ready, _, _ = select.select([stdout], [], [], left)
            chunk = os.read(stdout.fileno(), 1 << 20) if ready else None
            if chunk == b"":
                self._errors.seek(0)
                said = self._errors.read().decode("utf-8", "replace")[-2000:]
                raise SimhDied("the WebAssembly machine's node process exited", said)
            self._pending += chunk or b""
        line, _, self._pending = self._pending.partition(b"\n")
        return line

    def write_file(self, path: str, data: bytes) -> None:
        self._ask({"op": "file", "path": path, "data": base64.b64encode(data).decode("ascii")})

    def command(self, line: str, budget: int) -> Answer:
        reply = self._ask({"op": "command", "line": line, "budget": budget})
        return Answer(str(reply["output"]), str(reply["stop"]), bool(reply["spent"]), int(reply["status"]),
                      int(reply["pc"]))

    def keys(self, text: str) -> int:
        return int(self._ask({"op": "keys", "text": text})["waiting"])

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """End the machine at once (tests of the driver's recovery); the next call raises SimhDied."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def close(self) -> None:
        """End the node process (end of its input, then a kill if it lingers) and reap it."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.close()
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._errors.close()
