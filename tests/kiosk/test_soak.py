"""``make soak``: its options' ranges (one line, exit 2), a short run with the pdp1 and the server killed
on purpose, and a run stopped by SIGTERM that leaves nothing behind.  The long runs are `make soak`'s."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from python_bridge.exhibit.procinfo import descendants
from tests.kiosk.kiosk_support import ROOT
from tests.processes import still_running

SOAK = [sys.executable, "-m", "python_bridge", "soak"]
SMALL = ["--pits", "4", "--seeds", "3", "--level", "2"]


@pytest.mark.parametrize("args, words", [
    (["--games", "0"], "--games: 0 is out of range (1 to 1,000,000)"),
    (["--games", "many"], "--games: 'many' is not a whole number"),
    (["--duration", "5"], "--duration: must be from 10 s"),
    (["--duration", "2y"], "--duration: must be a duration such as 90, 90s, 30m, 2h or 1d"),
    (["--duration", "nan"], "--duration: must be a duration such as"),
    (["--kill-every", "-1"], "--kill-every: -1 is out of range (0 to"),
    (["--restart-every", "1.5"], "--restart-every: '1.5' is not a whole number"),
    (["--pits", "7"], "--pits: 7 is out of range (1 to 6)"),
    (["--seeds", "0"], "--seeds: 0 is out of range (1 to 6)"),
    (["--level", "21"], "--level: 21 is out of range (0 to 20)"),
    (["--timeout", "0"], "--timeout: must be from 10 s"),
    (["--duration", "60", "--timeout", "30"], "--timeout: must not be shorter than --duration"),
])
def test_every_soak_option_has_a_range(args: list[str], words: str) -> None:
    done = subprocess.run(SOAK + args, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.simh
def test_a_short_soak_survives_killed_emulators_and_servers(tmp_path, kalah_tape) -> None:
    done = subprocess.run(SOAK + ["--games", "4", "--kill-every", "1", "--restart-every", "2", *SMALL], cwd=ROOT,
                          capture_output=True, text=True, timeout=240, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "soak passed" in out and "mismatches:        0   errors: 0" in out
    assert "server restarts:   1 (killed with SIGKILL on purpose); server starts 2" in out
    assert "pdp1 killed" in out and "open files" in out and "rotations seen" in out
    assert list(tmp_path.iterdir()) == []  # its temporary folder is gone


@pytest.mark.simh
def test_a_soak_stopped_by_sigterm_stops_its_server_and_pdp1_and_tidies_up(tmp_path, kalah_tape) -> None:
    soak = subprocess.Popen(SOAK + ["--duration", "10m", "--kill-every", "0", *SMALL], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        deadline = time.monotonic() + 60
        below: list[int] = []
        while time.monotonic() < deadline and len(below) < 2:  # the server and its pdp1
            time.sleep(0.5)
            below = descendants(soak.pid)
        assert len(below) >= 2, below
        time.sleep(2)
        below = descendants(soak.pid)
        soak.send_signal(signal.SIGTERM)
        out, err = soak.communicate(timeout=60)
    finally:
        if soak.poll() is None:
            soak.kill()
            soak.wait(10)
    assert soak.returncode == 130, out + err
    assert "Traceback" not in out + err and "soak stopped (SIGTERM or Ctrl-C)" in out
    assert not still_running(below), "processes left behind"
    assert list(tmp_path.iterdir()) == []
