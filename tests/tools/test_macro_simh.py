"""Every kind of tape tools.macro writes loads into SIMH's PDP-1 and runs.

Why: byte-identity with macro1 is checked elsewhere; this checks the other end, that
the tapes are real PDP-1 tapes.  The block-loader tape is loaded both ways SIMH
offers: its fast ``load -b`` (which reads the RIM part and then the blocks itself) and
a genuine read-in, ``attach ptr`` + ``boot ptr``, where the PDP-1 executes the tape's
RIM words, runs macro1's block loader and jumps to the program.  The pure RIM tape
(``-r``) is loaded with ``load`` and by read-in.  The program exercises literals,
variables, text, a macro with arguments and a label, repeat, and leaves results in
memory; after its ``hlt`` the test examines memory and compares every word with
what the assembler says it assembled.

SIMH runs from a script file that ends in ``quit``, under a timeout (which kills it),
with ``set cpu 4k``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tools.macro import Program, assemble

PDP1 = "/usr/bin/pdp1"

SOURCE = """\
simh load test
define\tsetw a,b
\tlaw a
\tdac b
terminate
define\tbump c
loop,\tidx c
terminate
100/
go,\tsetw 12,cnt
\tlac (-5
\tadd (777770
\tdac neg
\tlac msg
\tdac first
\tdzm acc\\
sum,\tlac acc\\
\tadd cnt
\tdac acc\\
\tisp cnt+1
\tjmp sum
\tbump twice
\tbump twice
\trepeat 3, idx rep
\tlac acc\\
\tdac total
\thlt
cnt,\t0
\t-3
neg,\t0
first,\t0
twice,\t0
rep,\t0
total,\t0
msg,\ttext /Kalah!/
\tconstants
\tvariables
\tstart go
"""

# what the program leaves behind: 3 x 10 = 30 (octal 36), -5 + -7 = -12 (777763)
RESULTS = {"neg": 0o777763, "twice": 2, "rep": 3, "total": 0o36, "cnt": 0o12}


@pytest.fixture(scope="module")
def programs() -> dict[str, Program]:
    block = assemble(SOURCE)
    rim = assemble(SOURCE, rim=True)
    assert block.ok and rim.ok, block.messages
    return {"block": block, "rim": rim}


def run_simh(folder: Path, tape: bytes, load: list[str], examine: str) -> str:
    """Run SIMH on ``tape`` with the given load commands; return its output."""
    (folder / "t.rim").write_bytes(tape)
    script = ["set cpu 4k", *load, f"examine {examine}", "quit"]
    (folder / "t.ini").write_text("\n".join(script) + "\n")
    done = subprocess.run([PDP1, "t.ini"], cwd=folder, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    return done.stdout.decode("latin-1")


def memory(output: str) -> dict[int, int]:
    return {int(a, 8): int(v, 8) for a, v in re.findall(r"^(\d+):\s+(\d+)$", output, re.M)}


LOADS = {
    "load -b": ("block", ["load -b t.rim", "go"]),
    "read-in of the block tape": ("block", ["attach ptr t.rim", "boot ptr"]),
    "load of the RIM tape": ("rim", ["load t.rim", "go"]),
    "read-in of the RIM tape": ("rim", ["attach ptr t.rim", "boot ptr"]),
}


@pytest.mark.simh
@pytest.mark.parametrize("how", list(LOADS))
def test_tape_loads_and_runs(how: str, programs: dict[str, Program], tmp_path: Path) -> None:
    kind, load = LOADS[how]
    program = programs[kind]
    output = run_simh(tmp_path, program.tape or b"", load, "100-177")
    assert "HALT instruction, PC: 000%o" % (program.symbols["cnt"]) in output, output
    image = memory(output)
    for name, value in RESULTS.items():
        assert image[program.symbols[name]] == value, name
    changed = {program.symbols[name] for name in [*RESULTS, "acc", "first"]}
    changed.add(program.symbols["cnt"] + 1)
    for address, word in program.words.items():
        if address not in changed:
            assert image[address] == word, oct(address)
    assert image[program.symbols["first"]] == program.words[program.symbols["msg"]]


@pytest.mark.simh
def test_block_loader_lands_at_7751(programs: dict[str, Program], tmp_path: Path) -> None:
    """Read-in leaves macro1's loader in 7751-7775, exactly as the tape carries it."""
    from tools.papertape import MACRO1_LOADER as BLOCK_LOADER

    output = run_simh(tmp_path, programs["block"].tape or b"",
                      ["attach ptr t.rim", "boot ptr"], "7751-7775")
    image = memory(output)
    assert [image[0o7751 + i] for i in range(len(BLOCK_LOADER))][:7] == list(BLOCK_LOADER)[:7]
    assert [image[0o7751 + i] for i in range(8, len(BLOCK_LOADER))] == list(BLOCK_LOADER)[8:]


@pytest.mark.simh
def test_long_program_crosses_many_blocks(tmp_path: Path) -> None:
    """Several 64-word blocks, an origin change and a block split at a 100 boundary."""
    lines = ["blocks", "70/"] + ["\t%o" % (i * 7 + 1) for i in range(300)]
    lines += ["2000/", "go,\thlt"] + ["\t%o" % (0o777000 + i) for i in range(70)] + ["\tstart go"]
    program = assemble("\n".join(lines) + "\n")
    assert program.ok
    for load in (["load -b t.rim", "go"], ["attach ptr t.rim", "boot ptr"]):
        output = run_simh(tmp_path, program.tape or b"", load, "0-2200")
        image = memory(output)
        assert {a: image[a] for a in program.words} == program.words
