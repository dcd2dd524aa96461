"""Differential tests: ``python -m tools.macro`` must behave exactly like Debian's macro1.

Why: the project's tapes must be byte-identical to what the period-faithful C assembler
(``/usr/bin/macro1`` from simh 3.8.1) punches, and its listings and messages are what a
programmer reads.  The corpus in ``tests/tools/asm_corpus`` exercises every feature and corner
of the macro1 dialect (one ``.mac`` per topic, plus option variants, multi-file sources
and command-line errors listed in ``cases.toml``).  Expectations are never written by
hand: each case runs the real macro1 and the Python tool in separate temporary folders
and compares exit status, stdout, stderr and every file written.

macro1 is installed by ``make setup``; these tests fail (never skip) if it is missing,
because a skipped oracle would silently prove nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.tools import compare_assemblers as ca

CASES = ca.load_corpus()
REPO_ROOT: Path = ca.REPO_ROOT

# Exit status macro1 gives each case on purpose; anything not listed must assemble
# cleanly.  This guards the corpus itself: a typo that turns a feature test into an
# error test (or the reverse) is caught here, before any comparison.
EXPECTED_FAILURES = {
    "opt_d_undefined": 1,
    "opt_x_errors": 1,
    "opt_s_with_errors_no_tape": 1,
    "opt_S_missing_tape": 1,
    "opt_S_not_a_tape": 1,
    "opt_S_large_tape": 1,
    "cmd_unknown_flag": 255,
    "cmd_no_input_file": 255,
    "cmd_missing_first_file": 255,
    "cmd_missing_second_file": 255,
    "multi_errors_in_second_file": 1,
}


def expected_exit(case_name: str) -> int:
    """The exit status the corpus author intended for ``case_name`` under macro1."""
    if case_name.startswith("err_"):
        return 1
    return EXPECTED_FAILURES.get(case_name, 0)


def test_macro1_is_installed() -> None:
    """The oracle must exist; without it every comparison below would be meaningless."""
    assert Path(ca.MACRO1).is_file(), "run `make setup` (installs Debian's simh)"


def test_corpus_is_complete() -> None:
    """Every file the manifest names exists (apart from deliberately missing ones)."""
    assert len(CASES) >= 80
    for case in CASES:
        for rel in case.files:
            if "no_such" in rel:
                assert not (case.base_dir / rel).exists()
            else:
                assert (case.base_dir / rel).is_file(), f"{case.name}: {rel} missing"
        if case.symtape_from:
            assert (case.base_dir / case.symtape_from).is_file()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_as_macro1(case: "ca.Case", tmp_path: Path) -> None:
    """Tape, listing, extra outputs, stderr and exit status all equal macro1's."""
    symtape = ca.make_symtape(case)
    expected = ca.run_macro1(case, tmp_path / "macro1", symtape)
    assert expected.returncode == expected_exit(case.name), (
        f"corpus case {case.name} no longer does what it was written for: macro1 exited "
        f"{expected.returncode}\n{expected.stderr.decode('latin-1')}")
    actual = ca.run_python(case, tmp_path / "python", symtape)
    problems = ca.compare_outcomes(expected, actual)
    assert not problems, (f"python -m tools.macro differs from macro1 on {case.name} "
                          f"({' '.join(case.options + case.files)}):\n"
                          + "\n".join(problems))


# Cases re-run with -o: the sources stay in one folder and the outputs must appear, with
# macro1's exact contents, in another one.  macro1 has no -o; it always writes beside the
# first file, so its outputs are collected there and compared with the -o folder.
OUTPUT_DIR_CASES = ["multi_three_parts", "opt_all_separate", "err_labels",
                    "multi_file_without_extension", "opt_r_large_program"]


@pytest.mark.parametrize("name", OUTPUT_DIR_CASES)
def test_output_folder_option(name: str, tmp_path: Path) -> None:
    """``-o DIR`` puts exactly macro1's outputs (by base name) into DIR and nothing beside
    the sources."""
    case = next(c for c in CASES if c.name == name)
    expected = ca.run_macro1(case, tmp_path / "macro1")
    srcdir, outdir = tmp_path / "src", tmp_path / "out"
    inputs = ca._prepare(case, srcdir, None)
    proc = ca.subprocess.run(
        [sys.executable, "-m", "tools.macro", *case.options, "-o", str(outdir),
         *case.files], cwd=srcdir, capture_output=True, timeout=ca.TIMEOUT_S,
        env=ca.python_env())
    assert ca._snapshot(srcdir) == inputs, "python wrote beside the sources despite -o"
    written = ca._snapshot(outdir) if outdir.exists() else {}
    actual = ca.Outcome(proc.returncode, proc.stdout, proc.stderr, written)
    expected.outputs = {Path(k).name: v for k, v in expected.outputs.items()}
    problems = ca.compare_outcomes(expected, actual)
    assert not problems, f"-o run differs from macro1 on {name}:\n" + "\n".join(problems)


def makefile_sources(variable: str = "KALAH_SRC") -> tuple[str, ...]:
    """The file list of a Makefile variable (the build's single source of truth)."""
    text = (REPO_ROOT / "Makefile").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        name, sep, value = line.partition(":=")
        if sep and name.strip() == variable:
            return tuple(value.split())
    return ()


def test_project_program(tmp_path: Path) -> None:
    """The project's own PDP-1 program, assembled from its files in the build's order
    (every option that changes the outputs included), comes out identical."""
    files = makefile_sources() or tuple(
        str(p.relative_to(REPO_ROOT)) for p in sorted((REPO_ROOT / "pdp1_src").glob("*.mac")))
    failures = []
    for i, options in enumerate([(), ("-r",), ("-d", "-x", "-m", "-s")]):
        case = ca.Case(name="project", files=files, options=options, base_dir=REPO_ROOT)
        problems = ca.compare_case(case, tmp_path / str(i))
        if problems:
            failures.append(f"{' '.join(options + files)}:\n" + "\n".join(problems))
    assert not failures, "\n\n".join(failures)
