"""The operator's constants: a table at fixed low addresses that the console may change between games.

The table is the program's own (``pdp1_src/kalah.mac``, in Spacewar's habit: symbol, address,
usual value); docs/pdp1-program.md tells the operator how to deposit into it.  These tests hold
the three in step and show a deposit doing what the docs promise, on the real SIMH.
"""

from __future__ import annotations

import re

import pytest

from python_bridge.checking.thinking import Thinker
from python_bridge.machine.front_panel import DEFAULT_PITS, DEFAULT_SEEDS
from python_bridge.machine.kalah_program import ROOT, ensure_tape, program_symbols
from python_bridge.machine.simh import FULL_SPEED, Simh
from python_bridge.reference.notation import parse_position
from python_bridge.reference.search import NODE_BUDGET, level_move
from tools.papertape import read_tape

# name: (address, the word the tape loads there)
TABLE = {"nbudg": (0o102, NODE_BUDGET), "dseed": (0o103, DEFAULT_SEEDS), "dpits": (0o104, DEFAULT_PITS)}


def test_the_table_is_where_the_source_says_and_holds_the_usual_values(kalah_tape) -> None:
    symbols, memory = program_symbols(), read_tape(ensure_tape().read_bytes()).memory
    for name, (address, usual) in TABLE.items():
        assert symbols[name] == address, name
        assert memory[address] == usual, name
    source = (ROOT / "pdp1_src" / "kalah.mac").read_text()
    # each entry as Spacewar writes it: the symbol, then its address as a label the assembler checks
    listed = re.findall(r"^(\w+),\n([0-7]+),\t", source, re.M)
    assert [(name, int(address, 8)) for name, address in listed] == [(n, a) for n, (a, _) in TABLE.items()]


@pytest.mark.simh
def test_deposited_defaults_set_up_the_game_a_zero_test_word_asks_for(kalah_tape) -> None:
    """Test word 0 means the default seeds and pits: the words at 103 and 104 as deposited."""
    with Simh(FULL_SPEED) as sim:
        sim.load(kalah_tape)
        sim.deposit(TABLE["dseed"][0], 3)
        sim.deposit(TABLE["dpits"][0], 5)
        sim.set_switches(0)
        sim.set_test_word(0)
        sim.go(0o100)
        sim.expect(r"5 pits, 3 seeds, level auto\.", timeout=10)


@pytest.mark.simh
def test_a_deposited_budget_is_the_default_levels_budget(kalah_tape) -> None:
    """The default level searches within the budget the machine holds, read at every move: with
    a smaller one deposited it stops shallower, exactly where the reference does with that budget."""
    position = parse_position("4 4 4 4 4 4 0 4 4 4 4 4 4 0 s")
    small = 900
    assert level_move(position, budget=small).depth < level_move(position).depth  # the budget matters here
    with Thinker(6) as thinker:
        thinker.sim.deposit(program_symbols()["nbudg"], small)
        measured = thinker.measure(position)  # checked against level_move(..., budget=small) inside
    reference = level_move(position, budget=small)
    assert (measured.pit, measured.value, measured.nodes, measured.depth) == \
        (reference.pit, reference.value, reference.nodes, reference.depth)
