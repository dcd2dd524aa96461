"""Options are read without side effects, and an option that would be ignored is refused.

Reading the command line creates nothing: ``--records X --help`` leaves no X, and of
``--records A --records B`` only B, the folder used, is made (when the work starts).
``demo --proof`` is a show of its own: the options it would silently ignore are named and
refused in one line.  A FIFO or a device named as an input file is refused, never waited on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def bridge(*args: str, cwd: Path = ROOT, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "python_bridge", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, input=stdin)


def one_line_exit_2(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("command", ["play", "demo"])
def test_help_with_records_creates_nothing(command: str, tmp_path: Path) -> None:
    done = bridge(command, "--records", str(tmp_path / "X"), "--help")
    assert done.returncode == 0 and "--records" in done.stdout
    assert not (tmp_path / "X").exists()


def test_a_refused_command_line_creates_no_folder(tmp_path: Path) -> None:
    one_line_exit_2(bridge("play", "--records", str(tmp_path / "X"), "--level", "99"))
    assert not (tmp_path / "X").exists()


@pytest.mark.simh
def test_only_the_folder_used_is_made(tmp_path: Path, kalah_tape: Path) -> None:
    """A real game on SIMH, left after one move (end of input): its record goes in B; A never exists."""
    done = bridge("play", "--records", str(tmp_path / "A"), "--records", str(tmp_path / "B"), "--pits", "3",
                  "--seeds", "1", stdin="1\n")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "A").exists() and (tmp_path / "B").is_dir()
    assert str(tmp_path / "B") in done.stdout


def test_a_records_folder_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path, kalah_tape: Path) -> None:
    (tmp_path / "a-file").write_text("")
    text = one_line_exit_2(bridge("play", "--records", str(tmp_path / "a-file")))
    assert "--records: cannot write in the folder" in text and "your move" not in text


def test_the_proof_refuses_the_options_it_would_ignore(tmp_path: Path) -> None:
    text = one_line_exit_2(bridge("demo", "--fast", "--proof", "--pits", "3", "--no-captions", "--records",
                                  str(tmp_path / "X")))
    assert "--proof is a show of its own" in text and "--pits, --no-captions, --records do not apply" in text
    assert not (tmp_path / "X").exists()
    for option in (["--seeds", "4"], ["--level", "0"], ["--script", str(ROOT / "README.md")], ["--visitor"],
                   ["--first", "pdp-1"], ["--pie-rule"], ["--records", str(tmp_path / "Y")], ["--no-cap"]):
        text = one_line_exit_2(bridge("demo", "--proof", *option))
        assert "does not apply" in text
    assert not (tmp_path / "Y").exists()


def test_a_script_with_no_captions_is_refused() -> None:
    text = one_line_exit_2(bridge("demo", "--no-captions", "--script", str(ROOT / "python_bridge/demo/script.txt")))
    assert "--no-captions shows no captions: --script does not apply" in text


def test_a_fifo_or_a_device_as_the_caption_script_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "script.fifo")
    for name, words in ((tmp_path / "script.fifo", "FIFO"), (Path("/dev/zero"), "character device"),
                        (tmp_path, "folder")):
        text = one_line_exit_2(bridge("demo", "--fast", "--script", str(name)))
        assert words in text and "not a regular file" in text
