#!/usr/bin/env python3
"""macro1's outputs for the corpus, kept as files: written by ``make asm-expected``, read by ``make test``.

Why: Debian's macro1 does not always give the same listing for the same source.  At the end of
the input its ``readLine()`` scans a line buffer that ``fgets()`` has left unset, and a stale
form-feed byte there starts a new listing page now and then (docs/tools.md says more).  A test
that runs macro1 each time would fail by chance, so the differential test compares the project's
assembler with these files instead.  This script makes them by running macro1 several times on
every case and writes nothing when two runs disagree.  The live comparison is ``make compare-asm``.

One folder per case, named after it::

    inputs.sha256   what the outputs were made from (options, sources, the -S tape's source)
    exit            macro1's exit status
    stdout, stderr  what it printed
    symtape.sym     the -S tape ``macro1 -s`` punched, for the cases that read one
    out/...         every file it wrote, at its path in the work folder

Usage: ``.venv/bin/python tests/tools/asm_expected.py [--runs N]`` (``make asm-expected RUNS=N``).
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the project's root importable, as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.tools import compare_assemblers as ca  # noqa: E402
from tools.cli_args import OneLineParser, bounded_int  # noqa: E402

EXPECTED_DIR = Path(__file__).resolve().parent / "asm_expected"
REGENERATE = "make asm-expected"


class StaleExpected(Exception):
    """The kept outputs of a case are missing or were made from other sources than today's."""


class Disagreement(Exception):
    """macro1 gave two different answers for one case: nothing is written."""


@dataclass(frozen=True)
class Expected:
    """What macro1 did for one case, and the -S tape it read (made by macro1 -s), if any."""

    outcome: ca.Outcome
    symtape: bytes | None


def inputs_digest(case: ca.Case) -> str:
    """A fingerprint of everything the case's outputs depend on, so stale files are named as such."""
    digest = hashlib.sha256(repr((case.options, case.files, case.symtape_from)).encode())
    inputs = [*case.files, *(o for o in case.options if not o.startswith("-"))]
    for rel in inputs + ([case.symtape_from] if case.symtape_from else []):
        path = case.base_dir / rel
        digest.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"(none)") + b"\0")
    return digest.hexdigest()


def observe(case: ca.Case, runs: int) -> Expected:
    """macro1's answer for ``case``, the same in ``runs`` runs, or Disagreement."""
    answers = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="asm-expected-") as work:
            symtape = ca.make_symtape(case)
            answers.append(Expected(ca.run_macro1(case, Path(work), symtape), symtape))
    distinct = len({repr(a) for a in answers})
    if distinct > 1:
        raise Disagreement(f"macro1 gave {distinct} different outputs for {case.name} in {runs} runs: "
                           "nothing written, run it again")
    return answers[0]


def write(folder: Path, case: ca.Case, expected: Expected) -> None:
    """``expected`` as the files the module docstring describes."""
    folder.mkdir(parents=True)
    (folder / "inputs.sha256").write_text(inputs_digest(case) + "\n")
    (folder / "exit").write_text(f"{expected.outcome.returncode}\n")
    (folder / "stdout").write_bytes(expected.outcome.stdout)
    (folder / "stderr").write_bytes(expected.outcome.stderr)
    if expected.symtape is not None:
        (folder / "symtape.sym").write_bytes(expected.symtape)
    for rel, data in expected.outcome.outputs.items():
        path = folder / "out" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def load(case: ca.Case, expected_dir: Path = EXPECTED_DIR) -> Expected:
    """The kept outputs of ``case``; StaleExpected when they are missing or older than its sources."""
    folder = expected_dir / case.name
    if not (folder / "inputs.sha256").is_file():
        raise StaleExpected(f"no kept macro1 outputs for {case.name} in {expected_dir}: run `{REGENERATE}`")
    if (folder / "inputs.sha256").read_text().strip() != inputs_digest(case):
        raise StaleExpected(f"the kept macro1 outputs of {case.name} were made from other sources or "
                            f"options: run `{REGENERATE}`")
    out = folder / "out"
    outputs = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    symtape = folder / "symtape.sym"
    outcome = ca.Outcome(int((folder / "exit").read_text()), (folder / "stdout").read_bytes(),
                         (folder / "stderr").read_bytes(), outputs)
    return Expected(outcome, symtape.read_bytes() if symtape.is_file() else None)


def regenerate(cases: list[ca.Case], runs: int, expected_dir: Path = EXPECTED_DIR) -> None:
    """Observe every case first; only when macro1 agreed with itself everywhere replace the folder."""
    observed = [(case, observe(case, runs)) for case in cases]
    fresh = expected_dir.with_name(expected_dir.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    for case, expected in observed:
        write(fresh / case.name, case, expected)
    shutil.rmtree(expected_dir, ignore_errors=True)
    fresh.rename(expected_dir)


def main(argv: list[str] | None = None) -> int:
    """Regenerate tests/tools/asm_expected/ from the installed macro1."""
    parser = OneLineParser(prog="asm_expected.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=bounded_int(2, 50), default=3,
                        help="runs of macro1 per case that must agree (default 3)")
    args = parser.parse_args(argv)
    cases = ca.load_corpus()
    try:
        regenerate(cases, args.runs)
    except Disagreement as refused:
        print(f"asm-expected: {refused}", file=sys.stderr)
        return 1
    print(f"asm-expected: macro1's outputs for {len(cases)} cases, the same in {args.runs} runs each, "
          f"in {EXPECTED_DIR.relative_to(ca.REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
