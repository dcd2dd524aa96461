"""Exit statuses: 0 done, 1 failure, 2 usage error, 3 a limit reached on a legal input (``tools.cli_args``).

``ref prove`` on the standard 6-pit, 4-seed start is a legal question whose proof needs
more than the 100 plies the PDP-1's frames hold: that is a limit of the machine (and of
the reference, which keeps it), status 3, not the bad-input status 2.  The PDP-1's own
``prove`` answers ``error`` there, and so does the reference: 3 too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tools.cli_args import EXIT_FAILURE, EXIT_LIMIT, EXIT_OK, EXIT_STATUSES, EXIT_USAGE

ROOT = Path(__file__).resolve().parents[2]
START_6_4 = "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"
LIMIT_LINE = "the proof needs more than 100 plies"


def bridge(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def test_the_statuses_are_four_named_constants_and_help_lists_them() -> None:
    assert (EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_LIMIT) == (0, 1, 2, 3) and set(EXIT_STATUSES) == {0, 1, 2, 3}
    shown = bridge("--help").stdout
    assert all(f"{code} {meaning}" in shown for code, meaning in EXIT_STATUSES.items())


def test_a_bad_question_is_still_a_usage_error() -> None:
    done = bridge("ref", "prove", START_6_4, "100")
    assert done.returncode == EXIT_USAGE and "the bound must be -99 to 99" in done.stderr


@pytest.mark.slow
def test_a_proof_deeper_than_the_frames_is_a_limit_not_a_usage_error() -> None:
    """About a minute of the reference's search (several on a busy machine) before the limit is reached."""
    done = bridge("ref", "prove", START_6_4, "0", timeout=1800)
    assert done.returncode == EXIT_LIMIT and done.stdout == ""
    assert done.stderr.startswith("note: the proof (about ")  # announced first: it runs for minutes
    assert done.stderr.splitlines()[-1] == f"error: {LIMIT_LINE} (a limit, not a mistake in the input)"


@pytest.mark.slow
@pytest.mark.simh
def test_the_pdp1s_proof_past_its_frames_is_a_limit_too(kalah_tape: Path) -> None:
    """The PDP-1 searches until its frames run out and answers error; the reference, checking it, agrees."""
    done = bridge("prove", "--pits", "6", "--seeds", "4", "--no-cycles", timeout=3600)
    assert done.returncode == EXIT_LIMIT, done.stderr[-500:]
    assert done.stderr.splitlines()[-1] == \
        f"error: {LIMIT_LINE}: the PDP-1 answered error too (a limit, not a mistake in the input)"


PLAYING = ROOT / "docs" / "playing.md"


def _command_table() -> dict[str, list[str]]:
    """docs/playing.md's table of what each command means by each status: command -> cells 0 to 3."""
    section = PLAYING.read_text(encoding="utf-8").split("## Exit statuses", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table: dict[str, list[str]] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        for name in cells[0].replace("`", "").split(","):
            table[name.strip()] = cells[1:]
    return table


def test_one_table_says_what_every_command_means_by_each_status() -> None:
    from python_bridge.__main__ import COMMANDS

    section = PLAYING.read_text(encoding="utf-8").split("## Exit statuses", 1)[1]
    assert "| command | 0 | 1 | 2 | 3 |" in section  # the columns are the four statuses, in order
    table = _command_table()
    assert set(COMMANDS) | {"--version", "--help"} == set(table), "a command missing from the table, or a stale one"
    assert all(len(cells) == len(EXIT_STATUSES) for cells in table.values())
    assert "pdp1" in table["replay"][1] and "breaks the rules" in table["replay"][2]
    assert all(cells[3] == "-" for name, cells in table.items() if name not in ("ref", "prove"))


@pytest.mark.parametrize("args, status", [
    (("--version", "extra"), EXIT_USAGE),
    (("crosscheck", "--player-depth", "5"), EXIT_USAGE),  # the random player does not search
    (("crosscheck", "--all-variants", "--pie-rule"), EXIT_USAGE),
])
def test_the_statuses_the_table_promises(args: tuple[str, ...], status: int) -> None:
    done = bridge(*args)
    assert done.returncode == status and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr


def test_the_cross_assembler_answers_a_missing_file_as_macro1_does(tmp_path: Path) -> None:
    """The table's last line: tools.macro keeps macro1's 255 and its message, to stand in for it."""
    missing = str(tmp_path / "nonexistent.mac")
    mine = subprocess.run([sys.executable, "-m", "tools.macro", missing], cwd=ROOT, capture_output=True, timeout=60)
    real = subprocess.run(["/usr/bin/macro1", missing], cwd=tmp_path, capture_output=True, timeout=60)
    assert mine.returncode == real.returncode == 255
    said = f'macro1: cannot open "{missing}"\n'.encode()
    assert mine.stderr == real.stderr.replace(b"/usr/bin/macro1", b"macro1") == said
    assert "255 a file it cannot open" in PLAYING.read_text(encoding="utf-8")
