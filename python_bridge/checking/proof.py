"""A proof on the emulated PDP-1 (its ``w <bound>`` command), timed in memory cycles and cross-checked.

Why here: ``prove`` (the command) and the demonstration's proof segment both
run a proof the same way -- the analysis tape (``build/prove.rim``, a program
of its own beside the game's tape) read in and set to the start position, the
PDP-1's ``w`` command, the routine ``prove`` run from its entry
to its exit in measured slices so that the nodes so far can be shown while it
works and every instruction's memory cycles are counted (``machine.cycles``,
the Handbook's table), and the answer checked against ``reference.prove``,
which must agree in verdict and node count.

The instructions and cycles are those of the routine ``prove`` alone (from
its first instruction to its return), not of reading the command line or
typing the answer.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable

from ..machine.cycles import COUNTED_PER_SECOND, CYCLES_PER_SECOND, CycleCounter, seconds
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import ANALYSIS, DiagnosticConsole, KalahMachine, ProtocolError, program_symbols
from ..machine.simh import BreakpointReached, Closing
from ..reference.estimates import position_proof_positions
from ..reference.prove import ProofError, ProofResult, ProofTooDeep, exact_value, prove
from ..reference.rules import Position, Variants, start_position
from ..reference.solver import solve_start
from .beside import Beside

SLICE = 65_536  # instructions between looks at the machine (SIMH's largest history)
FREE_SLICE = 20_000_000  # the same without counting cycles: about a second here
# uncounted, a SLICE is counted after free slices 1, 5, 9 ...: the sample the cycles are estimated from
SAMPLE_EVERY = 4
# The proofs' figures on this 2-core machine, for the estimate a long proof is announced with:
INSTRUCTIONS_PER_POSITION = 550  # 550-572 in the Kalah(6,1) and (6,2) proofs
CYCLES_PER_POSITION = 930  # 927-969 in the same proofs
FREE_PER_SECOND = 33_000_000  # instructions a second uncounted (--no-cycles): Kalah(6,3), 16.6 billion in 8 min 18 s
# positions a second of ``ref prove`` (the fast proof): Kalah(6,3), 65,963,858 in 142 s here with the machine shared
# (122 s of CPU), where the readable proof took 1,362 s beside the PDP-1
REFERENCE_PER_SECOND = 460_000
_ANSWER = re.compile(r"(above (yes|no) nodes (\d+)|error)\r\n")
BESIDE_FROM = 2_000_000  # model positions from which the reference proves beside the PDP-1, in a process of its own


def _prove_into(sender, position: Position, bound: int, variants: Variants) -> None:
    """The reference process's work: ``prove``, its answer or its refusal sent back whole."""
    try:
        sender.send(prove(position, bound, variants))
    except ProofError as refusal:
        sender.send(refusal)


class ReferenceProof:
    """``ref prove``'s answer to one bound test, worked out while the PDP-1 works on the same test.

    A long proof's reference runs beside the emulator (``beside.Beside``: Kalah(6,3)'s takes about
    two and a half minutes of the emulator's seventeen at full speed, and its answer is there when
    the PDP-1's comes); a short one is proved here, when asked: a process of its own costs more than
    it saves.
    """

    def __init__(self, position: Position, bound: int, variants: Variants) -> None:
        self.position, self.bound, self.variants = position, bound, variants
        self.beside = (Beside(_prove_into, position, bound, variants, name="ref prove")
                       if position_proof_positions(position) >= BESIDE_FROM else None)

    def result(self) -> ProofResult:
        """The reference's answer (waits for the process); raises ProofError/ProofTooDeep as ``prove`` does."""
        if self.beside is None:
            return prove(self.position, self.bound, self.variants)
        try:
            return self.beside.receive()
        finally:
            self.close()

    def close(self) -> None:
        """Stop the process, finished or not (a proof given up must not leave it running)."""
        if self.beside is not None:
            self.beside.close()


@dataclass(frozen=True)
class Progress:
    """How far a running proof is: positions searched so far, host seconds, 1960 seconds so far."""

    nodes: int
    elapsed: float
    seconds_1960: float


@dataclass(frozen=True)
class ProofRun:
    """One bound test run on the PDP-1, with its reference answer."""

    position: Position
    bound: int
    variants: Variants
    pdp1: str  # the PDP-1's answer line
    reference: ProofResult
    instructions: int
    cycles: int | None  # None: run at full speed without counting them (--no-cycles)
    host_seconds: float
    sample: tuple[int, int] | None = None  # uncounted: (instructions, memory cycles) of the counted sample

    @property
    def estimated_cycles(self) -> int | None:
        """Uncounted, the memory cycles the sample's cycles an instruction give (an estimate, "about")."""
        if self.cycles is not None or not self.sample or not self.sample[0]:
            return None
        return round(self.instructions * self.sample[1] / self.sample[0])

    @property
    def agrees(self) -> bool:
        return self.pdp1 == self.reference.line()

    @property
    def above(self) -> bool:
        return self.reference.above

    @property
    def seconds_1960(self) -> float | None:
        """The real machine's time for the proof: cycles x 5 us (None when they were not counted)."""
        return None if self.cycles is None else seconds(self.cycles)


def proof_seconds(positions: int, count_cycles: bool, pace: float) -> float:
    """About how long a proof of ``positions`` positions takes here: counted or not, and paced (``pace``
    1: no faster than 1960; 0: unpaced).  The reference proves the same beside the PDP-1 and the answer
    waits for both, the slower deciding: here, at full speed, the PDP-1 (the reference takes about a seventh
    of its time)."""
    instructions = positions * INSTRUCTIONS_PER_POSITION
    host = instructions / (COUNTED_PER_SECOND if count_cycles else FREE_PER_SECOND)
    paced = positions * CYCLES_PER_POSITION / CYCLES_PER_SECOND / pace if pace else 0.0
    return max(host, paced, positions / REFERENCE_PER_SECOND)


def clock_text(seconds: float) -> str:
    """A time as the proof's reports say it: ``12.4 s``, or ``18 min 11.0 s`` past a minute."""
    minutes, secs = divmod(seconds, 60)
    return f"{seconds:.1f} s" if seconds < 60 else f"{int(minutes)} min {secs:04.1f} s"


def _nodes(nhi: int, nlo: int, unit: int) -> int:
    """The program's node counter: nhi units (its symbol hundk, a hundred thousand) and nlo, an 18-bit
    word running up from -unit."""
    value = -(nlo ^ 0o777777) if nlo & 0o400000 else nlo
    return nhi * unit + value + unit


def positions_so_far(sim, symbols: dict[str, int]) -> int:
    """The positions the program has counted so far in a proof or a ``b`` search (stopped machine)."""
    return _nodes(sim.examine(symbols["nhi"]), sim.examine(symbols["nlo"]), symbols["hundk"])


class ProofMachine(Closing):
    """The analysis tape on a PDP-1, kept for a series of proofs under one panel (pits, seeds, variants)."""

    def __init__(self, pits: int, seeds: int, variants: Variants) -> None:
        self.variants = variants
        self.machine = KalahMachine(PanelSettings(pits=pits, seeds=seeds, variants=variants, diagnostic=True),
                                    timeout=60.0, program=ANALYSIS)
        try:
            self.console = DiagnosticConsole(self.machine)
            self.symbols = program_symbols(ANALYSIS)
            self.sim = self.machine.sim
            self.counter = CycleCounter(self._stopped())
            self.free_slices = 0  # the current command's full-speed slices (free_slice)
        except BaseException:
            self.machine.close()
            raise

    def close(self) -> None:
        self.machine.close()

    def _stopped(self):
        self.sim.stop()
        return self.sim

    def _nodes_now(self) -> int:
        return positions_so_far(self.sim, self.symbols)

    def _progress_now(self, began: float) -> Progress:
        return Progress(self._nodes_now(), time.perf_counter() - began, seconds(self.counter.cycles))

    def run(self, position: Position, bound: int, *, progress: Callable[[Progress], None] | None = None,
            pace: float = 0.0, count_cycles: bool = True, sample_every: int = 0) -> ProofRun:
        """Set ``position``, ask ``w <bound>``, count the proof's cycles, check it against the reference.

        ``pace`` 1.0 runs the proof no faster than the 1960 machine (its cycles at 5 us each), 2.0 twice
        as fast and so on; 0 as fast as the host can.  ``progress`` is called after every slice.
        Without ``count_cycles`` the proof runs at full speed in slices of FREE_SLICE for the
        progress, and only its instructions are known (for proofs too long to time); with
        ``sample_every`` k, one SLICE is counted after every k free slices, a sample spread through
        the whole proof from which its memory cycles are estimated (``ProofRun.estimated_cycles``).
        """
        reference = ReferenceProof(position, bound, self.variants)
        try:
            return self._run(position, bound, reference, progress, pace, count_cycles, sample_every)
        finally:
            reference.close()

    def start_command(self, position: Position, command: str, entry: str) -> None:
        """Set ``position``, type ``command`` and leave the machine stopped at the routine ``entry`` it
        starts (its line read, its work not begun), for the caller to step."""
        self.sim.cont()
        self.console.sync()
        self.console.set_position(position)
        self.sim.stop()
        address = self.symbols[entry]
        self.sim.set_breakpoint(address)
        self.sim.cont()
        self.console.sync()  # cont flushes typed keys: type only once the program reads again
        self.sim.type(command + "\r")
        stop = self.sim.wait_for_stop(60)
        if not isinstance(stop, BreakpointReached) or stop.pc != address:
            raise ProtocolError(f"the PDP-1 did not start {command!r}: {stop}", self.sim.tail())
        self.sim.clear_breakpoint(address)
        self.free_slices = 0

    def free_slice(self, sample_every: int) -> str:
        """FREE_SLICE instructions at full speed, then, when it is due (after the command's free slices
        1, 1 + k, 1 + 2k ... for ``sample_every`` k; never for 0), a SLICE counted: the sample the cycles
        are estimated from.  Returns the typewriter's output; a stop inside is raised as ``Simh.step``
        raises it (a free slice it cuts short is not numbered)."""
        text, _ = self.sim.step(FREE_SLICE, timeout=600)
        self.free_slices += 1
        if sample_every and self.free_slices % sample_every == 1 % sample_every:
            counted, _ = self.counter.step(SLICE)
            text += counted
        return text

    def _run(self, position: Position, bound: int, reference: ReferenceProof,
             progress: Callable[[Progress], None] | None, pace: float, count_cycles: bool,
             sample_every: int) -> ProofRun:
        began = time.perf_counter()
        leave = self.symbols["prx"]
        self.start_command(position, f"w {bound}", "prove")
        self.sim.set_breakpoint(leave)
        self.counter.reset()
        output: list[str] = []
        if not count_cycles:
            return self._run_free(position, bound, began, leave, progress, reference, sample_every)
        try:
            while True:
                try:
                    text, _ = self.counter.step(SLICE)
                    output.append(text)
                except BreakpointReached as stop_at:
                    if stop_at.pc != leave:
                        raise
                    break
                if progress or pace:
                    now = self._progress_now(began)
                    if pace:
                        ahead = now.seconds_1960 / pace - now.elapsed
                        if ahead > 0:
                            time.sleep(ahead)
                    if progress:
                        progress(self._progress_now(began))
        finally:
            self.sim.clear_breakpoint(leave)
        if pace:
            ahead = seconds(self.counter.cycles) / pace - (time.perf_counter() - began)
            if ahead > 0:
                time.sleep(ahead)
        if progress:
            progress(self._progress_now(began))
        return self._answer(position, bound, output, self.counter.instructions, self.counter.cycles, began, reference)

    def _answer(self, position: Position, bound: int, output: list[str], instructions: int,
                cycles: int | None, began: float, reference: ReferenceProof,
                sample: tuple[int, int] | None = None) -> ProofRun:
        """The program's answer line after ``prove`` has returned, checked against the reference."""
        self.sim.unread("".join(output))
        self.sim.cont()
        answer = self.sim.expect(_ANSWER, 60).group(1)
        host = time.perf_counter() - began
        self.sim.stop()
        return ProofRun(position, bound, self.variants, answer, self._reference(reference, answer),
                        instructions, cycles, host, sample)

    @staticmethod
    def _reference(reference: ReferenceProof, answer: str) -> ProofResult:
        """``ref prove``'s answer; a proof too deep for the frames is an error on both sides (ProofError)."""
        try:
            return reference.result()
        except ProofTooDeep as exc:
            if answer == "error":  # both reached the frames' limit: the limit, not a disagreement
                raise ProofTooDeep(f"{exc}: the PDP-1 answered error too") from None
            raise ProofError(f"{exc}, but the PDP-1 answered {answer!r}") from None

    def _run_free(self, position: Position, bound: int, began: float, leave: int,
                  progress: Callable[[Progress], None] | None, reference: ReferenceProof,
                  sample_every: int) -> ProofRun:
        """The rest of ``run`` at full speed, counting instructions only (SIMH's time), and the cycles
        of a counted slice after every ``sample_every`` free ones (0: none)."""
        first = self.sim.instructions()
        output: list[str] = []
        try:
            while True:  # steps, not cont and ^E: a step cannot race the breakpoint
                try:
                    output.append(self.free_slice(sample_every))
                except BreakpointReached as stop:
                    if stop.pc != leave:
                        raise
                    break
                if progress:
                    progress(Progress(self._nodes_now(), time.perf_counter() - began, 0.0))
        finally:
            self.sim.clear_breakpoint(leave)
        sample = (self.counter.instructions, self.counter.cycles) if sample_every else None
        return self._answer(position, bound, output, self.sim.instructions() - first, None, began, reference,
                            sample)


@dataclass(frozen=True)
class ValueRun:
    """The exact value by bound tests on the PDP-1, and the solver's value for the same game."""

    value: int
    solver: int
    tests: list[ProofRun]

    @property
    def agrees(self) -> bool:
        return self.value == self.solver and all(t.agrees for t in self.tests)


def prove_start(pits: int, seeds: int, variants: Variants, bound: int = 0, **run_options) -> ProofRun:
    """Does the first player finish above ``bound`` in Kalah(pits, seeds)?  One proof on a fresh machine."""
    with ProofMachine(pits, seeds, variants) as machine:
        return machine.run(start_position(pits, seeds), bound, **run_options)


def value_of_start(pits: int, seeds: int, variants: Variants,
                   on_test: Callable[[ProofRun], None] | None = None, **run_options) -> ValueRun:
    """The first player's exact margin by bound tests, each run on the PDP-1 and checked; and ``ref solve``'s."""
    start = start_position(pits, seeds)
    total = 2 * pits * seeds
    runs: list[ProofRun] = []
    with ProofMachine(pits, seeds, variants) as machine:
        def test(bound: int) -> ProofResult:
            run = machine.run(start, bound, **run_options)
            runs.append(run)
            if on_test:
                on_test(run)
            return run.reference if run.agrees else ProofResult(run.pdp1.startswith("above yes"), -1, -1)

        value, _ = exact_value(start, variants, low=-total, high=total, test=test)
    return ValueRun(value, solve_start(pits, seeds, variants), runs)

