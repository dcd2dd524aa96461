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
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .simh_errors import SimhDied, SimhError, SimhNotFound
from .simh_process import _die_with_parent

ROOT = Path(__file__).resolve().parents[2]
WEB_MODULE = ROOT / "build" / "web" / "pdp1.js"  # what make web builds
NODE_BRIDGE = ROOT / "web" / "node_machine.mjs"
NODE = "/usr/bin/node"


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

    def close(self) -> None: ...


class NodePort:
    """A machine in a node process of its own (web/node_machine.mjs), which dies with its owner."""

    def __init__(self, module: Path = WEB_MODULE, node: str = NODE) -> None:
        for needed, how in ((Path(node), "install Debian's nodejs"), (module, "run `make web`")):
            if not needed.exists():
                raise SimhNotFound(f"{needed} is missing: {how}")
        self._errors = tempfile.TemporaryFile()  # what node says on stderr, shown if it dies
        self.process = subprocess.Popen(
            [node, str(NODE_BRIDGE), str(module)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._errors, encoding="utf-8", preexec_fn=_die_with_parent)

    def _ask(self, request: dict[str, object]) -> dict[str, object]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            line = stdout.readline()
        except (OSError, ValueError):
            line = ""
        if not line:
            self._errors.seek(0)
            said = self._errors.read().decode("utf-8", "replace")[-2000:]
            raise SimhDied("the WebAssembly machine's node process exited", said)
        reply = json.loads(line)
        if not reply.get("ok"):
            raise SimhError(f"the WebAssembly machine refused {request.get('op')}: {reply.get('error')}")
        return reply

    def write_file(self, path: str, data: bytes) -> None:
        self._ask({"op": "file", "path": path, "data": base64.b64encode(data).decode("ascii")})

    def command(self, line: str, budget: int) -> Answer:
        reply = self._ask({"op": "command", "line": line, "budget": budget})
        return Answer(str(reply["output"]), str(reply["stop"]), bool(reply["spent"]), int(reply["status"]),
                      int(reply["pc"]))

    def keys(self, text: str) -> int:
        return int(self._ask({"op": "keys", "text": text})["waiting"])

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
