"""``soak`` passes only on what it measured, says its limits in English, and reads ``--duration -5m`` as a value.

A soak that ends before any server played a game after its warm-up compared nothing,
so "nothing grew" would be empty: it must not pass.  ``--duration -5m`` is a duration
(refused by its range), not "expected one argument".
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOAK = [sys.executable, "-m", "python_bridge", "soak"]
SMALL = ["--pits", "4", "--seeds", "3", "--level", "2"]


@pytest.mark.simh
def test_a_soak_that_measured_nothing_does_not_pass(tmp_path: Path, kalah_tape: Path) -> None:
    # level 14 on six pits of six seeds: a move takes seconds even flat out, so no game ends after the
    # warm-up within the ten seconds, however fast the host (a fast kiosk game at level 2 takes about one)
    slow = ["--pits", "6", "--seeds", "6", "--level", "14"]
    done = subprocess.run(SOAK + ["--games", "1", "--duration", "10", "--kill-every", "0", *slow], cwd=ROOT,
                          capture_output=True, text=True, timeout=180, env={**os.environ, "TMPDIR": str(tmp_path)})
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "until 1 game or 10 s;" in out and "1 games" not in out
    assert "soak passed" not in out and "SOAK FAILED: nothing was measured" in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["-5m", "-90", "-1.5h"])
def test_a_negative_duration_is_answered_by_its_range(value: str) -> None:
    done = subprocess.run(SOAK + ["--duration", value], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "expected one argument" not in done.stderr and repr(value) in done.stderr


def test_an_option_followed_by_an_option_still_wants_its_value() -> None:
    done = subprocess.run(SOAK + ["--duration", "--games", "3"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "argument --duration: expected one argument" in done.stderr
