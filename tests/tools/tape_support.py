"""Run the real tools the paper-tape tests compare against: Debian's macro1 and SIMH pdp1.

Both run as subprocesses with a timeout (subprocess.run kills and reaps the child when
it expires); SIMH reads a script file that always ends with ``quit``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

MACRO1 = "/usr/bin/macro1"
PDP1 = "/usr/bin/pdp1"
TIMEOUT = 30

_EXAMINE_LINE = re.compile(r"^([0-7]+):\s+([0-7]+)\s*$")
_PC_LINE = re.compile(r"^PC:\s+([0-7]+)\s*$")


def assemble(source: str, workdir: Path, name: str = "prog", *, rim: bool = False) -> Path:
    """Assemble ``source`` with the real macro1; return the path of the tape it punched."""
    (workdir / f"{name}.mac").write_text(source)
    args = [MACRO1, "-r", f"{name}.mac"] if rim else [MACRO1, f"{name}.mac"]
    result = subprocess.run(args, cwd=workdir, capture_output=True, text=True,
                            timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, f"macro1 failed: {result.stderr}"
    return workdir / f"{name}.rim"


def run_simh(tape: Path, load_commands: list[str]) -> tuple[dict[int, int], int, str]:
    """Load ``tape`` into a 4K PDP-1 with ``load_commands`` ({TAPE} is replaced by the
    tape's path); return all of memory, the PC and SIMH's output."""
    script = tape.with_suffix(".sim")
    commands = ["set cpu 4k", *(c.replace("{TAPE}", str(tape)) for c in load_commands),
                "examine 0-7777", "examine pc", "quit"]
    script.write_text("\n".join(commands) + "\n")
    result = subprocess.run([PDP1, str(script)], cwd=tape.parent, capture_output=True,
                            text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    memory: dict[int, int] = {}
    pc = -1
    for line in result.stdout.splitlines():
        if match := _EXAMINE_LINE.match(line):
            memory[int(match[1], 8)] = int(match[2], 8)
        elif match := _PC_LINE.match(line):
            pc = int(match[1], 8)
    assert len(memory) == 0o10000, f"SIMH did not show all memory:\n{result.stdout}"
    return memory, pc, result.stdout
