"""SIMH's pdp1 as WebAssembly (make web) beside Debian's /usr/bin/pdp1, on the same tapes and keys: the same
typewriter output byte for byte, the same instruction counts, the same stops; and its slices exact."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from python_bridge.machine.simh import BreakpointReached, MachineHalted, Simh, SimhTimeout, UntypableKeys
from python_bridge.machine.simh_console import ConsoleCommands
from python_bridge.machine.simh_errors import SimhError
from python_bridge.machine.wasm_port import NodePort
from python_bridge.machine.wasm_simh import WasmSimh
from tests.programs import need
from tests.web.kalah_by_keys import play
from tools.macro import assemble

# Types "hi", counts a loop down from 1000 (a breakpoint inside it), types "ok", reads a key and halts.
PROGRAM = textwrap.dedent("""\
    wasm test
    100/
    go,	lio (70
    	tyo
    	lio (71
    	tyo
    	law i 1750
    	dac n
    lp,	isp n
    	jmp lp
    out,	lio (46
    	tyo
    	lio (42
    	tyo
    	lio (77
    	tyo
    wt,	szf i 1
    	jmp wt
    	clf 1
    	tyi
    	dio key
    	hlt
    n,	0
    key,	0
    	constants
    	start go
    """)


@pytest.fixture(scope="module")
def program() -> tuple[bytes, dict[str, int]]:
    prog = assemble(PROGRAM)
    assert prog.ok and prog.tape, prog.messages
    return prog.tape, prog.symbols


def run_program(sim: ConsoleCommands, tape: bytes, symbols: dict[str, int]) -> list[object]:
    """Everything observable of PROGRAM's run, in order: output, stops, counts, PCs and words."""
    seen: list[object] = []
    sim.set_breakpoint(symbols["lp"] + 1)
    sim.read_in_tape(tape)
    for turn in range(3):  # three turns of the loop, each a breakpoint
        with pytest.raises(BreakpointReached) as stop:
            sim.expect("never typed")
        seen += [stop.value.pc, sim.instructions(), sim.examine(symbols["n"])]
        if turn < 2:
            sim.cont()
    seen += [sim.step(1), sim.instructions()]  # (from the breakpoint: one instruction, the loop's jmp)
    sim.clear_breakpoint()
    sim.cont()
    before, _match = sim.expect_output(r"ok\r\n")
    seen.append(before)
    sim.type("K")  # upper case: a shift, then the letter at the next poll (the program takes the shift)
    with pytest.raises(MachineHalted) as halt:
        sim.expect("never typed")
    # (no count here: a key reaches a running pdp1 whenever its host delivers it, so the count includes
    # the host's time spun in the keyboard loop)
    seen += [halt.value.address, sim.examine(symbols["key"]), sim._unread]
    return seen


def test_the_wasm_machine_matches_native_on_a_program(program: tuple[bytes, dict[str, int]]) -> None:
    need("node")
    tape, symbols = program
    with Simh() as native, WasmSimh() as wasm:
        expected, got = run_program(native, tape, symbols), run_program(wasm, tape, symbols)
    assert got == expected
    assert got[-3] == symbols["key"] - 2 and got[-2] == 0o74  # halted at its hlt; the shift key read
    assert got[9] == ("hi", symbols["lp"])  # the step gave the output not yet read, and where it left the PC
    assert got[-1] == "K"  # SIMH's echo of the key


@pytest.mark.parametrize("switches, test_word, moves", [
    (0, 2 << 6, "615243"),  # depth 2, the visitor first
    (0o60, 0, "162534"),  # the PDP-1 first, empty capture, the program's own level
], ids=["depth2", "pdp1-first-empty-capture"])
def test_a_whole_kalah_game_is_the_same_on_both(kalah_tape: Path, switches: int, test_word: int, moves: str) -> None:
    need("node")
    gc1 = json.loads(kalah_tape.with_suffix(".sym.json").read_text())["gc1"]
    with Simh() as native, WasmSimh() as wasm:
        expected = play(native, kalah_tape.read_bytes(), gc1, switches, test_word, moves)
        got = play(wasm, kalah_tape.read_bytes(), gc1, switches, test_word, moves)
    assert "game over." in got.typed and len(got.keys) > 20
    assert got.typed == expected.typed  # byte for byte, SIMH's echo of every key included
    assert got.stretches == expected.stretches  # read-in to the first question, each key to the next question


def test_a_slice_runs_exactly_its_budget(kalah_tape: Path) -> None:
    need("node")
    port = NodePort(timeout=20)
    try:
        port.write_file("/kalah.rim", kalah_tape.read_bytes())
        assert port.command("attach ptr /kalah.rim", 0).status == 0
        first = port.command("boot ptr", 12_345)
        assert first.spent and first.stop == "" and first.status == 0
        assert port.command("show time", 0).output == "Time:\t12345\n"
        assert port.command("cont", 1_000).spent
        assert port.command("show time", 0).output == "Time:\t13345\n"
        stepped = port.command("step 7", 0)  # a step's own end is a stop, not a budget's
        assert not stepped.spent and stepped.stop.startswith("\nStep expired, PC: ")
        unknown = port.command("frobnicate", 0)
        assert unknown.status != 0 and unknown.output == "Unknown command\n"
        with pytest.raises(SimhError, match="no such op"):
            port._ask({"op": "frobnicate"})
    finally:
        port.close()
    assert port.process.returncode is not None


def test_the_wasm_machine_refuses_what_simh_refuses(program: tuple[bytes, dict[str, int]]) -> None:
    need("node")
    _tape, symbols = program
    with WasmSimh() as sim:
        with pytest.raises(SimhError, match="Unit not attached"):
            sim._start("boot ptr")
        with pytest.raises(UntypableKeys):
            sim.type("\x05")
        sim.load_source(PROGRAM)
        sim.go(0o100)
        with pytest.raises(SimhError, match="while the machine runs"):
            sim.command("show time")
        with pytest.raises(SimhTimeout):
            sim.wait_for_stop(timeout=0.5)  # it waits for a key: no stop, and its time is up
        assert sim.stop() in (symbols["wt"], symbols["wt"] + 1)  # stopped between slices, in its keyboard loop


def test_a_machine_that_does_not_answer_in_time_is_ended(kalah_tape: Path) -> None:
    """A run without a budget on a program that waits for a key never ends: the port's wait for it does."""
    need("node")
    port = NodePort(timeout=1)
    try:
        port.write_file("/kalah.rim", kalah_tape.read_bytes())
        port.command("attach ptr /kalah.rim", 0)
        with pytest.raises(SimhTimeout, match="no answer in 1 s"):
            port.command("boot ptr", 0)
        assert port.process.wait(timeout=5) is not None and not port.alive
    finally:
        port.close()
