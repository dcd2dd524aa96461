"""The two tapes (the game, the analysis): the project's assembler and macro1 agree, and each fits a 1960 PDP-1."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from python_bridge.machine.kalah_program import GAME, PROGRAMS, ROOT, Program, source_paths
from tools.macro import assemble

LOADER_START = 0o7751


def _assemble_with_macro1(workdir: Path, program: Program = GAME) -> tuple[bytes, str]:
    """macro1 writes its outputs beside the first source, so it works on copies."""
    names = []
    for path in source_paths(program):
        (workdir / path.name).write_bytes(path.read_bytes())
        names.append(path.name)
    result = subprocess.run(["/usr/bin/macro1", *names], cwd=workdir, capture_output=True,
                            timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr.decode()
    return (workdir / f"{program.name}.rim").read_bytes(), (workdir / f"{program.name}.lst").read_text("latin-1")


def _python_program(program: Program = GAME):
    return assemble([(str(p.relative_to(ROOT)), p.read_bytes()) for p in source_paths(program)])


each_tape = pytest.mark.parametrize("tape", PROGRAMS, ids=lambda p: p.name)


@each_tape
def test_tools_macro_and_macro1_punch_the_same_tape(tmp_path: Path, tape: Program) -> None:
    # the listing names no files, but error messages would: give both the same names
    program = assemble([(p.name, p.read_bytes()) for p in source_paths(tape)])
    assert program.ok, program.messages
    punched, listing = _assemble_with_macro1(tmp_path, tape)
    assert program.tape == punched
    if program.listing != listing:  # macro1's listing is not always repeatable (docs/tools.md)
        (tmp_path / "again").mkdir()
        listing = _assemble_with_macro1(tmp_path / "again", tape)[1]
    assert program.listing == listing


@each_tape
def test_the_program_fits_below_the_read_in_loader(tape: Program) -> None:
    program = _python_program(tape)
    assert program.ok, program.messages
    assert max(program.words) < LOADER_START
    assert program.symbols["cend"] <= LOADER_START  # the buffers too
    assert program.start == program.symbols["go"]


@each_tape
def test_period_style_labels_and_no_multiply_divide(tape: Program) -> None:
    program = _python_program(tape)
    assert all(len(name) <= 6 for name in program.symbols), [n for n in program.symbols if len(n) > 6]
    for path in source_paths(tape):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("/", 1)[0] if not line.startswith("/") else ""
            assert not re.search(r"\b(mul|div|mus|dis)\b", code), f"{path.name}:{number}: {line}"


def test_the_default_level_budget_is_the_reference_budget() -> None:
    """The word nbudg as the tape loads it and the reference's NODE_BUDGET are one number, written twice."""
    from python_bridge.reference.search import NODE_BUDGET

    program = _python_program()
    assert program.words[program.symbols["nbudg"]] == NODE_BUDGET


def _routines() -> Iterator[tuple[str, str]]:
    """Each routine (a label whose first instruction saves the return, dap, possibly after a jda
    argument word): where it is and its line, and the comment block just above it (blank lines
    between them allowed), as one text."""
    for path in sorted({path for tape in PROGRAMS for path in source_paths(tape)}):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^(\w+),\t(dap|0)\b", line)
            if not m or (m.group(2) == "0" and "dap" not in (lines[i + 1] if i + 1 < len(lines) else "")):
                continue
            above = i - 1
            while above >= 0 and not lines[above].strip():
                above -= 1
            block = []
            while above >= 0 and lines[above].startswith("/"):
                block.insert(0, lines[above])
                above -= 1
            yield f"{path.name}:{i + 1}: {line}", " ".join(block)


def test_every_routine_has_a_comment() -> None:
    """A routine must have a comment just above it: the source is an exhibit."""
    missing = [where for where, comment in _routines() if not comment]
    assert not missing, missing


def test_every_routine_states_its_cost_in_cycles() -> None:
    """Beside its contract a routine's comment gives its cost in memory cycles, read off its code
    (costs measured over many positions belong in docs/figures.md, not in the source)."""
    missing = [where for where, comment in _routines() if "cycle" not in comment]
    assert not missing, missing


def test_the_figures_page_gives_the_core_used_as_measured() -> None:
    """One figure, measured: docs/figures.md's core sizes (make figures, from bench) are the program's."""
    from python_bridge.bench.figures import core_figures

    used, top = core_figures()
    with_buffers = top - 0o100
    page = (ROOT / "docs" / "figures.md").read_text()
    figures = re.search(r"core: program and data (\d+) words, with the buffers, the search's "
                        r"frames and its best-move table (\d+) words", page)
    assert figures and [int(n) for n in figures.groups()] == [used, with_buffers], "make figures: the page is stale"
