"""``bench-online`` prints its table: a row a step of the ramp, every visitor's game completed over real
WebSockets on the real server and SIMH, and the capacity line (a small ramp; the figures are the command's,
``make bench-online``, never asserted here)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from python_bridge.bench.online_load import HEADER
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
