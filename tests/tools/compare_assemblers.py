#!/usr/bin/env python3
"""Run macro1 and the Python cross-assembler on the same sources and compare every output.

Why this exists: the project's Python assembler (``python -m tools.macro``) must be
byte-identical to Debian's ``/usr/bin/macro1`` (simh 3.8.1).  The only trustworthy oracle
is the installed binary itself, so every comparison here *runs* it; nothing is ever
expected "by hand".  Each assembler gets its own fresh temporary folder holding copies of
the sources, is run with the same relative command line, and then everything observable
is compared: exit status, stdout, stderr and every file it wrote (``.rim``, ``.lst``,
``.prm``, ``.sym``), including files that only one of them wrote.

The module is both a library (the pytest suites load it) and a command-line tool, so that
anyone can repeat the comparison on their own folder of historical sources::

    .venv/bin/python tests/tools/compare_assemblers.py [DIR] [-O "-r"] [--keep]

It compares each ``.mac`` file in DIR (recursively) as a separate one-file source, or without
DIR the corpus (tests/tools/asm_corpus, with the options its manifest gives) and the project's
own program, and prints one line per file plus the first difference, then exits 1 if any
differed.  ``make test`` compares with macro1's outputs kept by ``make asm-expected`` instead
(asm_expected.py says why); this is the live comparison, ``make compare-asm``.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = Path(__file__).resolve().parent / "asm_corpus"
MANIFEST = CORPUS_DIR / "cases.toml"
MACRO1 = "/usr/bin/macro1"
# macro1 prints argv[0] in some messages ("macro1: cannot open ..."); run it under the
# name a user types, which is also the name the Python tool is expected to print.
MACRO1_ARGV0 = "macro1"
TIMEOUT_S = 60

# Output files are compared as text (line diff) or as tapes (word-aware byte diff).
TEXT_SUFFIXES = (".lst", ".prm")


@dataclass(frozen=True)
class Case:
    """One assembly to perform with both assemblers.

    ``files`` are paths relative to ``base_dir``; they are copied into each work folder
    at the same relative paths and passed on the command line in that order (names that
    do not exist under ``base_dir`` are passed anyway: that is how missing-file errors
    are exercised).  ``symtape_from`` names a source that is first assembled by the
    real macro1 with ``-s``; the resulting ``.sym`` tape is copied into both work folders
    so that ``-S`` cases read a genuine macro1 symbol tape.
    """

    name: str
    files: tuple[str, ...]
    options: tuple[str, ...] = ()
    base_dir: Path = CORPUS_DIR
    symtape_from: str | None = None
    description: str = ""


@dataclass
class Outcome:
    """Everything observable about one assembler run."""

    returncode: int
    stdout: bytes
    stderr: bytes
    outputs: dict[str, bytes] = field(default_factory=dict)


# --------------------------------------------------------------------------- corpus


def load_corpus(corpus_dir: Path = CORPUS_DIR) -> list[Case]:
    """Every top-level ``.mac`` as a plain case, plus the manifest's special cases.

    Plain cases need no bookkeeping: dropping a new ``.mac`` into the corpus adds a test.
    Option variants, multi-file sources and missing-file cases live in ``cases.toml``
    because they cannot be expressed by a single file.
    """
    cases = [Case(name=p.stem, files=(p.name,), base_dir=corpus_dir)
             for p in sorted(corpus_dir.glob("*.mac"))]
    manifest = corpus_dir / "cases.toml"
    if manifest.exists():
        data = tomllib.loads(manifest.read_text())
        for entry in data.get("case", []):
            cases.append(Case(
                name=entry["name"],
                files=tuple(entry["files"]),
                options=tuple(entry.get("options", ())),
                base_dir=corpus_dir,
                symtape_from=entry.get("symtape_from"),
                description=entry.get("description", ""),
            ))
    names = [c.name for c in cases]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"duplicate case names in {corpus_dir}: {dupes}")
    return cases


# --------------------------------------------------------------------------- running


def _snapshot(folder: Path) -> dict[str, bytes]:
    """All files under ``folder`` keyed by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _prepare(case: Case, workdir: Path, symtape: bytes | None) -> dict[str, bytes]:
    """Copy the case's inputs into ``workdir``; return the inputs so they can be excluded."""
    workdir.mkdir(parents=True, exist_ok=True)
    # option values that name corpus files (e.g. "-S some.file") are inputs too
    for rel in (*case.files, *(o for o in case.options if not o.startswith("-"))):
        src = case.base_dir / rel
        if src.is_file():
            dst = workdir / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    if symtape is not None:
        (workdir / _symtape_name(case)).write_bytes(symtape)
    return _snapshot(workdir)


def _symtape_name(case: Case) -> str:
    """Where the -S tape goes in a work folder: beside the sources, under its own name."""
    assert case.symtape_from is not None
    return Path(case.symtape_from).with_suffix(".sym").name


def make_symtape(case: Case) -> bytes | None:
    """Produce the ``-S`` input tape with the real macro1 (never a stored binary)."""
    if case.symtape_from is None:
        return None
    with tempfile.TemporaryDirectory(prefix="m1sym-") as tmp:
        src = case.base_dir / case.symtape_from
        dst = Path(tmp) / src.name
        shutil.copyfile(src, dst)
        proc = subprocess.run([MACRO1_ARGV0, "-s", src.name], executable=MACRO1, cwd=tmp,
                              capture_output=True, timeout=TIMEOUT_S)
        tape = dst.with_suffix(".sym")
        if proc.returncode != 0 or not tape.exists():
            raise RuntimeError(f"macro1 -s {src.name} failed: {proc.stderr!r}")
        return tape.read_bytes()


def _argv(case: Case, symtape: bytes | None) -> list[str]:
    """Command-line arguments after the program name; ``@SYM`` stands for the -S tape."""
    args = []
    for opt in case.options:
        args.append(_symtape_name(case) if opt == "@SYM" and symtape is not None else opt)
    return args + list(case.files)


def _collect(proc: subprocess.CompletedProcess[bytes], workdir: Path,
             inputs: dict[str, bytes]) -> Outcome:
    """Outcome of a finished run: everything new or changed in ``workdir`` is output."""
    after = _snapshot(workdir)
    outputs = {k: v for k, v in after.items() if k not in inputs or inputs[k] != v}
    return Outcome(proc.returncode, proc.stdout, proc.stderr, outputs)


def run_macro1(case: Case, workdir: Path, symtape: bytes | None = None,
               timeout: float = TIMEOUT_S, max_file_bytes: int | None = None,
               env: dict[str, str] | None = None) -> Outcome:
    """Assemble ``case`` with the installed C macro1 in ``workdir``.

    ``max_file_bytes`` caps every file macro1 writes (it is killed by SIGXFSZ past it):
    on some inputs (text with a character that has no FIO-DEC code) macro1 loops for
    ever punching case shifts, and random inputs must not fill the disk.
    """
    inputs = _prepare(case, workdir, symtape)

    def limit() -> None:
        """Runs in the child before exec: cap the size of any file it writes."""
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

    proc = subprocess.run([MACRO1_ARGV0, *_argv(case, symtape)], executable=MACRO1,
                          cwd=workdir, capture_output=True, timeout=timeout, env=env,
                          preexec_fn=limit if max_file_bytes is not None else None)
    return _collect(proc, workdir, inputs)


def python_env() -> dict[str, str]:
    """Environment for the Python tool: the repository importable, nothing else changed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"]
                                           if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_python(case: Case, workdir: Path, symtape: bytes | None = None,
               python: str = sys.executable, extra_options: tuple[str, ...] = ()) -> Outcome:
    """Assemble ``case`` with ``python -m tools.macro`` in ``workdir``."""
    inputs = _prepare(case, workdir, symtape)
    cmd = [python, "-m", "tools.macro", *extra_options, *_argv(case, symtape)]
    try:
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, timeout=TIMEOUT_S,
                              env=python_env())
    except subprocess.TimeoutExpired as exc:
        return Outcome(-999, exc.stdout or b"", (exc.stderr or b"")
                       + f"\n[timed out after {TIMEOUT_S}s]".encode(), {})
    return _collect(proc, workdir, inputs)


def run_python_in_process(case: Case, workdir: Path, symtape: bytes | None = None) -> Outcome:
    """``python -m tools.macro`` without a new interpreter: its ``__main__`` is
    ``sys.exit(main())``, run here with the same argv and working folder, so only
    start-up time is saved.  (Not through runpy: with the project installed as a
    pytest plugin, pytest marks ``tools`` for assertion rewriting, and runpy cannot
    get code from that loader.)  A difference found this way is worth confirming with
    ``run_python``, the real process."""
    from tools.macro.cli import main as macro_main

    inputs = _prepare(case, workdir, symtape)
    err, out = io.StringIO(), io.StringIO()
    saved_argv, saved_cwd = sys.argv, os.getcwd()
    code: int = 0
    try:
        os.chdir(workdir)
        sys.argv = ["tools.macro", *_argv(case, symtape)]
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                sys.exit(macro_main())
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    finally:
        sys.argv = saved_argv
        os.chdir(saved_cwd)
    after = _snapshot(workdir)
    outputs = {k: v for k, v in after.items() if k not in inputs or inputs[k] != v}
    return Outcome(code & 0xFF, out.getvalue().encode("utf-8"), err.getvalue().encode("utf-8"), outputs)


# --------------------------------------------------------------------------- diffs


def tape_words(tape: bytes) -> list[tuple[int, int]]:
    """Decode a paper tape into (byte offset of first frame, 18-bit word) pairs.

    Only frames with the 0200 hole carry data (6 bits each, three to a word), exactly
    as the PDP-1 read-in and macro1's own symbol-tape reader treat them.
    """
    words: list[tuple[int, int]] = []
    acc = count = start = 0
    for offset, frame in enumerate(tape):
        if frame & 0o200:
            if count == 0:
                start = offset
            acc = (acc << 6) | (frame & 0o77)
            count += 1
            if count == 3:
                words.append((start, acc))
                acc = count = 0
    return words


def describe_tape_diff(name: str, expected: bytes, actual: bytes) -> str:
    """First differing byte of two tapes, with the words around it, for a human."""
    limit = min(len(expected), len(actual))
    first = next((i for i in range(limit) if expected[i] != actual[i]), limit)
    lines = [f"{name}: tapes differ (macro1 {len(expected)} bytes, python {len(actual)} "
             f"bytes); first difference at byte {first}"]
    lo, hi = max(0, first - 8), first + 8
    lines.append(f"  macro1 bytes {lo}..: {expected[lo:hi].hex(' ')}")
    lines.append(f"  python bytes {lo}..: {actual[lo:hi].hex(' ')}")
    ew, aw = tape_words(expected), tape_words(actual)
    idx = next((i for i in range(min(len(ew), len(aw))) if ew[i][1] != aw[i][1]),
               min(len(ew), len(aw)))
    if idx < max(len(ew), len(aw)):
        lines.append(f"  first differing tape word #{idx} (macro1 has {len(ew)} words, "
                     f"python {len(aw)}):")
        for j in range(max(0, idx - 3), idx + 4):
            e = f"{ew[j][1]:06o}" if j < len(ew) else "------"
            a = f"{aw[j][1]:06o}" if j < len(aw) else "------"
            mark = "=>" if j == idx else "  "
            lines.append(f"   {mark} word {j:5d}: macro1 {e}  python {a}")
    else:
        lines.append("  the data words agree; only leader/trailer or non-data frames differ")
    return "\n".join(lines)


def describe_text_diff(name: str, expected: bytes, actual: bytes, context: int = 3) -> str:
    """First differing line of two text outputs plus a short unified diff."""
    el = expected.decode("latin-1").splitlines(keepends=True)
    al = actual.decode("latin-1").splitlines(keepends=True)
    first = next((i for i in range(min(len(el), len(al))) if el[i] != al[i]),
                 min(len(el), len(al)))
    lines = [f"{name}: text differs (macro1 {len(el)} lines, python {len(al)} lines); "
             f"first difference at line {first + 1}"]
    lo = max(0, first - context)
    for i in range(lo, first + context + 1):
        if i < len(el) or i < len(al):
            e = repr(el[i]) if i < len(el) else "<end of file>"
            a = repr(al[i]) if i < len(al) else "<end of file>"
            mark = "=>" if i == first else "  "
            if e == a:
                lines.append(f"   {mark} {i + 1:5d}   both: {e}")
            else:
                lines.append(f"   {mark} {i + 1:5d} macro1: {e}")
                lines.append(f"   {mark} {i + 1:5d} python: {a}")
    udiff = list(difflib.unified_diff(el, al, "macro1", "python", n=1, lineterm=""))
    if udiff:
        shown = udiff[:40]
        lines.append("  unified diff (first 40 lines):")
        lines.extend("    " + u.rstrip("\n") for u in shown)
    return "\n".join(lines)


def compare_outcomes(expected: Outcome, actual: Outcome) -> list[str]:
    """Human-readable list of every difference; empty when the runs are identical."""
    problems: list[str] = []
    if expected.returncode != actual.returncode:
        problems.append(f"exit status: macro1 {expected.returncode}, "
                        f"python {actual.returncode}")
    if expected.stderr != actual.stderr:
        problems.append(describe_text_diff("stderr", expected.stderr, actual.stderr))
    if expected.stdout != actual.stdout:
        problems.append(describe_text_diff("stdout", expected.stdout, actual.stdout))
    for name in sorted(set(expected.outputs) | set(actual.outputs)):
        if name not in actual.outputs:
            problems.append(f"{name}: written by macro1 ({len(expected.outputs[name])} "
                            f"bytes) but not by python")
        elif name not in expected.outputs:
            problems.append(f"{name}: written by python ({len(actual.outputs[name])} "
                            f"bytes) but not by macro1")
        elif expected.outputs[name] != actual.outputs[name]:
            describe = (describe_text_diff if name.endswith(TEXT_SUFFIXES)
                        else describe_tape_diff)
            problems.append(describe(name, expected.outputs[name], actual.outputs[name]))
    return problems


def compare_case(case: Case, workroot: Path, python: str = sys.executable) -> list[str]:
    """Run both assemblers on ``case`` under ``workroot`` and list the differences."""
    symtape = make_symtape(case)
    expected = run_macro1(case, workroot / "macro1", symtape)
    actual = run_python(case, workroot / "python", symtape, python)
    return compare_outcomes(expected, actual)


# --------------------------------------------------------------------------- CLI


def makefile_sources(variable: str = "KALAH_SRC") -> tuple[str, ...]:
    """The file list of a Makefile variable (the build's single source of truth)."""
    text = (REPO_ROOT / "Makefile").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        name, sep, value = line.partition(":=")
        if sep and name.strip() == variable:
            return tuple(value.split())
    return ()


def project_cases() -> list[Case]:
    """The project's own PDP-1 program, from its files in the build's order, with every option that
    changes the outputs."""
    files = makefile_sources() or tuple(
        str(p.relative_to(REPO_ROOT)) for p in sorted((REPO_ROOT / "pdp1_src").glob("*.mac")))
    return [Case(name=f"project {' '.join(options)}".strip(), files=files, options=options, base_dir=REPO_ROOT)
            for options in [(), ("-r",), ("-d", "-x", "-m", "-s")]]


def folder_cases(folder: Path, options: tuple[str, ...]) -> list[Case]:
    """Each ``.mac`` file under ``folder`` (recursively) as a one-file source with ``options``."""
    return [Case(name=str(src.relative_to(folder)), files=(src.name,), options=options, base_dir=src.parent)
            for src in sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".mac")]


def main(argv: list[str] | None = None) -> int:
    """Compare both assemblers on every .mac file of a folder (each one on its own), or, without a folder,
    on the corpus (with the manifest's options) and the project's program."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?",
                        help="folder searched recursively for *.mac (default: the corpus and the project's program)")
    parser.add_argument("-O", "--options", default="",
                        help='macro1 options for every file, e.g. "-r" or "-d -x"')
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter that runs python -m tools.macro")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep the work folders under this folder instead of /tmp")
    args = parser.parse_args(argv)

    if args.folder is None:
        cases = load_corpus() + project_cases()
    else:
        cases = folder_cases(args.folder, tuple(args.options.split()))
    if not cases:
        print(f"no .mac files under {args.folder}", file=sys.stderr)
        return 2
    differing = 0
    with tempfile.TemporaryDirectory(prefix="cmpasm-") as tmp:
        root = args.keep or Path(tmp)
        for i, case in enumerate(cases):
            work = root / f"{i:04d}-{case.name.replace('/', '_').replace(' ', '_')}"
            symtape = make_symtape(case)
            expected = run_macro1(case, work / "macro1", symtape)
            actual = run_python(case, work / "python", symtape, args.python)
            problems = compare_outcomes(expected, actual)
            status = "SAME" if not problems else "DIFFERENT"
            tape = str(Path(case.files[0]).with_suffix(".rim")) if case.files else ""
            print(f"{status:9s} {case.name}  (macro1 exit {expected.returncode}, "
                  f"{expected.stderr.count(b': error:')} errors; "
                  f"{len(expected.outputs.get(tape, b''))} tape bytes)")
            if problems:
                differing += 1
                for p in problems[:3]:
                    print("    " + p.replace("\n", "\n    "))
    print(f"{len(cases) - differing} of {len(cases)} {'files' if args.folder else 'cases'} identical")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
