"""``bench-ref``'s output: a line a case (the default level, then each fixed depth), the two searches' times and
their ratio, a line for all of them, and whether every answer matched; then the same for the proofs (a line a
start proved at two bounds), with the fast proof's positions a second.  Run small: two positions, small starts,
one run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.bench.reference_speed import PITS, SEEDS, Case, measure, midgame_positions, proof_bounds, proof_case
from python_bridge.commands import bench_ref
from python_bridge.reference.rules import Position, start_position
from python_bridge.reference.samples import is_midgame

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^(level auto|depth \d+|prove \d,\d|all) +(\d+) +(\d+\.\d{4}) +(\d+\.\d{4}) +(\d+\.\dx|inf x)$")
SMALL = ["--positions", "2", "--depth", "2", "--depth", "3", "--start", "3,2", "--start", "4,2", "--repeats", "1"]


def test_a_line_a_case_with_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_ref.main(SMALL) == 0
    lines = capsys.readouterr().out.split("\n\n")[0].splitlines()
    assert lines[0].startswith("reference search, 0.2.0's readable against the fast: 2 midgame positions of 6 pits")
    assert lines[2].split() == ["case", "nodes", "readable", "fast", "ratio"]
    rows = [ROW.match(line) for line in lines[3:7]]
    assert all(rows), lines
    assert [row.group(1) for row in rows if row] == ["level auto", "depth 2", "depth 3", "all"]
    nodes = [int(row.group(2)) for row in rows if row]
    assert nodes[3] == sum(nodes[:3]) and nodes[1] < nodes[2] < nodes[0]
    assert lines[7:] == ["same pit, value and node count in all 6 searches"]


def test_a_line_a_proof_with_the_ratio_and_the_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_ref.main(SMALL) == 0
    lines = capsys.readouterr().out.split("\n\n")[1].splitlines()
    assert lines[0].startswith("reference proof, the readable against the fast")
    assert lines[1] == "Kalah(3,2) w 2 and w 4, Kalah(4,2) w 4 and w 6"
    assert lines[3].split() == ["case", "nodes", "readable", "fast", "ratio"]
    rows = [ROW.match(line) for line in lines[4:7]]
    assert all(rows), lines
    assert [row.group(1) for row in rows if row] == ["prove 3,2", "prove 4,2", "all"]
    nodes = [int(row.group(2)) for row in rows if row]
    assert nodes[2] == sum(nodes[:2]) and 0 < nodes[0] < nodes[1]
    assert re.fullmatch(r"the fast proof: [\d,]+ positions a CPU second", lines[7])
    assert lines[8:] == ["same answer, node count and deepest ply in all 4 proofs"]


def test_a_proof_case_proves_either_side_of_the_value() -> None:
    """Above the value less 2 (every margin of Kalah(4,3) is even), not above the value."""
    bounds = proof_bounds(4, 3)
    assert bounds == (4, 6)
    timing = measure(proof_case(4, 3, bounds), [start_position(4, 3)], 1)
    assert timing.same and timing.nodes == 4_791 + 50_808


def test_the_positions_are_seeded_midgame_ones() -> None:
    positions = midgame_positions(5, 1960)
    assert positions == midgame_positions(5, 1960) and positions != midgame_positions(5, 1961)
    assert all(is_midgame(p) and p.pits == PITS and sum(p.board) == 2 * PITS * SEEDS for p in positions)


def test_a_different_answer_is_told() -> None:
    """The timing compares the answers; a search that answered otherwise would be reported, not hidden."""
    position = midgame_positions(1, 1960)[0]

    def readable(p: Position) -> tuple[int, ...]:
        return (1, 0, 10)

    def wrong(p: Position) -> tuple[int, ...]:
        return (2, 0, 10)

    assert not measure(Case("odd", readable, wrong), [position], 1).same
    assert measure(Case("even", readable, readable), [position], 1).same


def test_make_bench_ref_runs_the_command() -> None:
    dry = subprocess.run(["make", "--no-print-directory", "-n", "bench-ref"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert "python_bridge bench-ref" in dry.stdout
    done = subprocess.run([sys.executable, "-m", "python_bridge", "bench-ref", "--positions", "1", "--depth", "1",
                           "--start", "2,3", "--repeats", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == "" and "in all 2 searches\n" in done.stdout
    assert done.stdout.endswith("in all 2 proofs\n")
