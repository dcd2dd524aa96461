"""The look at a waiting PDP-1 finds it in its keyboard loop, or a few instructions short of it (looked at as
its question's last character came out), and a program elsewhere is still found astray."""

from __future__ import annotations

import textwrap

from python_bridge.driver.keyboard_loop import ON_THE_WAY, reached_loop
from python_bridge.machine.simh import BreakpointReached, Simh
from tools.macro import assemble

# types "a" after a delay of some 1,000 instructions, then waits for a key in gc1 (or, from "lost", loops forever)
PROGRAM = textwrap.dedent("""\
    keyboard loop test
    100/
    go,	law i 500
    	dac cnt
    dl,	isp cnt
    	jmp dl
    	lio (61
    	tyo
    gc1,	szf i 1
    	jmp gc1
    	hlt
    lost,	jmp lost
    cnt,	0
    	constants
    	start go
    """)


def _stopped_at(sim: Simh, symbols: dict[str, int], start: str, where: str) -> int:
    """The machine started at ``start`` and stopped by a breakpoint at ``where`` (cleared again): its PC."""
    sim.set_breakpoint(symbols[where])
    sim.go(symbols[start])
    stop = sim.wait_for_stop(10)
    sim.clear_breakpoint(symbols[where])
    assert isinstance(stop, BreakpointReached) and stop.pc == symbols[where], stop
    return stop.pc


def test_a_program_short_of_its_loop_reaches_it_and_one_elsewhere_does_not(tmp_path) -> None:
    program = assemble(PROGRAM)
    assert program.ok, program.messages
    tape = tmp_path / "k.rim"
    tape.write_bytes(program.tape)
    symbols = program.symbols
    loop = (symbols["gc1"], symbols["gc1"] + 1)
    assert ON_THE_WAY > 2 * 500 + 10
    with Simh(timeout=20) as sim:
        sim.load(tape)
        pc = _stopped_at(sim, symbols, "go", "dl")  # in the delay, before the question's "a"
        assert pc not in loop
        assert reached_loop(sim, pc, loop) in loop
        assert "a" in sim.read_some(5)  # what it typed on the way is still there to be read
        assert reached_loop(sim, symbols["gc1"], loop) == symbols["gc1"]  # there already: not stepped
        pc = _stopped_at(sim, symbols, "lost", "lost")
        assert reached_loop(sim, pc, loop) == symbols["lost"]  # astray, and still astray
