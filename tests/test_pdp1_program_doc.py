"""docs/pdp1-program.md states addresses and panel bits: each is checked against the program itself.

The page's core maps (one a tape), its table of the operator's constants and its sense switches
are typed by hand; these tests read them back and compare them with the assembled tapes, their
symbol tables and the bridge's front-panel encoding, so the page cannot drift from the program.
"""

from __future__ import annotations

import re

import pytest

from python_bridge.machine import front_panel
from python_bridge.machine.kalah_program import PROGRAMS, ROOT, Program, ensure_tape, program_symbols
from tools.papertape import read_tape

PAGE = ROOT / "docs" / "pdp1-program.md"
LOADER_START = 0o7751


def _rows(pattern: str, text: str | None = None) -> list[tuple[str, ...]]:
    return re.findall(pattern, PAGE.read_text() if text is None else text, re.M)


def _core_map(program: Program) -> str:
    """The page's core map of one tape: the section headed with its tape's name."""
    sections = re.split(r"^### ", PAGE.read_text(), flags=re.M)
    mine = [s for s in sections if s.splitlines()[0].endswith(f"`build/{program.name}.rim`")]
    assert len(mine) == 1, f"one core map headed ... `build/{program.name}.rim`"
    return mine[0].split("\n## ")[0]


each_tape = pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)


@each_tape
def test_the_core_map_rows_are_the_symbols_addresses(kalah_tape, program: Program) -> None:
    symbols = program_symbols(program)
    rows = _rows(r"^\| ([0-7]{4}) \| `(\w+)` \|", _core_map(program))
    assert len(rows) >= 15, rows
    wrong = [(address, name) for address, name in rows if symbols.get(name) != int(address, 8)]
    assert not wrong, wrong


@each_tape
def test_the_core_maps_free_words_are_free(kalah_tape, program: Program) -> None:
    memory = read_tape(ensure_tape(program=program).read_bytes()).memory
    top = max(max(memory) + 1, program_symbols(program)["cend"])
    free = [(int(a, 8), int(b, 8)) for a, b in _rows(r"^\| ([0-7]{4})-([0-7]{4}) \| \| free", _core_map(program))]
    assert free == [(0, 0o77), (top, LOADER_START - 1)]
    assert min(memory) == 0o100


def test_the_operators_constants_are_where_the_page_says(kalah_tape) -> None:
    symbols, memory = program_symbols(), read_tape(ensure_tape().read_bytes()).memory
    rows = _rows(r"^\| `(\w+)` \| ([0-7]{4}) \| ([0-7]{6}) ")
    assert [name for name, _, _ in rows] == ["nbudg", "dseed", "dpits"]
    for name, address, usual in rows:
        assert symbols[name] == int(address, 8), name
        assert memory[int(address, 8)] == int(usual, 8), name


def test_the_sense_switches_are_the_bridges(kalah_tape) -> None:
    bits = {int(n): int(b, 8) for n, b in _rows(r"^\| ([1-6]) \| (0[0-7]{2}) \|")}
    assert bits == {1: front_panel.SW_PDP1_FIRST, 2: front_panel.SW_EMPTY_CAPTURE,
                    3: front_panel.SW_DEFERRED_END, 4: front_panel.SW_REMAINDER_VOID,
                    5: front_panel.SW_PIE_RULE, 6: front_panel.SW_DIAGNOSTIC}
