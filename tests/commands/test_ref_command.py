"""``python -m python_bridge ref``: each command's output, one-line errors with exit 2, batch mode."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.commands import ref as ref_cli

START = "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"
FINISHED = "0 0 0 0 0 0 24 0 0 0 0 0 0 24 e"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = ref_cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_exit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Like ``run`` for argument errors, which argparse reports by exiting."""
    with pytest.raises(SystemExit) as stop:
        ref_cli.main(list(argv))
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def test_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "move", START, "3") == (0, "4 4 0 5 5 5 1 4 4 4 4 4 4 0 s\n", "")


def test_move_with_variant(capsys: pytest.CaptureFixture[str]) -> None:
    text = "2 1 0 1 1 1 0 1 1 1 0 1 1 0 s"
    assert run(capsys, "move", text, "1")[1] == "0 2 1 1 1 1 0 1 1 1 0 1 1 0 n\n"
    assert run(capsys, "move", text, "1", "--empty-capture")[1] == "0 2 0 1 1 1 1 1 1 1 0 1 1 0 n\n"


def test_best(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "best", START, "6") == (0, "best 6 value 3 nodes 538\n", "")


def test_solve(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--pits", "4", "--seeds", "3", "--empty-capture")
    words = out.split()
    assert code == 0 and err == ""
    assert words[:6] == ["value", "8", "pits", "4", "seeds", "3"] and words[6] == "time" and words[7].endswith("s")


def assert_one_line_error(result: tuple[int, str, str], fragment: str) -> None:
    code, out, err = result
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and fragment in err


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (("move", "4 4 4 4 4 4 0 4 4 4 4 4 4 s", "3"), "2m+2 counts"),  # wrong count
        (("move", "4 4 4 x 4 4 0 4 4 4 4 4 4 0 s", "3"), "not a count"),  # malformed
        (("move", "4  4 0 4 4 0 s", "1"), "single spaces"),  # malformed
        (("move", "0 4 4 4 4 4 0 4 4 4 4 4 4 0 s", "1"), "pit 1 is empty"),
        (("move", START, "7"), "out of range"),  # no such pit
        (("move", START, "0"), "out of range"),
        (("move", START, "three"), "pit must be 1 to 6, not 'three'"),
        (("move", START, "--", "--3"), "pit must be 1 to 6"),  # once crashed with a traceback
        (("move", "4 4 4", "3"), "a position ends with the side to move (s, n or e) after its 2m+2 counts"),
        (("move", FINISHED, "1"), "game is over"),
        (("best", FINISHED, "3"), "game is over"),
        (("best", START, "0"), "depth must be 1 to 20, or level"),
        (("best", START, "deep"), "depth must be 1 to 20, or level (the PDP-1's default level), not 'deep'"),
        (("best", START, "Level"), "or level (the PDP-1's default level), not 'Level'"),
        (("best", START, "9999999999999999999"), "depth must be 1 to 20, or level"),
        (("prove", START, "99999999999999999999"), "bound must be a whole number from -99 to 99"),
        (("best", "4 4 0 4 4 0 x", "3"), "side to move"),
        (("solve", "--pits", "6", "--seeds", "6"), "would run for hours"),  # refused before it starts
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                          fragment: str) -> None:
    assert_one_line_error(run(capsys, *argv), fragment)


@pytest.mark.parametrize(
    "argv",
    [
        ("move", START),  # missing pit
        ("best",),  # missing position and depth
        ("solve", "--pits", "4"),  # missing seeds
        ("solve", "--pits", "four", "--seeds", "3"),
        ("solve", "--pits", "7", "--seeds", "4"),
        ("solve", "--pits", "6", "--seeds", "0"),
        ("fly",),
        ("move", START, "3", "--no-such-variant"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run_exit(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert lines[-1].startswith("python -m python_bridge ref") and "error:" in lines[-1]


def test_batch(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    commands = "\n".join(
        [
            f"move {START} 3",
            f"best {START} 2",
            "",  # an empty line is answered too: the n-th answer is the n-th line's
            f"move {START} 9",
            f"best {FINISHED} 2",
            "jump 3",
            f"best {START} --2",
            "move 4 4 0 4 4 s 1",
            f"best {START} 1",
        ]
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands + "\n"))
    code, out, err = run(capsys, "batch")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "4 4 0 5 5 5 1 4 4 4 4 4 4 0 s",
        "best 3 value 2 nodes 17",
        "error an empty line: expected 'move <position> <pit>' or 'best <position> <depth>'",
        "error pit 9 is out of range 1..6",
        "error the game is over",
        "error expected 'move <position> <pit>' or 'best <position> <depth>'",
        "error depth must be 1 to 20, or level (the PDP-1's default level), not '--2'",
        "error a position has 2m+2 counts for m = 1..6 (4 to 14), not 5",
        "best 3 value 1 nodes 7",
    ]


def test_batch_says_its_format_in_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_exit(capsys, "batch", "--help")
    shown = " ".join(out.split())
    assert code == 0 and "'move <position> <pit>'" in shown and "'best <position> <depth>'" in shown
    assert "an empty one too, is answered 'error <why>'" in shown


def test_batch_applies_variants(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("move 2 1 0 1 1 1 0 1 1 1 0 1 1 0 s 1\n"))
    assert run(capsys, "batch", "--empty-capture")[1] == "0 2 0 1 1 1 1 1 1 1 0 1 1 0 n\n"


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "python_bridge", "ref", "move", START, "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "0 5 5 5 5 4 0 4 4 4 4 4 4 0 n\n", "")
    bad = subprocess.run(
        [sys.executable, "-m", "python_bridge", "ref", "move", START, "--", "--3"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1
