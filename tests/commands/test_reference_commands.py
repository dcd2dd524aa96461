"""The reference's measuring tools are commands of the bridge: ``bench-ref``, ``bench-contract``, ``solve-table``.

Their command lines live in ``commands/`` (the reference keeps no command-line code, and
``tools.cli_args.OneLineParser`` is the only one-line parser); ``make bench-ref`` and
``make bench-contract`` run them.  Each is run here, small (``bench-ref``'s output in
tests/bench/test_reference_speed.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from python_bridge.bench.contract_study import study_rows

ROOT = Path(__file__).resolve().parents[2]


def bridge(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_bench_contract_studies_every_change() -> None:
    done = bridge("bench-contract", "--positions", "4", "--budget", "300", "--seed", "5")
    assert done.returncode == 0 and done.stderr == ""
    rows = study_rows()
    assert "kept: first, decided, table" in done.stdout and done.stdout.count("median") == 2 * len(rows)
    assert [line.split("all:")[0].strip() for line in done.stdout.splitlines()[1:]] == [name for name, _ in rows]


def test_solve_table_prints_its_markdown_table() -> None:
    done = bridge("solve-table", "--rules", "empty-capture", "--max-pits", "1", "--max-seeds", "2", "--limit", "60")
    assert done.returncode == 0
    assert done.stdout.splitlines()[:2] == ["| m | n | rules | value | time | published |",
                                            "|---|---|-------|-------|------|-----------|"]
    assert done.stdout.count("| empty capture |") == 2


def test_the_reference_keeps_no_command_line_code() -> None:
    reference = ROOT / "python_bridge" / "reference"
    assert not (reference / "arguments.py").exists()
    for source in reference.glob("*.py"):
        text = source.read_text()
        assert "argparse" not in text and "def main(" not in text, source.name


def test_the_make_targets_run_the_commands() -> None:
    for target, command in (("bench-ref", "python_bridge bench-ref"),
                            ("bench-contract", "python_bridge bench-contract")):
        dry = subprocess.run(["make", "--no-print-directory", "-n", target], cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
        assert command in dry.stdout, dry.stdout


def test_solve_tables_rule_sets_are_spelled_as_the_rule_options_and_listed_in_help() -> None:
    shown = " ".join(bridge("solve-table", "--help").stdout.split())
    for option in ("standard", "empty-capture", "deferred-end", "remainder-void", "pie-rule", "pie+empty-capture",
                   "all-four"):
        assert option in shown
    refused = bridge("solve-table", "--rules", "empty capture")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
