"""Seeded generative differential test: random well-formed macro1 programs, both assemblers.

Why: the hand-written corpus covers each feature on purpose, but the assembler's
correctness also depends on how features *combine* (literals inside macro arguments
inside repeats, forward references across constants blocks, radix switches between
labels...).  A grammar-driven generator builds many small programs from the dialect's
pieces; each is assembled by the real ``/usr/bin/macro1`` and by ``python -m tools.macro``
and the tapes, listings, messages and exit status must be identical.

Every program is derived from ``(seed, index)`` alone, so a failure is reproducible by
its index.  The generator only writes programs that macro1 accepts without errors (the
test checks that too, so a generator slip shows up as such and not as an assembler bug).

Knobs (environment variables; ``make fuzz-asm N=... SEED=...`` sets them):

* ``MACRO_FUZZ_COUNT``  programs to generate (default 300, what ``make test`` runs)
* ``MACRO_FUZZ_MUTANTS`` damaged programs for the error paths (default COUNT / 3)
* ``MACRO_FUZZ_SEED``   master seed (default 1962)
* ``MACRO_FUZZ_START``  index of the first program (default 0), to replay one failure
* ``MACRO_FUZZ_SAVE``   folder where failing programs are written for later study
* ``MACRO_FUZZ_SUBPROCESS=1``  run the Python tool as a subprocess for every program
  (slower; by default it runs in-process, calling the ``main`` that ``python -m``
  would call, and any difference found that way is confirmed in a real subprocess before
  it is reported)
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.tools import compare_assemblers as ca
from tests.tools.macro_programs import MACRO1_FILE_CAP, generate, mutate

COUNT = int(os.environ.get("MACRO_FUZZ_COUNT", "300"))
MUTANTS = int(os.environ.get("MACRO_FUZZ_MUTANTS", str(max(COUNT // 3, 1))))
SEED = int(os.environ.get("MACRO_FUZZ_SEED", "1962"))
START = int(os.environ.get("MACRO_FUZZ_START", "0"))
SAVE = os.environ.get("MACRO_FUZZ_SAVE")
SUBPROCESS = os.environ.get("MACRO_FUZZ_SUBPROCESS", "") not in ("", "0")

# ---------------------------------------------------------------------------- running


def check_program(seed: int, index: int, root: Path,
                  runner: Callable[["ca.Case", Path], "ca.Outcome"]) -> list[str]:
    """Assemble program ``index`` with both assemblers; the differences, if any."""
    files, options = generate(seed, index)
    folder = root / f"p{index}"
    (folder / "src").mkdir(parents=True)
    for name, text in files:
        (folder / "src" / name).write_bytes(text.encode("ascii"))
    case = ca.Case(name=f"gen{index}", files=tuple(name for name, _ in files),
                   options=options, base_dir=folder / "src")
    expected = ca.run_macro1(case, folder / "macro1")
    if expected.returncode != 0:
        return [f"generator bug: macro1 rejected the program (exit {expected.returncode}):\n"
                + expected.stderr.decode("latin-1")]
    problems = ca.compare_outcomes(expected, runner(case, folder / "python"))
    if problems and runner is not ca.run_python:
        # confirm in a real subprocess so in-process artefacts are never reported
        problems = ca.compare_outcomes(expected, ca.run_python(case, folder / "python-sub"))
    if problems and not macro1_repeats(case, folder, expected):
        problems = [NOT_REPEATABLE]
    shutil.rmtree(folder, ignore_errors=True)
    return problems


NOT_REPEATABLE = "set aside: macro1 gives this program another output when run again"


def macro1_repeats(case: "ca.Case", folder: Path, first: "ca.Outcome", **limits: float) -> bool:
    """Whether macro1 gives ``first`` again, in an environment of another size: where it reads stale
    memory (the line buffer at the end of the input, see tests/tools/asm_expected.py) it need not,
    and a difference then says nothing about tools.macro.  ``limits``: run_macro1's timeout and
    max_file_bytes."""
    padded = dict(os.environ, MACRO_FUZZ_PADDING="x" * 4096)
    return not ca.compare_outcomes(first, ca.run_macro1(case, folder / "macro1-again", env=padded, **limits))


def test_generator_is_deterministic() -> None:
    """Same seed and index, same program: failures must be replayable from their index."""
    assert generate(SEED, 7) == generate(SEED, 7)
    assert generate(SEED, 7) != generate(SEED, 8)


def test_generated_lines_fit_macro1_buffer() -> None:
    """macro1 reads at most 94 characters a line and silently splits longer ones; the
    generator stays below that so its programs mean what they say."""
    for index in range(START, START + min(COUNT, 200)):
        files, _ = generate(SEED, index)
        for _, text in files:
            assert max(len(line) for line in text.replace("\r", "").split("\n")) <= 90


def test_random_programs_match_macro1(tmp_path: Path) -> None:
    """COUNT random programs (default 300) give identical outputs with both assemblers."""
    runner = ca.run_python if SUBPROCESS else ca.run_python_in_process
    failures: list[tuple[int, list[str]]] = []
    set_aside = 0
    for index in range(START, START + COUNT):
        problems = check_program(SEED, index, tmp_path, runner)
        if problems == [NOT_REPEATABLE]:
            set_aside += 1
        elif problems:
            failures.append((index, problems))
            if SAVE:
                save = Path(SAVE)
                save.mkdir(parents=True, exist_ok=True)
                files, options = generate(SEED, index)
                for name, text in files:
                    (save / f"seed{SEED}_prog{index}_{name}").write_bytes(text.encode("ascii"))
                (save / f"seed{SEED}_prog{index}.txt").write_text(
                    f"macro1 {' '.join(options)} {' '.join(n for n, _ in files)}\n"
                    + "\n".join(problems) + "\n")
    assert set_aside <= COUNT // 4, f"{set_aside} of {COUNT} programs set aside: macro1 not repeatable on them"
    if failures:
        report = [f"{len(failures)} of {COUNT} generated programs differ "
                  f"(seed {SEED}; replay one with MACRO_FUZZ_SEED={SEED} "
                  f"MACRO_FUZZ_START=<index> MACRO_FUZZ_COUNT=1):"]
        for index, problems in failures[:3]:
            files, options = generate(SEED, index)
            source = "".join(f"=== {name}\n{text}" for name, text in files)
            shown = source if len(source) < 3000 else source[:3000] + "...\n"
            report.append(f"--- program {index} (options {' '.join(options) or 'none'}):\n"
                          f"{shown}--- differences:\n" + "\n".join(problems))
        report.append("indices: " + ", ".join(str(i) for i, _ in failures[:50]))
        raise AssertionError("\n".join(report))


# ------------------------------------------------------------------- error paths

def check_mutant(seed: int, index: int, root: Path) -> tuple[bool, list[str]]:
    """(compared?, differences) for mutant ``index``.

    A mutant is set aside, not compared, when macro1 itself cannot give a meaningful
    answer: it loops for ever (text with a character that has no FIO-DEC code) or its
    output changes with the size of its environment (it then reads stale stack memory,
    e.g. a text left open at the very end of the source).
    """
    files, options = mutate(seed, index)
    folder = root / f"m{index}"
    (folder / "src").mkdir(parents=True)
    for name, text in files:
        (folder / "src" / name).write_bytes(text.encode("ascii"))
    case = ca.Case(name=f"mut{index}", files=tuple(name for name, _ in files),
                   options=options, base_dir=folder / "src")
    try:
        first = ca.run_macro1(case, folder / "macro1", timeout=2,
                              max_file_bytes=MACRO1_FILE_CAP)
        repeats = first.returncode >= 0 and macro1_repeats(case, folder, first, timeout=2,
                                                           max_file_bytes=MACRO1_FILE_CAP)
    except subprocess.TimeoutExpired:
        repeats = False
    if not repeats:
        shutil.rmtree(folder, ignore_errors=True)
        return False, []
    problems = ca.compare_outcomes(first, ca.run_python_in_process(case, folder / "python"))
    if problems:
        problems = ca.compare_outcomes(first, ca.run_python(case, folder / "python-sub"))
    shutil.rmtree(folder, ignore_errors=True)
    return True, problems


def test_damaged_programs_match_macro1(tmp_path: Path) -> None:
    """MUTANTS damaged programs: same messages, listing, exit status and (no) tape."""
    failures: list[tuple[int, list[str]]] = []
    compared = 0
    for index in range(START, START + MUTANTS):
        was_compared, problems = check_mutant(SEED, index, tmp_path)
        compared += was_compared
        if problems:
            failures.append((index, problems))
            if SAVE:
                save = Path(SAVE)
                save.mkdir(parents=True, exist_ok=True)
                files, options = mutate(SEED, index)
                for name, text in files:
                    (save / f"seed{SEED}_mutant{index}_{name}").write_bytes(text.encode("ascii"))
                (save / f"seed{SEED}_mutant{index}.txt").write_text(
                    f"macro1 {' '.join(options)} {' '.join(n for n, _ in files)}\n"
                    + "\n".join(problems) + "\n")
    # the test must not become vacuous by setting everything aside
    assert compared >= 0.75 * MUTANTS, f"only {compared} of {MUTANTS} mutants compared"
    if failures:
        report = [f"{len(failures)} of {compared} damaged programs differ (seed {SEED}):"]
        for index, problems in failures[:3]:
            files, options = mutate(SEED, index)
            source = "".join(f"=== {name}\n{text}" for name, text in files)
            shown = source if len(source) < 3000 else source[:3000] + "...\n"
            report.append(f"--- mutant {index} (options {' '.join(options) or 'none'}):\n"
                          f"{shown}\n--- differences:\n" + "\n".join(problems))
        report.append("indices: " + ", ".join(str(i) for i, _ in failures[:50]))
        raise AssertionError("\n".join(report))
