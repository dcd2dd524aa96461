"""``python -m python_bridge think``: one PDP-1 search measured in SIMH, its one line, its bad input."""

from __future__ import annotations

import re

import pytest

from python_bridge.checking.thinking import Thinker
from python_bridge.machine.cycles import CycleCounter
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import KalahMachine, program_symbols
from python_bridge.reference.notation import parse_position
from python_bridge.reference.rules import Variants
from python_bridge.reference.search import best_move, level_move

LINE = re.compile(r"best (\d+) value (-?\d+) nodes (\d+) depth (\d+) "
                  r"instructions (\d+) cycles (\d+) seconds (\d+\.\d\d)")
ENDGAME = "0 0 0 0 1 2 21 0 0 1 0 2 0 21 n"  # 6 pits: the default level finishes deep within its budget


def _check_line(stdout: str) -> tuple[int, ...]:
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    match = LINE.fullmatch(lines[0])
    assert match, lines[0]
    pit, value, nodes, depth, instructions, cycles = (int(g) for g in match.groups()[:6])
    assert match.group(7) == f"{cycles * 5 / 1_000_000:.2f}"
    assert instructions < cycles < 3 * instructions
    return pit, value, nodes, depth, instructions, cycles


def test_think_at_a_depth_is_the_b_command_and_the_reference(bridge, kalah_tape) -> None:
    text = "3 3 3 3 0 3 3 3 3 0 s"
    result = bridge("think", text, "--depth", "4", "--empty-capture")
    assert result.returncode == 0, result.stderr
    pit, value, nodes, depth, _i, _c = _check_line(result.stdout)
    ref = best_move(parse_position(text), 4, Variants(empty_capture=True))
    assert (pit, value, nodes, depth) == (ref.pit, ref.value, ref.nodes, 4)


def test_think_at_the_default_level_is_play_modes_thinking(bridge, kalah_tape) -> None:
    result = bridge("think", ENDGAME, "--deferred-end")
    assert result.returncode == 0, result.stderr
    pit, value, nodes, depth, instructions, cycles = _check_line(result.stdout)
    ref = level_move(parse_position(ENDGAME), Variants(deferred_end=True))
    assert (pit, value, nodes, depth) == (ref.pit, ref.value, ref.nodes, ref.depth)



def test_the_deposited_position_thinks_as_a_game_does(kalah_tape) -> None:
    """The opening choice of a game the PDP-1 plays itself at the default level, counted between
    think and thx, costs exactly what ``Thinker`` measures with the position deposited."""
    symbols = program_symbols()
    panel = PanelSettings(pits=3, seeds=1, demo=True)
    with KalahMachine(panel, breakpoints=(symbols["think"], symbols["thx"])) as machine:
        stop = machine.sim.wait_for_stop(30)
        assert stop.pc == symbols["think"]
        before = machine.sim.instructions()
        counter = CycleCounter(machine.sim)
        counter.run_to(symbols["thx"], 10_000_000)
        assert counter.instructions == machine.sim.instructions() - before  # SIMH's own count agrees
    position = parse_position("1 1 1 0 1 1 1 0 s")
    with Thinker(3) as thinker:
        thinker.measure(parse_position("0 1 1 1 1 1 0 1 n"))  # another position first: nothing carries over
        measured = thinker.measure(position)
    assert (measured.instructions, measured.cycles) == (counter.instructions, counter.cycles)
    assert measured.nodes == level_move(position).nodes


@pytest.mark.parametrize("args", [
    ["4 4 4 s"],
    ["4 4 4 4 4 4 0 4 4 4 4 4 4 0 s", "--depth", "0"],
    ["4 4 4 4 4 4 0 4 4 4 4 4 4 0 s", "--depth", "x"],
    ["0 0 0 0 0 0 24 0 0 0 0 0 0 24 e"],
    [],
])
def test_bad_input_is_one_line_and_exit_2(bridge, args: list[str]) -> None:
    result = bridge("think", *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
