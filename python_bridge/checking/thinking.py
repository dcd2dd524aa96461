"""One search of the PDP-1 program, measured in instructions and memory cycles, checked against the reference.

Why: the level's promise ("answers within ten seconds of a real PDP-1") and
every 1960 time the project shows rest on these counts, so they are taken
from the program itself running in SIMH, cycle by cycle
(``machine.cycles``), not estimated.  Two searches can be measured:

* a fixed depth: the diagnostic ``b D`` command (sense switch 6), counted
  from the search's entry ``best`` to its exit ``bestx``;
* the default level, exactly as play mode thinks: the program is read in to
  play itself (test word bit 0, level 0) and stopped at ``think``, the
  routine play mode calls for every choice; the position is deposited in the
  board and side-to-move words, and ``think`` is counted to its exit ``thx``.
  The budget is the word ``nbudg`` in the program's table of operator's
  constants, examined before each search: the reference's level is given
  the same, so a budget deposited from the console is checked too.

The PDP-1's pit and value must be the reference's (``best_move`` /
``level_move``), which also gives the positions visited and the depth
reached.  ``Thinker`` keeps one machine for many positions (the bench's
samples); ``measure_once`` is the ``think`` command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..machine.cycles import CycleCounter, seconds
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import DiagnosticConsole, KalahMachine, board_words, program_symbols
from ..machine.simh import BreakpointReached, Closing, SimhError
from ..reference.rules import ENDED, SOUTH, STANDARD, Position, Variants
from ..reference.search import MAX_DEPTH, SearchError, best_move, check_search, level_move
from .proof import positions_so_far

MAX_SEARCH = 100_000_000  # instructions: far beyond any search the program can make (depth 20 included)
# A model for the estimate a long ``b`` search is announced with (measured on this 2-core machine):
INSTRUCTIONS_PER_POSITION = 150  # the search from the 6x4 start: 145 at depth 6, 157 at depth 11


@dataclass(frozen=True)
class Measured:
    """One search: the PDP-1's choice, the reference's count of it, and its cost on the machine."""

    pit: int
    value: int
    nodes: int
    depth: int
    instructions: int
    cycles: int

    @property
    def seconds(self) -> float:
        """True 1960 seconds: one 5 us memory cycle after another."""
        return seconds(self.cycles)

    def line(self) -> str:
        """The ``think`` command's one line (scripts depend on it: keep it exactly)."""
        return (f"best {self.pit} value {self.value} nodes {self.nodes} depth {self.depth} "
                f"instructions {self.instructions} cycles {self.cycles} seconds {self.seconds:.2f}")


class ThinkMismatch(SimhError):
    """The PDP-1's choice is not the reference's."""


def _signed(word: int) -> int:
    return -(word ^ 0o777777) if word & 0o400000 else word


class Thinker(Closing):
    """One PDP-1 measuring searches of ``pits``-pit positions under ``variants``.

    ``depth`` None: the default level as play mode thinks; 1-20: the ``b`` command.
    """

    def __init__(self, pits: int, variants: Variants = STANDARD, depth: int | None = None,
                 progress: Callable[[str, int], None] | None = None) -> None:
        self.pits = pits
        self.progress = progress  # told ("reference" or "pdp-1", positions so far) during a long b search
        self.variants = Variants(variants.empty_capture, variants.deferred_end, variants.remainder_void)
        self.depth = depth
        self.symbols = program_symbols()
        s = self.symbols
        if depth is None:
            panel = PanelSettings(pits=pits, seeds=4, depth=0, variants=self.variants, demo=True)
            self.machine = KalahMachine(panel, breakpoints=(s["think"], s["thx"]))
        else:
            panel = PanelSettings(pits=pits, seeds=4, variants=self.variants, diagnostic=True)
            self.machine = KalahMachine(panel)
        try:
            self.sim = self.machine.sim
            if depth is None:
                self._wait_for(s["think"])  # the first choice of the game it plays itself
                self.sim.clear_breakpoint(s["think"])  # from now on think is entered by hand
                self._first = True
            else:
                self.console = DiagnosticConsole(self.machine)
                self.sim.stop()
                self.sim.set_breakpoint(s["best"])
                self.sim.set_breakpoint(s["bestx"])
            self.counter = CycleCounter(self.sim)
            if depth is not None:
                self.sim.cont()
                self.console.sync()
        except BaseException:
            self.machine.close()
            raise

    def close(self) -> None:
        self.machine.close()

    def _wait_for(self, address: int, timeout: float = 60) -> None:
        stop = self.sim.wait_for_stop(timeout)
        if not (isinstance(stop, BreakpointReached) and stop.pc == address):
            raise stop

    def measure(self, position: Position) -> Measured:
        if position.to_move == ENDED:
            raise SearchError("the game is over")
        if position.pits != self.pits:
            raise SearchError(f"a {position.pits}-pit position on a {self.pits}-pit machine")
        if self.depth is None:
            return self._measure_level(position)
        return self._measure_depth(position, self.depth)

    def _measure_level(self, position: Position) -> Measured:
        s, sim = self.symbols, self.sim
        budget = sim.examine(s["nbudg"])  # the operator's constant, as the machine holds it
        reference = level_move(position, self.variants, budget)  # a bad position raises before the machine runs
        if not self._first:  # stopped at thx: enter think again as the game loop's jsp does
            sim.deposit("ac", sim.examine(s["thx"]) & 0o7777)
            sim.deposit("pc", s["think"])
        self._first = False
        for offset, word in enumerate(board_words(position)):
            sim.deposit(s["bd"] + offset, word)
        side = 0 if position.to_move == SOUTH else 1
        sim.deposit(s["mv"], side)
        sim.deposit(s["side"], side)
        sim.deposit(s["over"], 0)
        self.counter.reset()
        self.counter.run_to(s["thx"], MAX_SEARCH)
        pit, value = sim.examine(s["bestp"]), _signed(sim.examine(s["bval"]))
        self._check(position, pit, value, reference.pit, reference.value, "level")
        # nlo ran up from -(budget+1): what it reached is every position the deepening counted
        counted = _signed(sim.examine(s["nlo"])) + budget + 1
        if counted != reference.nodes:
            raise ThinkMismatch(f"level: the PDP-1 counted {counted} positions, the reference {reference.nodes}")
        # thd: the depth under way when the budget ran out (one past the kept one), or the last, 20
        searched, expected = sim.examine(s["thd"]), min(reference.depth + 1, MAX_DEPTH)
        if searched != expected:
            raise ThinkMismatch(f"level: the PDP-1 ended at depth {searched}, the reference at {expected}")
        return Measured(pit, value, reference.nodes, reference.depth, self.counter.instructions, self.counter.cycles)

    def _measure_depth(self, position: Position, depth: int) -> Measured:
        s, sim = self.symbols, self.sim
        told = self.progress
        reference = best_move(position, depth, self.variants,
                              progress=(lambda n: told("reference", n)) if told else None)
        self.console.set_position(position)
        sim.type(f"b {depth}\r")
        self._wait_for(s["best"])
        self.counter.reset()
        self.counter.run_to(s["bestx"], MAX_SEARCH,
                            between=(lambda: told("pdp-1", positions_so_far(sim, s))) if told else None)
        sim.cont()
        answer = self.console.machine.sim.expect(r"best (\d+) value (-?\d+) nodes (\d+)\r\n", timeout=60)
        pit, value, nodes = (int(g) for g in answer.groups())
        self._check(position, pit, value, reference.pit, reference.value, f"b {depth}")
        if nodes != reference.nodes:
            raise ThinkMismatch(f"b {depth}: the PDP-1 counted {nodes} positions, the reference {reference.nodes}")
        return Measured(pit, value, reference.nodes, depth, self.counter.instructions, self.counter.cycles)

    @staticmethod
    def _check(position: Position, pit: int, value: int, ref_pit: int, ref_value: int, what: str) -> None:
        if (pit, value) != (ref_pit, ref_value):
            raise ThinkMismatch(f"{what}: the PDP-1 chose pit {pit} value {value}, "
                                f"the reference pit {ref_pit} value {ref_value}")


def measure_once(position: Position, variants: Variants = STANDARD, depth: int | None = None,
                 progress: Callable[[str, int], None] | None = None) -> Measured:
    """Measure one search on a machine of its own (the ``think`` command)."""
    if position.to_move == ENDED:
        raise SearchError("the game is over")
    if depth is not None:
        check_search(position, depth)  # a depth out of range raises before a machine starts
    with Thinker(position.pits, variants, depth, progress) as thinker:
        return thinker.measure(position)
