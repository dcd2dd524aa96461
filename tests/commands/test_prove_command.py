"""``python -m python_bridge prove``: the PDP-1 proves Kalah(6,1) on SIMH, figures printed, bad input refused."""

from __future__ import annotations

import re

import pytest

from python_bridge.checking import proof as proof_module
from python_bridge.checking.proof import ProofMachine, ReferenceProof, _nodes
from python_bridge.commands import prove as prove_cli
from python_bridge.machine.kalah_program import program_symbols
from python_bridge.reference.rules import Variants, start_position
from tests.processes import pid_alive


def test_prove_6_1_prints_the_verdict_and_figures(kalah_tape, capsys: pytest.CaptureFixture[str]) -> None:
    assert prove_cli.main(["--pits", "6", "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert "pdp-1:     w 0 -> above yes nodes 190" in out
    assert "above yes nodes 190  (agrees)" in out
    assert "\nfirst player wins\n" in out
    instructions = int(re.search(r"instructions ([\d,]+)", out).group(1).replace(",", ""))
    cycles = int(re.search(r"memory cycles ([\d,]+)", out).group(1).replace(",", ""))
    seconds = float(re.search(r"1960 time ([\d.]+) s", out).group(1))
    assert instructions < cycles < 3 * instructions  # 1 to 3 cycles an instruction
    assert seconds == pytest.approx(cycles * 5e-6, abs=0.05)


def test_value_by_bound_tests_matches_ref_solve(kalah_tape, capsys: pytest.CaptureFixture[str]) -> None:
    assert prove_cli.main(["--pits", "6", "--seeds", "1", "--value", "--empty-capture", "--no-cycles"]) == 0
    out = capsys.readouterr().out
    assert "first player wins by 2" in out
    assert "ref solve: value 2  (agrees)" in out
    # the margins are even: w 0 (above) and w 2 (not above) are all it takes
    assert re.findall(r"  w +(-?\d+): pdp-1 above (yes|no) .* agrees", out) == [("0", "yes"), ("2", "no")]


def test_the_free_run_counts_the_same_instructions(kalah_tape) -> None:
    """SIMH's own count (show time) and the cycle counter's history agree on the proof's length."""
    with ProofMachine(6, 1, Variants()) as machine:
        timed = machine.run(start_position(6, 1), 0)
        free = machine.run(start_position(6, 1), 0, count_cycles=False)
    assert timed.agrees and free.agrees
    assert timed.instructions == free.instructions
    assert free.cycles is None and timed.cycles is not None


def test_node_counter_words(kalah_tape) -> None:
    """nlo runs from -100,000 up (ones' complement), nhi counts the hundred-thousands (the program's hundk)."""
    unit = program_symbols()["hundk"]
    assert unit == 100_000
    assert _nodes(0, 0o777777 - 99_999, unit) == 1  # nlo = -99,999
    assert _nodes(4, 0o777777 - 1102, unit) == 498_898  # nlo = -1,102


@pytest.mark.parametrize("argv", [
    ["--seeds", "0"], ["--seeds", "7"], ["--pits", "7", "--seeds", "1"], ["--seeds", "1", "--pie-rule"],
    ["--seeds", "1", "--bound", "100"], ["--seeds", "1", "--value", "--bound", "2"], ["--seeds", "1", "--pace", "-1"],
    ["--seeds", "1", "--pace", "1", "--no-cycles"], ["--seeds", "x"], [],
    ["--seeds", "1", "--minutes", "5"], ["--seeds", "1", "--deepen", "0"], ["--seeds", "1", "--deepen", "100"],
    ["--seeds", "1", "--deepen", "3", "--value"], ["--seeds", "1", "--deepen", "3", "--no-cycles"],
    ["--seeds", "1", "--deepen", "3", "--minutes", "0"], ["--seeds", "1", "--deepen", "3", "--minutes", "x"],
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = prove_cli.main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    out, err = capsys.readouterr()
    assert not out and len(err.strip().splitlines()) == 1


def test_a_sample_of_counted_slices_estimates_the_cycles(kalah_tape, monkeypatch: pytest.MonkeyPatch) -> None:
    """Uncounted, a counted slice after every few free ones: the estimate is the sample's cycles an
    instruction times all the instructions, and near the exact count of the same proof."""
    monkeypatch.setattr(proof_module, "FREE_SLICE", 2_000)
    with ProofMachine(6, 1, Variants()) as machine:
        exact = machine.run(start_position(6, 1), 0)
        sampled = machine.run(start_position(6, 1), 0, count_cycles=False, sample_every=4)
    assert sampled.agrees and sampled.instructions == exact.instructions
    counted, cycles = sampled.sample
    assert 0 < counted < sampled.instructions
    assert sampled.estimated_cycles == round(sampled.instructions * cycles / counted)
    assert sampled.estimated_cycles == pytest.approx(exact.cycles, rel=0.05)
    assert exact.estimated_cycles is None


def test_the_reference_proves_beside_the_pdp1(kalah_tape, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long proof's reference runs in a process of its own while the PDP-1 works; its answer is the same,
    and a proof given up stops that process."""
    monkeypatch.setattr(proof_module, "BESIDE_FROM", 0)
    with ProofMachine(6, 1, Variants()) as machine:
        run = machine.run(start_position(6, 1), 0, count_cycles=False)
    assert run.agrees and run.reference.line() == "above yes nodes 190"
    abandoned = ReferenceProof(start_position(6, 3), 0, Variants())
    pid = abandoned.beside.pid
    abandoned.close()
    assert not pid_alive(pid)


def test_deepening_from_the_start(kalah_tape, capsys: pytest.CaptureFixture[str]) -> None:
    assert prove_cli.main(["--seeds", "2", "--deepen", "6"]) == 0
    out = capsys.readouterr().out
    assert out.count("agrees") == 6 and "DISAGREES" not in out
    assert "  depth 1 value 1 nodes 3  (" in out and "  depth 6 value 5 nodes 171  (" in out
    assert "looking 6 plies ahead the first player finishes 5 ahead" in out
    assert re.search(r"memory cycles (about [\d,]+|not counted)", out)


def test_deepening_stops_when_its_time_is_up(kalah_tape, capsys: pytest.CaptureFixture[str]) -> None:
    assert prove_cli.main(["--seeds", "5", "--deepen", "99", "--minutes", "0.1"]) == 0
    out = capsys.readouterr().out
    depths = re.findall(r"  depth (\d+) value -?\d+ nodes \d+ .* agrees", out)  # as many as the machine's load allows
    assert depths == [str(k) for k in range(1, len(depths) + 1)]
    assert f"depth {len(depths) + 1} not finished within 0.1 minutes: stopped" in out
    if depths:  # the cycles of the depths that finished, estimated or said to be uncounted
        assert re.search(r"memory cycles (about [\d,]+ \(an estimate|not counted \(the deepening ended)", out)
    else:  # a loaded machine may not finish depth 1 in six seconds: then there is nothing to estimate
        assert "memory cycles" not in out and "plies ahead the first player finishes" not in out
