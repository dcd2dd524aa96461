"""``python -m python_bridge bench``: the figures a user compares, each measured in one run.

* instructions and memory cycles per position examined: the diagnostic
  ``b`` command on positions from seeded reference games, counted between
  SIMH breakpoints on the search's entry and exit (``best``/``bestx``),
  every instruction's cycles from SIMH's history (``machine.cycles``);
* the default level: ``think`` (``checking.thinking``, the level exactly as
  play mode thinks) on positions of seeded 6-pit, 4-seed games, in true 1960
  seconds (memory cycles of 5 us); with the depth the reference says it reached;
* moves cross-checked per second in play mode, at full speed;
* diagnostic fuzz cases per second with one and with two emulators;
* words of core used: what the tape loads, and up to the top of the frames
  and buffers the symbol table places beyond the code.
"""

from __future__ import annotations

import bisect
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

from ..checking.fuzz import run_fuzz
from ..checking.thinking import Measured, Thinker
from ..driver.driver import play_games
from ..driver.visitors import RandomVisitor
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import ensure_tape, program_symbols
from ..reference.samples import is_midgame, sample_positions, varied_positions
from ..reference.search import NODE_BUDGET

MEMORY_WORDS = 4096
PROMISE_CYCLES = 2_000_000  # the default level's promise: ten seconds of a real PDP-1 (5 us a cycle)


def core_figures() -> tuple[int, int]:
    """The words the tape loads (from the tape itself), and the first address above everything the
    program uses: its code and constants, and the frames and buffers (up to ``cend``) that no tape fills."""
    from tools.papertape import read_tape

    tape = read_tape(ensure_tape().read_bytes())
    return len(tape.memory), max(max(tape.memory) + 1, program_symbols()["cend"])


# The search's routines by what they do, each named by its entry labels (pdp1_src/search.mac and
# rules.mac); an instruction belongs to the nearest entry label at or below its address.
PARTS = {
    "keeping and putting back boards": ("ssave", "rest", "sn2", "k2rst"),
    "listing moves": ("srch", "sgenn", "sgend", "sgo", "sfst"),
    "going down a ply and back": ("sdeep", "sflip", "spop", "sback", "setv", "skid1", "skid2"),
    "make and the end check": ("make", "rs0", "rn0", "hstor", "hown", "hpass", "endck", "endstd", "enddef", "sweep"),
    "the leaves (lval) and their loop": ("lnode", "sleaf1", "lval", "slap"),
    "trying moves, cut-offs and counting": ("best", "bestk", "smove", "sleaf", "sval", "ncry"),
}


@dataclass
class SearchFigures:
    depth: int
    nodes: int
    instructions: int
    cycles: int
    parts: dict[str, int] | None = None  # the cycles by PARTS, for the depth profiled


def cycles_by_part(by_address: Counter[int]) -> dict[str, int]:
    """Memory cycles tallied by address (``CycleCounter.by_address``) summed into the search's PARTS."""
    symbols = program_symbols()
    entries = sorted((symbols[label], part) for part, labels in PARTS.items() for label in labels)
    addresses = [address for address, _ in entries]
    totals = {part: 0 for part in PARTS}
    for address, cycles in by_address.items():
        at = bisect.bisect_right(addresses, address) - 1
        if at < 0:
            raise ValueError(f"an instruction at {address:04o}, below the search's routines")
        totals[entries[at][1]] += cycles
    return totals


def measure_search(positions: list, depths: list[int], profile: int | None = None) -> list[SearchFigures]:
    """Instructions, cycles and positions of the ``b`` command, from the search's entry to its exit.

    At depth ``profile`` the same run also sums each instruction's cycles into PARTS.
    """
    figures = []
    with Thinker(6, depth=depths[0]) as thinker:
        for depth in depths:
            thinker.depth = depth
            thinker.counter.by_address = Counter() if depth == profile else None
            total = SearchFigures(depth, 0, 0, 0)
            for pos in positions:
                measured = thinker.measure(pos)
                total.nodes += measured.nodes
                total.instructions += measured.instructions
                total.cycles += measured.cycles
            if thinker.counter.by_address is not None:
                total.parts = cycles_by_part(thinker.counter.by_address)
            figures.append(total)
    return figures


def measure_default_level(positions: list) -> list[Measured]:
    """The default level on each position, exactly as play mode thinks, in instructions and cycles."""
    with Thinker(6) as thinker:
        return [thinker.measure(pos) for pos in positions]


def measure_crosscheck_rate(games: int, seed: int) -> tuple[int, float]:
    """Moves cross-checked per second in play mode at full speed (level 3, random visitor)."""
    rng = random.Random(seed)
    moves = 0
    began = time.perf_counter()
    for outcome in play_games(PanelSettings(depth=3), RandomVisitor(rng), games):
        moves += outcome.moves_checked
    return moves, time.perf_counter() - began


def core_line() -> str:
    """The core the program uses, from the assembler's symbols and the tape: one line."""
    used, top = core_figures()
    return (f"core: program and data {used} words, with the buffers, the search's frames and its best-move table "
            f"{top - 0o100} words, of {MEMORY_WORDS} (addresses 0100-{top - 1:04o}; the read-in loader keeps "
            "7751-7777)")


def report(positions_count: int, level_count: int, fuzz_cases: int, seed: int, core_only: bool = False) -> int:
    """Measure and print every figure (or only the core used); the same seed measures the same positions and games."""
    out = sys.stdout
    if core_only:
        print(core_line(), file=out)
        return 0
    print("Kalah on the PDP-1: figures (every one measured in this run; the core used: bench --core)", file=out)

    positions = sample_positions(positions_count, seed)
    print(f"\nsearch cost, b command, {len(positions)} positions from seeded reference games "
          "(from the search's entry to its exit, every instruction's memory cycles from SIMH's history):")
    searches = measure_search(positions, [4, 5, 6, 7], profile=6)
    for fig in searches:
        print(f"  depth {fig.depth}: {fig.nodes:7d} positions {fig.instructions:9d} instructions "
              f"= {fig.instructions / fig.nodes:6.1f} instructions a position, {fig.cycles:9d} cycles "
              f"= {fig.cycles / fig.nodes:6.1f} cycles a position ({fig.cycles / fig.instructions:.2f} an instruction)")

    profiled = next(fig for fig in searches if fig.parts)
    print(f"  where the cycles go, depth {profiled.depth} (each instruction's cycles summed by routine): "
          + ", ".join(f"{part} {cycles / profiled.nodes:.0f}" for part, cycles in profiled.parts.items())
          + f"; in all {profiled.cycles / profiled.nodes:.1f} a position")

    level_positions = varied_positions(level_count, seed)
    moves = measure_default_level(level_positions)
    secs = sorted(m.seconds for m in moves)
    worst = max(moves, key=lambda m: m.cycles)
    print(f"\ndefault level (deepening within {NODE_BUDGET} positions), {len(moves)} positions, at most 8 "
          "from each of many seeded 6-pit, 4-seed games (think, as play mode thinks):")
    print(f"  true 1960 seconds a move (memory cycles of 5 us): median {statistics.median(secs):.2f}, "
          f"worst {secs[-1]:.2f} ({worst.cycles} cycles, {worst.instructions} instructions; "
          f"the promise: {PROMISE_CYCLES} cycles, 10.00 s)")
    per_position = sorted(m.cycles / m.nodes for m in moves)
    print(f"  memory cycles a position: min {per_position[0]:.0f}, median {statistics.median(per_position):.0f}, "
          f"max {per_position[-1]:.0f}")
    over = sum(m.cycles > PROMISE_CYCLES for m in moves)
    print(f"  moves over ten seconds: {over}")
    depths = sorted(m.depth for m in moves)
    print(f"  depth reached (the deepest finished search, from the reference): min {depths[0]}, "
          f"median {statistics.median(depths):.0f}, max {depths[-1]}")
    middle = sorted(m.depth for m, pos in zip(moves, level_positions, strict=True) if is_midgame(pos))
    if middle:
        print(f"  depth reached in the {len(middle)} midgame positions (a store has seeds, half the seeds "
              f"or more in the pits): min {middle[0]}, median {statistics.median(middle):.0f}, max {middle[-1]}")

    n, secs_cc = measure_crosscheck_rate(4, seed)
    print(f"\nplay-mode cross-check at full speed: {n} moves in {secs_cc:.1f} s = {n / secs_cc:.0f} moves/s "
          "(level 3, random visitor, every move and choice checked)")

    for jobs in (1, 2):
        outcome, fsecs = run_fuzz(seed, fuzz_cases, jobs)
        status = "ok" if not (outcome.mismatches or outcome.errors) else "MISMATCHES"
        print(f"diagnostic fuzz, {jobs} job(s): {outcome.cases} cases in {fsecs:.1f} s = "
              f"{outcome.cases / fsecs:.0f} cases/s ({status})")
    return 0
