"""``python -m python_bridge bench``: the figures a user compares, each measured in one run.

* instructions per position examined: SIMH breakpoints on the search's
  entry and exit (``best``/``bkx``) and ``show time`` at each, over the
  diagnostic ``b`` command on positions from seeded reference games;
* the default level: every PDP-1 move of whole games at full speed, timed
  in instructions between ``think`` and its exit, turned into 1960 seconds at
  200,000 instructions a second; with the depth the reference says it reached;
* moves cross-checked per second in play mode, at full speed;
* diagnostic fuzz cases per second with one and with two emulators;
* words of core used, from the assembler's symbol table.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass

from .fuzz import run_fuzz
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import DiagnosticConsole, KalahMachine, ensure_tape, program_symbols
from ..reference.rules import ENDED, start_position, play
from ..reference.search import NODE_BUDGET, best_move
from ..machine.transcript import Move, Swap
from .session import PlaySession, RandomVisitor, SearchVisitor
from ..machine.simh import BreakpointReached

PDP1_RATE = 200_000  # instructions a second, the yardstick for 1960 time
MEMORY_WORDS = 4096


def core_figures() -> tuple[dict[str, int], int]:
    """The program's symbols and the last address its tape loads (from the tape itself)."""
    from tools.papertape import read_tape

    tape = read_tape(ensure_tape().read_bytes())
    return program_symbols(), max(tape.memory)


def sample_positions(count: int, seed: int) -> list:
    """Positions from seeded games of the reference against itself (random first moves for variety)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        pos = start_position(6, 4)
        for ply in range(120):
            if pos.to_move == ENDED:
                break
            positions.append(pos)
            pit = rng.choice(pos.legal_pits()) if ply < 3 else best_move(pos, rng.choice((2, 4))).pit
            pos = play(pos, pit).position
    rng.shuffle(positions)
    return positions[:count]


def _run_to_break(machine: KalahMachine) -> None:
    try:
        machine.sim.expect("(?!x)x", timeout=120)
    except BreakpointReached:
        return


@dataclass
class SearchFigures:
    depth: int
    nodes: int
    instructions: int


def measure_search(symbols: dict[str, int], positions: list, depths: list[int]) -> list[SearchFigures]:
    """Instructions and positions of the ``b`` command, measured between the search's entry and exit."""
    figures = []
    with KalahMachine(PanelSettings(diagnostic=True)) as machine:
        console = DiagnosticConsole(machine)
        sim = machine.sim
        sim.stop()
        sim.command(f"break {symbols['best']:o}")
        sim.command(f"break {symbols['bestx']:o}")
        sim.cont()
        console.sync()
        for depth in depths:
            total = SearchFigures(depth, 0, 0)
            for pos in positions:
                console.set_position(pos)
                sim.type(f"b {depth}\r")
                _run_to_break(machine)
                before = sim.instructions()
                sim.cont()
                _run_to_break(machine)
                after = sim.instructions()
                sim.cont()
                answer = sim.expect(r"best (\d+) value (-?\d+) nodes (\d+)\r\n", timeout=60)
                total.nodes += int(answer.group(3))
                total.instructions += after - before
            figures.append(total)
    return figures


@dataclass
class MoveFigures:
    instructions: list[int]
    depths: list[int]
    moves_checked: int
    seconds: float


def measure_default_level(symbols: dict[str, int], games: int, seed: int) -> MoveFigures:
    """Every PDP-1 move of ``games`` games at the default level, timed in instructions."""
    rng = random.Random(seed)
    figures = MoveFigures([], [], 0, 0.0)
    began = time.perf_counter()
    for n in range(games):
        panel = PanelSettings(pdp1_first=bool(n % 2))
        visitor = SearchVisitor(rng.choice((2, 4, 6))) if n % 3 else RandomVisitor(random.Random(rng.random()))
        with KalahMachine(panel, breakpoints=(symbols["think"], symbols["thx"])) as machine:
            sim = machine.sim
            started: list[int] = []

            def mark(pc: int | None) -> None:
                if pc == symbols["think"]:
                    started.append(sim.instructions())
                elif pc == symbols["thx"] and started:
                    figures.instructions.append(sim.instructions() - started.pop())

            def depth_of(event: object, checker: object) -> None:
                if isinstance(event, (Move, Swap)) and checker.is_pdp1(checker.side_of(event.player)):
                    figures.depths.append(checker.last_choice[0])

            outcome = PlaySession(machine, visitor, on_break=mark, on_event=depth_of).play_game()
            figures.moves_checked += outcome.moves_checked
    figures.seconds = time.perf_counter() - began
    return figures


def measure_crosscheck_rate(games: int, seed: int) -> tuple[int, float]:
    """Moves cross-checked per second in play mode at full speed (level 3, random visitor)."""
    rng = random.Random(seed)
    moves = 0
    began = time.perf_counter()
    with KalahMachine(PanelSettings(depth=3)) as machine:
        session = PlaySession(machine, RandomVisitor(rng))
        for n in range(games):
            if n:
                session.new_game()
            moves += session.play_game().moves_checked
    return moves, time.perf_counter() - began


def report(positions_count: int, games: int, fuzz_cases: int, seed: int) -> int:
    """Measure and print every figure; the same seed measures the same positions and games."""
    symbols, last_word = core_figures()
    out = sys.stdout
    print("Kalah on the PDP-1: figures (every one measured in this run)", file=out)
    used = last_word + 1 - 0o100
    with_buffers = symbols["cend"] - 0o100
    print(f"core: program and data {used} words, with the buffers and the search's and proof's frames {with_buffers} words, "
          f"of {MEMORY_WORDS} (addresses 0100-{symbols['cend'] - 1:04o}; the read-in loader keeps 7751-7777)")

    positions = sample_positions(positions_count, seed)
    print(f"\nsearch cost, b command, {len(positions)} positions from seeded reference games "
          "(SIMH breakpoints at best and its exit, show time):")
    for fig in measure_search(symbols, positions, [4, 5, 6, 7]):
        print(f"  depth {fig.depth}: {fig.nodes:7d} positions {fig.instructions:9d} instructions "
              f"= {fig.instructions / fig.nodes:6.1f} instructions a position")

    moves = measure_default_level(symbols, games, seed)
    secs = sorted(i / PDP1_RATE for i in moves.instructions)
    print(f"\ndefault level (deepening within {NODE_BUDGET} positions), {games} games, "
          f"{len(secs)} PDP-1 moves (breakpoints at think and its exit):")
    print(f"  1960 seconds a move at {PDP1_RATE} instructions/s: median {statistics.median(secs):.2f}, "
          f"worst {secs[-1]:.2f}; instructions worst {max(moves.instructions)}")
    depths = sorted(moves.depths)
    print(f"  depth reached (the deepest finished search, from the reference): min {depths[0]}, "
          f"median {statistics.median(depths):.0f}, max {depths[-1]}")

    n, secs_cc = measure_crosscheck_rate(4, seed)
    print(f"\nplay-mode cross-check at full speed: {n} moves in {secs_cc:.1f} s = {n / secs_cc:.0f} moves/s "
          "(level 3, random visitor, every move and choice checked)")

    for jobs in (1, 2):
        outcome, fsecs = run_fuzz(seed, fuzz_cases, jobs)
        status = "ok" if not (outcome.mismatches or outcome.errors) else "MISMATCHES"
        print(f"diagnostic fuzz, {jobs} job(s): {outcome.cases} cases in {fsecs:.1f} s = "
              f"{outcome.cases / fsecs:.0f} cases/s ({status})")
    return 0
