"""docs/playing.md's table of options names only what ``play`` takes (it once named a ``--out`` that
never existed), and every option ``play`` takes is in it."""

from __future__ import annotations

import re
from pathlib import Path

from python_bridge.commands.play import build_parser

PLAYING = Path(__file__).resolve().parents[2] / "docs" / "playing.md"


def _documented_options() -> set[str]:
    section = PLAYING.read_text(encoding="utf-8").split("## Options", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {option for row in rows for option in re.findall(r"`(--[a-z-]+)", row.split("|")[1])}


def test_the_documented_options_are_plays_and_all_of_them() -> None:
    taken = {option for action in build_parser()._actions for option in action.option_strings
             if option.startswith("--") and option != "--help"}
    documented = _documented_options()
    assert documented - taken == set(), "documented, but play does not take them"
    assert taken - documented == set(), "play takes them, but docs/playing.md does not say so"
