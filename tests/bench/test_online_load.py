"""``bench-online`` prints its table: a row a step of the ramp, every visitor's game completed over real
WebSockets on the real server and SIMH, and the capacity line (a small ramp; the figures are the command's,
``make bench-online``, never asserted here)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from python_bridge.bench.online_load import HEADER
from python_bridge.bench.online_targets import Target, run_targets
from tests.kiosk.kiosk_support import ROOT

pytestmark = pytest.mark.simh


def test_a_small_ramp_prints_a_row_a_step_and_the_capacity(kalah_tape) -> None:
    done = subprocess.run([sys.executable, "-m", "python_bridge", "bench-online", "--steps", "1,3", "--pace", "fast",
                           "--think", "0.2-0.4", "--strength", "gentle"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bench-online: pace fast, strength gentle") and lines[1] == HEADER
    rows = [line.split() for line in lines[2:4]]
    assert [(row[0], row[1]) for row in rows] == [("1", "1"), ("3", "3")]  # visitors, games completed
    assert all(row[10] == "0" and row[11] == "0" for row in rows)  # no errors, no mismatches
    assert all(len(row) == 14 and row[13] == "-" for row in rows)  # the pace column: "-", fast is unpaced
    assert lines[4].startswith("capacity: ")


# (two clusters of PostgreSQL, HAProxy and servers, 50 s of a test worker between them: make test-slow runs them,
# and make figures FIGURES=online-cluster,online-failover runs the commands in full)
@pytest.mark.slow
def test_past_one_host_the_same_table_twice_with_shares_and_costs(kalah_tape) -> None:
    """``--servers 2``: one server on SQLite, then two on PostgreSQL behind HAProxy, in one run: the same rows,
    and under each of the two servers' the shares of the games and HAProxy's and PostgreSQL's costs."""
    done = subprocess.run([sys.executable, "-m", "python_bridge", "bench-online", "--steps", "2", "--pace", "fast",
                           "--think", "0.3-0.5", "--strength", "gentle", "--servers", "2", "--max-games", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bench-online: pace fast") and lines[1] == HEADER
    second = lines.index("") + 1
    assert lines[second].startswith("bench-online, 2 servers on PostgreSQL behind HAProxy:")
    assert lines[second + 1] == HEADER and lines[second + 2].split()[:2] == ["2", "2"]
    shares = lines[second + 3].strip()
    assert shares.startswith("servers' shares ") and "haproxy" in shares and "postgresql" in shares
    assert shares.replace(";", "").split()[2:4] == ["50%", "50%"]  # one machine each: a game on each server
    assert lines[-1].startswith("capacity: ")


@pytest.mark.slow
def test_a_visitors_server_killed_is_timed_to_the_next_question(kalah_tape) -> None:
    done = subprocess.run([sys.executable, "-m", "python_bridge", "bench-online", "--servers", "2", "--kills", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[1:5]] == ["kill -9  1", "kill -9  2", "kill -STOP  1",
                                                           "kill -STOP  2"]
    assert lines[-2].startswith("failover, killed") and lines[-1].startswith("failover, stopped")


def test_kills_need_somewhere_to_go(bridge) -> None:
    refused = bridge("bench-online", "--kills", "3")
    assert refused.returncode == 2 and "--kills needs --servers 2 or more" in refused.stderr


def test_target_rows_each_on_a_server_of_its_own_with_met_or_not(kalah_tape, capsys) -> None:
    small = (Target("fast", "gentle", 2, (0.1, 0.3), 1.5), Target("fast", "gentle", 1, (0.0, 0.1), 0.001))
    assert run_targets(7, 4, small) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bench-online targets: ") and "max_games 4" in lines[0]
    for n, target in enumerate(small):
        heading, header, row = lines[1 + 3 * n: 4 + 3 * n]
        assert heading.startswith(target.label() + ", max_games 4: target reply p95 <= ")
        assert heading.endswith((": met", ": NOT MET")) and "all playing at once" in heading
        assert header == "  " + HEADER
        cells = row.split()
        assert cells[:2] == [str(target.visitors)] * 2 and cells[10:12] == ["0", "0"]  # all finished; no errors
        assert cells[13] == "-"  # the pace: fast is unpaced (a 1960 row takes minutes: make bench-online's)
    assert lines[4].endswith(": NOT MET")  # no reply comes within a millisecond
    assert lines[7] == f"targets met: {sum(line.endswith(': met') for line in lines)} of 2"


def test_targets_measure_one_server(bridge) -> None:
    refused = bridge("bench-online", "--targets", "--servers", "2")
    assert refused.returncode == 2 and "--targets measures one server" in refused.stderr
