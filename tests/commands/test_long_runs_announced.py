"""A run of minutes or more says so before it starts, with an estimate, and shows its progress while it works.

Each command is started for real, its stderr read until the note (and, for the search,
the first progress line) appears, then stopped with Ctrl-C (SIGINT): it must stop with
status 130 and leave no emulator behind.  The estimates themselves are checked on the
figures they are made from.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from python_bridge.commands.progress import CountTicker, span_text
from python_bridge.exhibit.procinfo import descendants
from python_bridge.reference.estimates import estimate_proof, estimate_search, proof_positions, two_figures
from python_bridge.reference.notation import parse_position
from python_bridge.reference.rules import STANDARD, Variants
from python_bridge.reference.search import best_move
from tests.processes import as_at_a_terminal, still_running

ROOT = Path(__file__).resolve().parents[2]
START_6_4 = "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"
START_6_6 = "6 6 6 6 6 6 0 6 6 6 6 6 6 0 s"


def lines_until(args: list[str], wanted: list[str], limit: float = 300,
                group: bool = False) -> tuple[list[str], int]:
    """Start ``python -m python_bridge ARGS``; read stderr until a line holds each of ``wanted`` in turn; Ctrl-C it
    (``group``: to its whole process group, as a terminal's Ctrl-C goes).

    Returns the stderr lines read and the exit status after Ctrl-C."""
    run = subprocess.Popen([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=group,
                           preexec_fn=as_at_a_terminal)
    seen: list[str] = []
    found = threading.Event()

    def read() -> None:
        waiting = list(wanted)
        for line in run.stderr:  # type: ignore[union-attr]
            seen.append(line)
            if waiting and waiting[0] in line:
                waiting.pop(0)
                if not waiting:
                    found.set()
                    return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        found.wait(limit)
        below = descendants(run.pid)
        if group:
            os.killpg(run.pid, signal.SIGINT)
        else:
            run.send_signal(signal.SIGINT)
        status = run.wait(60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(10)
    assert found.is_set(), f"never said {wanted}: {''.join(seen)[-800:]}"
    reader.join(10)
    stopping = run.stderr.readlines()  # type: ignore[union-attr]  # what it said as it stopped
    assert not still_running(below), "an emulator was left running"
    assert not any("Traceback" in line for line in seen + stopping), "".join(seen + stopping)[-2000:]
    return seen, status


def test_a_deep_search_of_a_6x6_position_is_announced_and_shows_progress() -> None:
    seen, status = lines_until(["ref", "best", START_6_6, "20"],
                               ["note: the depth-20 search (about ", "... positions so far "])
    note = next(line for line in seen if line.startswith("note:"))
    assert " will take about " in note and "extrapolated from the same position searched to depth" in note
    assert ("hours" in note or "days" in note or "years" in note) and status == 130


def test_ctrl_c_stops_a_proof_and_the_reference_beside_it() -> None:
    """Kalah(6,3)'s reference proves in a process beside the PDP-1; Ctrl-C reaches both, and both stop
    without a traceback (the process beside ignores the key: its parent stops it)."""
    seen, status = lines_until(["prove", "--seeds", "3", "--no-cycles"], ["note: the proof", "nodes so far "],
                               group=True)
    assert status == 130


def test_a_killed_proof_takes_the_reference_beside_it_along() -> None:
    """A parent killed outright cannot stop its process beside: Linux does (PR_SET_PDEATHSIG)."""
    run = subprocess.Popen([sys.executable, "-m", "python_bridge", "prove", "--seeds", "3", "--no-cycles"], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        for line in run.stderr:  # type: ignore[union-attr]
            if "nodes so far " in line:
                break
        below = descendants(run.pid)
        assert any(b != run.pid for b in below)
    finally:
        run.kill()
        run.wait(10)
    assert not still_running(below), "the reference or the emulator outlived its parent"


def test_a_long_reference_proof_is_announced() -> None:
    seen, status = lines_until(["ref", "prove", "3 3 3 3 3 3 0 3 3 3 3 3 3 0 s", "0"],
                               ["note: the proof (about 40,000,000 positions) will take about "])
    assert "positions a second measured searching this position" in seen[-1] and status == 130


@pytest.mark.simh
def test_think_at_depth_20_is_announced_before_the_machine_starts(kalah_tape: Path) -> None:
    seen, status = lines_until(["think", START_6_4, "--depth", "20"], ["note: the depth-20 search, about "])
    assert "then by the PDP-1 with every cycle counted" in seen[-1] and status == 130


@pytest.mark.simh
@pytest.mark.parametrize("args, words, basis", [
    (["--seeds", "6"], "note: the proof (about 8,400,000,000,000,000 positions, every memory cycle counted) "
                       "will take about ", "a model fitted to the measured proofs"),
    (["--seeds", "4", "--value"], "note: the bound tests of its value (about ",
     "a model fitted to the measured proofs"),
    (["--seeds", "2", "--pace", "0.001"], "note: the proof (about 24,824 positions, every memory cycle counted, "
                                          "paced at 0.001 times 1960 speed) will take about ",
     "the count measured for this start"),
])
def test_long_proofs_are_announced(args: list[str], words: str, basis: str, kalah_tape: Path) -> None:
    seen, status = lines_until(["prove", *args], [words])
    assert basis in seen[-1] and status == 130


def test_a_short_run_says_nothing_more(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "python_bridge", "ref", "best", START_6_4, "9"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "" and done.stdout.startswith("best ")


def test_the_search_estimate_is_exact_when_the_probe_reaches_the_depth() -> None:
    position = parse_position(START_6_4)
    estimate = estimate_search(position, 5, STANDARD)
    assert estimate.exact and estimate.nodes == best_move(position, 5).nodes


def test_the_proof_model_is_near_the_measured_proofs() -> None:
    """Kalah(6,1) 190 positions, (6,2) 24,824, (6,3) 65,963,858 (standard rule): within a factor of three."""
    for (pits, seeds), measured in {(6, 1): 190, (6, 2): 24_824, (6, 3): 65_963_858}.items():
        assert measured / 3 <= proof_positions(2 * pits * seeds) <= measured * 3


def test_a_measured_start_is_estimated_by_its_measured_count_and_the_others_by_the_model() -> None:
    """``prove --pits 6 --seeds 3`` once said "of about 40,000,000" (the model) on its way to 65,963,858."""
    assert estimate_proof(6, 3) == 65_963_858 and estimate_proof(6, 3, variants=Variants(empty_capture=True)) \
        == 22_264_266 and estimate_proof(6, 3, value=True) == 93_864_975
    assert estimate_proof(6, 3, variants=Variants(pie_rule=True)) == two_figures(proof_positions(36))
    assert estimate_proof(6, 3, bound=2) == two_figures(proof_positions(36))
    assert estimate_proof(5, 3) == two_figures(proof_positions(30))


def test_progress_never_says_more_than_100_percent(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    ticker = CountTicker("nodes", 40_000_000)
    ticker.last = float("-inf")  # every call prints a line
    for so_far in (10_000_000, 39_999_999, 40_000_000, 41_140_307):
        ticker(so_far)
        ticker.last = float("-inf")
    lines = capsys.readouterr().err.splitlines()
    assert "(25 %)" in lines[0] and "(99 %)" in lines[1] and "(99 %)" in lines[2]  # 100 % only when done
    assert "nodes so far 41,140,307, past the estimate of about 40,000,000  elapsed" in lines[3]
    assert "%" not in lines[3] and "left" not in lines[3]


def test_figures_are_said_as_a_person_says_them() -> None:
    assert [two_figures(n) for n in (7, 652, 1_832_257_654)] == [7, 650, 1_800_000_000]
    assert [span_text(s) for s in (40, 600, 5 * 3600, 9 * 86400, 3e12)] == \
        ["40 s", "10 minutes", "5.0 hours", "9 days", "95,064 years"]
