"""The bridge's commands as a user runs them: real processes, real SIMH, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("args", [
    ["play", "--pits", "9"],
    ["play", "--level", "x"],
    ["crosscheck", "--games", "0"],
    ["crosscheck", "--player", "oracle"],
    ["fuzz", "--cases", "-5"],
    ["fuzz", "--jobs", "x"],
    ["bench", "--positions", "many"],
    ["nonsense"],
])
def test_bad_command_lines_get_one_clear_line_and_exit_2(bridge, args: list[str]) -> None:
    result = bridge(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip(), "an error message is expected"


def test_play_from_a_pipe_saves_the_record(bridge, kalah_tape, tmp_path: Path) -> None:
    result = bridge("play", "--pits", "3", "--seeds", "2", "--level", "2", "--records", str(tmp_path),
                    stdin="1\n2\n3\n1\n2\n3\n1\n2\n3\n1\n2\n3\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "kalah for the pdp-1" in result.stdout
    # lines left over after the first game's end answer the PDP-1's offer: a second game, its record too
    first, *_others = sorted(tmp_path.glob("kalah-*.txt"))
    text = first.read_text()
    assert "record:" in text and "typewriter transcript:" in text and "result: not finished" not in text


def test_crosscheck_command_reports_its_figures(bridge, kalah_tape) -> None:
    result = bridge("crosscheck", "--games", "4", "--seed", "9", "--jobs", "2", "--all-variants")
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("games 4  moves checked") and "mismatches 0" in last


def test_the_same_seed_gives_the_same_fuzz_cases_whatever_the_jobs() -> None:
    from python_bridge.checking.fuzz import generate

    first = generate(77, 500)
    assert [(g.pits, g.seeds, g.variants, g.lines) for g in first] == \
           [(g.pits, g.seeds, g.variants, g.lines) for g in generate(77, 500)]
    assert sum(len(g.lines) for g in first) == 500
