"""Memory cycles counted from SIMH's history (python_bridge.machine.cycles) against independent counts.

Two independent counts: a small program whose every executed instruction was
counted by hand from the Handbook's table, and the Kalah search itself timed
from the words of its own assembled tape at the PCs SIMH executed (a
classifier written here from the instruction bits, not from SIMH's
mnemonics).
"""

from __future__ import annotations

from collections import Counter

import pytest

from python_bridge.machine.cycles import CycleCounter, HistoryEntry, entry_cycles, parse_history, seconds
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import DiagnosticConsole, KalahMachine, ensure_tape, program_symbols
from python_bridge.machine.simh import BreakpointReached, MachineHalted, Simh
from python_bridge.reference.rules import start_position
from python_bridge.reference.search import best_move
from tools.papertape import read_tape

# Every instruction executed, with its cycles by the table (comments), counted by hand:
# before the loop 2 instructions, 3 cycles; each pass 14 instructions, 27 cycles, plus
# `jmp lp` (1 cycle) on every pass but the last; after it 3 instructions, 4 cycles.
HAND_COUNTED = """cycles by hand
100/
go,	law i {n}	/ 1  (law i: a negative number, no indirect)
	dac cnt		/ 2
lp,	lac i pp	/ 3  one indirect level
	add (1		/ 2
	dac tmp		/ 2
	lac i ppp	/ 4  two levels: ppp holds i pp
	xct xl		/ 3  1 + lac
	xct xj		/ 2  1 + jmp
nx,	jda sub		/ 2
	sza i		/ 1  inverted skip: AC holds the return, not zero: skips the hlt
	hlt
	cla cli		/ 1
	ral 1s		/ 1
	szs 10		/ 1  sense switch 1 is off: skips the nop
	nop
	isp cnt		/ 2  skips on the last pass
	jmp lp		/ 1
	jmp i pe	/ 2
fin,	cks		/ 1  an IOT
	hlt		/ 1
sub,	0
	dap sbx		/ 2
sbx,	jmp .		/ 1
xl,	lac cnt
xj,	jmp nx
cnt,	0
tmp,	0
pp,	cnt
ppp,	i pp
pe,	fin
	constants
	start go
"""


def _hand_count(passes: int) -> tuple[int, int]:
    return 2 + 14 * passes + (passes - 1) + 3, 3 + 27 * passes + (passes - 1) + 4


@pytest.mark.parametrize("passes, history", [(3, 64), (100, 64), (100, 4096)])
def test_cycles_agree_with_the_hand_count(passes: int, history: int) -> None:
    with Simh() as sim:
        sim.load_source(HAND_COUNTED.format(n=f"{passes:o}"))
        sim.deposit("pc", 0o100)
        counter = CycleCounter(sim, history=history)
        with pytest.raises(MachineHalted):
            counter.step(100_000)  # slices of ``history`` instructions, the last cut short by the hlt
    assert (counter.instructions, counter.cycles) == _hand_count(passes)


def test_history_lines_and_the_i_that_is_not_an_indirect() -> None:
    text = """PC      OV AC     IO      PF EA      IR

000100  0  000000 000000 000         LAW I 3
000101  0  777774 000000 000 000121  DAC 121 [210122]
000102  0  000005 000000 000 000121  LAC I 122 [400124]
000104  0  000006 000000 000         SZA I
000105  0  000006 000000 000         SZF I 1
000106  0  000006 000000 000 000121  XCT 120 [170115]
000107  0  000005 000000 000         JDA 115 [260117]
000110  0  000005 000000 000         TYO I
000111  0  000005 000000 000 000300  JMP I 300 [000300]
"""
    entries = parse_history(text)
    assert [(e.mnemonic, e.indirect, e.address) for e in entries] == [
        ("LAW", False, None), ("DAC", False, 0o121), ("LAC", True, 0o122), ("SZA", False, None),
        ("SZF", False, None), ("XCT", False, 0o120), ("JDA", False, None), ("TYO", False, None),
        ("JMP", True, 0o300)]
    core = {0o122: 0o121, 0o120: 0o200121, 0o300: 0o010301, 0o301: 0o000500}  # 300 -> i 301 -> 500
    cycles = [entry_cycles(e, core.__getitem__) for e in entries]
    assert cycles == [1, 2, 3, 1, 1, 3, 2, 1, 3]
    assert entry_cycles(HistoryEntry(0, "CAL", False, None, None), core.__getitem__) == 2
    assert seconds(200_000) == 1.0


def _word_cycles_from_bits(word: int, core: dict[int, int]) -> int:
    """The Handbook's table applied to an instruction word, written apart from the module's own."""
    op, indirect = word >> 13, (word >> 12) & 1
    if op == 0o07:
        return 2  # jda, cal
    assert op != 0o04, "the Kalah program has no xct"
    if op in (0o30, 0o31):
        base = 1  # jmp, jsp
    elif 0o01 <= op <= 0o27:
        base = 2
    else:
        return 1  # skip, shift, law, iot, operate: the bit is no indirect there
    levels, pointer = 0, word
    while indirect:
        levels += 1
        pointer = core[pointer & 0o7777]
        indirect = (pointer >> 12) & 1
    return base + levels


def test_the_kalah_search_agrees_with_a_count_from_its_own_tape() -> None:
    """The b command's search, timed by the counter and from the tape's words at the PCs it ran."""
    core = read_tape(ensure_tape().read_bytes()).memory
    symbols = program_symbols()
    position = start_position(6, 4)
    with KalahMachine(PanelSettings(diagnostic=True)) as machine:
        console = DiagnosticConsole(machine)
        sim = machine.sim
        console.set_position(position)
        sim.stop()
        sim.set_breakpoint(symbols["best"])
        sim.set_breakpoint(symbols["bestx"])
        sim.cont()
        console.sync()  # cont flushes typed keys: wait until the program reads again
        sim.type("b 3\r")
        stop = sim.wait_for_stop(30)
        assert isinstance(stop, BreakpointReached) and stop.pc == symbols["best"]
        before = sim.instructions()
        counter = CycleCounter(sim)
        counter.by_address = Counter()
        counter.run_to(symbols["bestx"], 65_536)  # one slice: the history still holds it all
        ran = sim.instructions() - before
        listing = sim.command("show cpu history=65536", timeout=60)
        pcs = [e.pc for e in parse_history(listing)]
        sim.clear_breakpoint()
        sim.cont()
        answer = sim.expect(r"best (\d+) value (-?\d+) nodes (\d+)\r\n", timeout=30)
    assert int(answer.group(3)) == best_move(position, 3).nodes
    assert len(pcs) == counter.instructions == ran
    assert pcs[0] == symbols["best"]
    independent = sum(_word_cycles_from_bits(core[pc], core) for pc in pcs)
    assert abs(counter.cycles - independent) <= independent / 100  # the 1 %; in fact equal
    assert counter.cycles == independent
    assert 1.5 < counter.cycles / counter.instructions < 2.2
    # the profile: every instruction's cycles under its own address, the same as timed from its word
    assert counter.by_address == Counter({pc: _word_cycles_from_bits(core[pc], core) * n
                                          for pc, n in Counter(pcs).items()})


def test_the_bench_profile_shares_out_exactly_the_search_cycles(kalah_tape) -> None:
    from python_bridge.bench.figures import PARTS, measure_search

    (plain,) = measure_search([start_position()], [4])
    (profiled,) = measure_search([start_position()], [4], profile=4)
    assert plain.parts is None and profiled.parts is not None
    assert (profiled.nodes, profiled.cycles) == (plain.nodes, plain.cycles)
    assert sum(profiled.parts.values()) == profiled.cycles
    assert set(profiled.parts) == set(PARTS) and all(cycles > 0 for cycles in profiled.parts.values())
