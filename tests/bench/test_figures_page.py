"""make figures' page: each section a command's verbatim output with its command line, date and cores;
sections not run are kept, a failed command keeps its old section and fails the run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.bench.figures_page import (
    BY_NAME,
    DEFAULT,
    SECTIONS,
    Section,
    choose,
    compose,
    kept_sections,
    write_page,
)

ROOT = Path(__file__).resolve().parents[2]
TAPE_CHECK = Section("bench", "The tape", "The tape's own check.", "tools.tape", ("check", "build/kalah.rim"))


def test_a_section_is_its_commands_output_and_the_others_are_kept(tmp_path: Path) -> None:
    page = tmp_path / "figures.md"
    page.write_text(compose({"contract": "<!-- section contract -->\nkept as it was\n<!-- /section contract -->\n"}))
    said: list[str] = []
    assert write_page([TAPE_CHECK], page, said.append) == 0
    expected = subprocess.run([sys.executable, "-m", "tools.tape", "check", "build/kalah.rim"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
    blocks = kept_sections(page)
    assert list(blocks) == [section.name for section in SECTIONS]
    assert f"```text\n{expected}\n```" in blocks["bench"]
    assert "`.venv/bin/python -m tools.tape check build/kalah.rim`" in blocks["bench"]
    assert " cores, took " in blocks["bench"]
    assert "kept as it was" in blocks["contract"]
    assert "Not run yet" in blocks["strength"] and "FIGURES=strength" in blocks["strength"]
    assert said[-1].startswith("figures: 1 of 1 sections written")


def test_a_failed_command_keeps_the_old_section_and_fails_the_run(tmp_path: Path) -> None:
    page = tmp_path / "figures.md"
    old = "<!-- section bench -->\nthe last good output\n<!-- /section bench -->\n"
    page.write_text(compose({"bench": old}))
    broken = Section("bench", "The tape", "A tape that is not there.", "tools.tape",
                     ("check", str(tmp_path / "none.rim")))
    said: list[str] = []
    assert write_page([broken], page, said.append) == 1
    assert kept_sections(page)["bench"] == old
    assert any("FAILED" in line and "exit status 2: tape: cannot read" in line for line in said)


def test_sections_are_chosen_by_name_default_or_all() -> None:
    assert [s.name for s in choose("default")] == list(DEFAULT) and not any(s.long for s in choose("default"))
    assert choose("all") == list(SECTIONS)
    assert choose("strength,bench") == [BY_NAME["bench"], BY_NAME["strength"]]
    with pytest.raises(ValueError, match="unknown section 'nope'"):
        choose("bench,nope")
