"""The analysis tape deepens from a position (its ``d n`` command), each depth's value checked.

Why: McCarthy's 1979 letter says the early-sixties programs gave "strong
indications" that four, five and six stones a pit are first-player wins too --
indications, not proofs: what a program sees looking a number of plies ahead.
The analysis tape's ``d n`` types the value it finds looking 1, 2, ... n plies
ahead (``reference.prove.deepen`` is its contract); this runs it on the PDP-1
at full speed for at most a stated time, counts each depth's instructions
exactly (a breakpoint where a depth's value is found), estimates the memory
cycles from a counted sample spread through the run (as ``prove --no-cycles``
does), and checks every depth's line -- value and node count -- against the
reference, which works beside it in a process of its own.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Callable

from ..machine.kalah_program import ProtocolError
from ..machine.simh import BreakpointReached
from ..reference.prove import MAX_DEEPEN, DepthValue, ProofError, deepen
from ..reference.rules import Position, Variants, start_position
from .beside import Beside
from .proof import SAMPLE_EVERY, ProofMachine

_DEPTH = re.compile(r"depth (\d+) value (-?\d+) nodes (\d+)\r\n")


@dataclass(frozen=True)
class DepthRun:
    """One depth as the PDP-1 found it, beside the reference's."""

    pdp1: str  # the PDP-1's line
    reference: DepthValue
    instructions: int  # the PDP-1's, for this depth's bound tests and the line before
    host_seconds: float  # from the start of the deepening to this depth's value

    @property
    def agrees(self) -> bool:
        return self.pdp1 == self.reference.line()


@dataclass
class DeepeningRun:
    """A deepening on the PDP-1: the depths it finished within the time, and the counted sample."""

    position: Position
    deepest: int  # asked for
    seconds: float  # the time allowed (host seconds)
    depths: list[DepthRun] = field(default_factory=list)
    stopped: bool = False  # the time ran out before the deepest depth
    sample: tuple[int, int] = (0, 0)  # (instructions, memory cycles) counted

    @property
    def agrees(self) -> bool:
        return all(d.agrees for d in self.depths)

    @property
    def instructions(self) -> int:
        return sum(d.instructions for d in self.depths)

    @property
    def estimated_cycles(self) -> int | None:
        """The finished depths' memory cycles at the sample's cycles an instruction (an estimate)."""
        counted, cycles = self.sample
        return round(self.instructions * cycles / counted) if counted else None


def _reference_into(sender, position: Position, deepest: int, variants: Variants) -> None:
    """The reference process: each depth's value sent as it is found, then None (or the refusal)."""
    try:
        deepen(position, deepest, variants, on_depth=sender.send)
        sender.send(None)
    except ProofError as refusal:
        sender.send(refusal)


class _ReferenceDepths:
    """The reference's deepening beside the emulator (``beside.Beside``), its depths kept as they come."""

    def __init__(self, position: Position, deepest: int, variants: Variants) -> None:
        self.beside = Beside(_reference_into, position, deepest, variants, name="ref deepen")
        self.found: list[DepthValue] = []

    def depth(self, k: int) -> DepthValue:
        """Depth ``k``'s value (waits for the reference to find it)."""
        while len(self.found) < k:
            answer = self.beside.receive()
            if answer is None:
                raise ProofError(f"the reference stopped before depth {k}")
            self.found.append(answer)
        return self.found[k - 1]

    def close(self) -> None:
        self.beside.close()


def deepen_position(machine: ProofMachine, position: Position, deepest: int, seconds: float,
                    on_depth: Callable[[DepthRun], None] | None = None) -> DeepeningRun:
    """Type ``d deepest`` on ``machine`` at ``position`` and follow it for at most ``seconds`` (host time).

    Each depth the PDP-1 finishes is checked against the reference as it comes
    (``on_depth`` is told it); when the time runs out the depth under way is
    abandoned and the run says so (``stopped``).
    """
    if not 1 <= deepest <= MAX_DEEPEN:
        raise ProofError(f"the depth must be 1 to {MAX_DEEPEN}, not {deepest}")
    reference = _ReferenceDepths(position, deepest, machine.variants)
    try:
        return _follow(machine, position, deepest, seconds, reference, on_depth)
    finally:
        reference.close()


def _follow(machine: ProofMachine, position: Position, deepest: int, seconds: float,
            reference: _ReferenceDepths, on_depth: Callable[[DepthRun], None] | None) -> DeepeningRun:
    sim, symbols = machine.sim, machine.symbols
    machine.start_command(position, f"d {deepest}", "dd")
    found, done = symbols["dd4"], symbols["dloop"]  # a depth's value; the command answered (ok typed)
    sim.set_breakpoint(found)
    sim.set_breakpoint(done)
    run = DeepeningRun(position, deepest, seconds)
    machine.counter.reset()
    began = time.perf_counter()
    last = sim.instructions()
    ends: list[tuple[int, float]] = []  # each depth's instructions and host time, at its breakpoint
    text = ""
    finished = False
    try:
        while not finished:
            try:
                text += machine.free_slice(SAMPLE_EVERY)
            except BreakpointReached as at:
                if at.pc == found:
                    now = sim.instructions()
                    ends.append((now - last, time.perf_counter() - began))
                    last = now
                elif at.pc == done:
                    finished = True
                    text += sim.step(1)[0]  # the output before the stop, held back by it
                else:
                    raise
            text = _take_lines(text, run, ends, reference, on_depth)
            if not finished and time.perf_counter() - began > seconds:
                run.stopped = True
                break
    finally:
        sim.clear_breakpoint(found)
        sim.clear_breakpoint(done)
    if finished and len(run.depths) != deepest:
        raise ProtocolError(f"d {deepest} answered {len(run.depths)} depth lines", sim.tail())
    run.sample = (machine.counter.instructions, machine.counter.cycles)
    return run


def _take_lines(text: str, run: DeepeningRun, ends: list[tuple[int, float]], reference: _ReferenceDepths,
                on_depth: Callable[[DepthRun], None] | None) -> str:
    """The complete depth lines in ``text`` checked and kept; what follows the last returned."""
    rest = 0
    for match in _DEPTH.finditer(text):
        k = int(match.group(1))
        instructions, host = ends[k - 1] if k <= len(ends) else (0, 0.0)
        depth = DepthRun(match.group(0).rstrip("\r\n"), reference.depth(k), instructions, host)
        run.depths.append(depth)
        if on_depth:
            on_depth(depth)
        rest = match.end()
    return text[rest:]


def deepen_start(pits: int, seeds: int, variants: Variants, deepest: int, seconds: float,
                 on_depth: Callable[[DepthRun], None] | None = None) -> DeepeningRun:
    """The deepening from the start of Kalah(pits, seeds), on a fresh machine."""
    with ProofMachine(pits, seeds, variants) as machine:
        return deepen_position(machine, start_position(pits, seeds), deepest, seconds, on_depth)
