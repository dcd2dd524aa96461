"""One build path: ``make build`` assembles each tape from the sources ``kalah_program`` builds it from,
in the same order, because both read ``machine.tapes`` (the Makefile before the venv exists)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from python_bridge.machine.kalah_program import PROGRAMS, ROOT


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_the_makefile_assembles_each_tape_from_kalah_programs_sources(program, tmp_path: Path) -> None:
    target = f"{tmp_path}/{program.name}.rim"
    dry = subprocess.run(["make", "--no-print-directory", "-n", "-B", f"BUILD={tmp_path}", target],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    (command,) = [line for line in dry.stdout.splitlines() if "-m tools.macro" in line]
    named = [word for word in command.split() if word.endswith(".mac")]
    assert named == [str(path.relative_to(ROOT)) for path in program.source_paths()]


def test_the_list_answers_with_the_standard_library_alone() -> None:
    """``python3`` without the venv (``-I``: no site packages, no user folder) prints the list."""
    done = subprocess.run(["python3", "-I", "python_bridge/machine/tapes.py", "prove"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.split()[0] == "pdp1_src/prove.mac"
    bad = subprocess.run(["python3", "-I", "python_bridge/machine/tapes.py", "kalha"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("usage: ")
