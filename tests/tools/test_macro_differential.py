"""Differential tests: ``python -m tools.macro`` must behave exactly like Debian's macro1.

Why: the project's tapes must be byte-identical to what the period-faithful C assembler
(``/usr/bin/macro1`` from simh 3.8.1) punches, and its listings and messages are what a
programmer reads.  The corpus in ``tests/tools/asm_corpus`` exercises every feature and corner
of the macro1 dialect (one ``.mac`` per topic, plus option variants, multi-file sources
and command-line errors listed in ``cases.toml``).  Expectations are never written by
hand: they are what the real macro1 wrote, kept in ``tests/tools/asm_expected`` by
``make asm-expected`` (which runs it several times and keeps nothing unless the runs agree:
macro1 is not always repeatable, asm_expected.py says why).  Each case runs the Python tool
in a temporary folder and compares exit status, stdout, stderr and every file written.  The
live comparison with macro1, the project's own program included, is ``make compare-asm``.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from tests.tools import asm_expected
from tests.tools import compare_assemblers as ca

CASES = ca.load_corpus()

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


def kept(case: "ca.Case") -> asm_expected.Expected:
    """macro1's kept outputs for ``case``; a failure that says how to make them when they are stale."""
    try:
        return asm_expected.load(case)
    except asm_expected.StaleExpected as stale:
        pytest.fail(str(stale), pytrace=False)


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


def test_macro1s_outputs_are_kept_for_every_case_and_no_other() -> None:
    kept_names = {p.name for p in asm_expected.EXPECTED_DIR.iterdir() if p.is_dir()}
    assert kept_names == {c.name for c in CASES}, f"run `{asm_expected.REGENERATE}`"


def test_kept_outputs_of_a_changed_source_are_called_stale(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "label_forms")
    (tmp_path / "label_forms.mac").write_bytes((case.base_dir / "label_forms.mac").read_bytes() + b"\t0\n")
    with pytest.raises(asm_expected.StaleExpected, match="made from other sources.*make asm-expected"):
        asm_expected.load(dataclasses.replace(case, base_dir=tmp_path))
    assert asm_expected.load(case).outcome.returncode == 0


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_as_macro1(case: "ca.Case", tmp_path: Path) -> None:
    """Tape, listing, extra outputs, stderr and exit status all equal macro1's."""
    macro1 = kept(case)
    expected = macro1.outcome
    assert expected.returncode == expected_exit(case.name), (
        f"corpus case {case.name} no longer does what it was written for: macro1 exited "
        f"{expected.returncode}\n{expected.stderr.decode('latin-1')}")
    problems = ca.compare_outcomes(expected, ca.run_python_in_process(case, tmp_path / "in-process", macro1.symtape))
    if problems:  # confirmed by the real process (in process, stdout and stderr are text of its own)
        problems = ca.compare_outcomes(expected, ca.run_python(case, tmp_path / "python", macro1.symtape))
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
    expected = kept(case).outcome
    srcdir, outdir = tmp_path / "src", tmp_path / "out"
    inputs = ca._prepare(case, srcdir, None)
    proc = ca.subprocess.run(
        [sys.executable, "-m", "tools.macro", *case.options, "-o", str(outdir),
         *case.files], cwd=srcdir, capture_output=True, timeout=ca.TIMEOUT_S,
        env=ca.python_env())
    assert ca._snapshot(srcdir) == inputs, "python wrote beside the sources despite -o"
    written = ca._snapshot(outdir) if outdir.exists() else {}
    actual = ca.Outcome(proc.returncode, proc.stdout, proc.stderr, written)
    expected = ca.Outcome(expected.returncode, expected.stdout, expected.stderr,
                          {Path(k).name: v for k, v in expected.outputs.items()})
    problems = ca.compare_outcomes(expected, actual)
    assert not problems, f"-o run differs from macro1 on {name}:\n" + "\n".join(problems)
