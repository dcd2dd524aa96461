"""The WebAssembly PDP-1's port inside a browser's Worker: ``machine.wasm_port.Port`` over web/machine.mjs's
``Machine``, called directly from Pyodide.

Why a port of its own: under node (the tests) Python reaches the machine through a process and lines of
JSON; in the Worker the machine is a JavaScript object in the same thread as Python, and each call is a
plain function call.  ``WasmSimh`` is the same either way.
"""

from __future__ import annotations

from ..machine.wasm_port import Answer


class PyodidePort:
    """One machine made by the Worker (``kalah_page.new_machine()``: a ``Machine`` of web/machine.mjs)."""

    def __init__(self, machine: object) -> None:
        self.machine = machine

    def write_file(self, path: str, data: bytes) -> None:
        from pyodide.ffi import to_js  # (Pyodide's own module: there only)

        self.machine.writeFile(path, to_js(data))  # type: ignore[attr-defined]

    def command(self, line: str, budget: int) -> Answer:
        a = self.machine.command(line, budget)  # type: ignore[attr-defined]
        return Answer(str(a.output), str(a.stop), bool(a.spent), int(a.status), int(a.pc))

    def keys(self, text: str) -> int:
        return int(self.machine.keys(text))  # type: ignore[attr-defined]

    @property
    def alive(self) -> bool:
        """A machine in the Worker's own memory lives until it is let go (``kill``, ``close``)."""
        return self.machine is not None

    def kill(self) -> None:
        """The machine let go, as a process is killed: the driver replaces it and restores the game."""
        self.machine = None

    def close(self) -> None:
        """The machine's memory goes with its last reference: nothing runs between calls."""
        self.machine = None
