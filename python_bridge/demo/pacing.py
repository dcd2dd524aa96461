"""1960 speed for the show: the PDP-1 stepped at 200,000 memory cycles a second, the typewriter at 10.

Why the show paces the machine itself: SIMH 3.8.1's ``set throttle`` does
not give 1960 speed for this program.  It calibrates itself at full speed
after every ``run``/``cont`` (about 3.4 million instructions here), and it
measures the host's speed over simulated time in which the typewriter's
waits pass without host time, so on this machine a whole level-3 game of
4 pits (55 million instructions, mostly typewriter waits) ran through in
under a second with ``throttle 200K``.  So the show runs SIMH at full speed
and paces what the audience sees, from exact instruction counts, as the
kiosk does:

* the read-in: the machine is stepped through the tape's loader in slices of
  0.1 s with SIMH's reader set to the real reader's 400 frames a second
  (``ptr`` time 500 SIMH time units a frame, 200,000 units a second), and
  the reader's position is read between slices.  The loader spends its time
  waiting for the reader, so the reader's speed is what sets this pace;
* the thinking: the PDP-1 stops itself where its choice starts and ends
  (breakpoints at ``think`` and ``thx``) and is stepped between them in
  slices of 10,000 instructions, each instruction's memory cycles counted
  (``machine.cycles``), and each slice shown when its cycles have taken
  their 1960 time: 200,000 cycles (5 us each) a second;
* the typewriter: each character of output is shown 0.1 s after the one
  before (``Pacer``), or later if the machine typed it later.

``--fast`` runs the same steps without waiting.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from .tape_picture import READER_FRAMES_PER_SECOND
from ..machine.cycles import CYCLES_PER_SECOND, HISTORY_MAX, CycleCounter, seconds
from ..machine.simh import BreakpointReached, Simh, SimhError

PDP1_RATE = 200_000  # SIMH time units a second while the tape is read in (the reader's clock)
TYPEWRITER_RATE = 10  # characters a second
SLICE = PDP1_RATE // 10  # time units stepped between two looks at the reader: 0.1 s
FAST_SLICE = 2_000_000  # the same unpaced: fewer round trips
THINK_SLICE = 10_000  # instructions between two looks while thinking: about 0.1 s (1.9 cycles an instruction)
READER_TIME = PDP1_RATE // READER_FRAMES_PER_SECOND  # SIMH ptr time: time units a frame
LOADER_START = 0o7751  # where the read-in mode hands over to the tape's block loader
MAX_READ_IN = 40_000_000  # 200 s of 1960 time: a tape that never ends
MAX_THINK = 60_000_000  # instructions, over 500 s of 1960 time; the default level needs about a million
NEVER = "(?!x)x"


def seconds_1960(cycles: int) -> float:
    """True 1960 seconds of ``cycles`` memory cycles."""
    return seconds(cycles)


@dataclass
class Pacer:
    """The show's clock: when the next thing may appear, when paced; never waits when not."""

    paced: bool
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    free_at: float = field(default=0.0)  # when the typewriter has finished its last character

    def wait_until(self, moment: float) -> None:
        if not self.paced:
            return
        delay = moment - self.clock()
        if delay > 0:
            self.sleep(delay)

    def character(self) -> None:
        """Wait for the typewriter to be free, then take 1/10 s for one character."""
        if not self.paced:
            return
        start = max(self.clock(), self.free_at)
        self.wait_until(start)
        self.free_at = start + 1 / TYPEWRITER_RATE

    def typewriter_idle(self) -> float:
        """Wait until the last character is typed; the moment it was."""
        if self.paced:
            self.wait_until(self.free_at)
        return max(self.clock(), self.free_at) if self.paced else self.clock()

    def run_for(self, started: float, units: int, rate: int = PDP1_RATE) -> None:
        """Let ``units`` at ``rate`` a second (SIMH time units, or memory cycles) pass since ``started``."""
        self.wait_until(started + units / rate)


def reader_position(sim: Simh) -> int:
    """Frames SIMH's paper tape reader has read (its ``POS`` register, printed in decimal)."""
    out = sim.command("examine ptr pos")
    try:
        return int(out.split(":")[1])
    except (IndexError, ValueError):
        raise SimhError(f"examine ptr pos: {out!r}", sim.tail()) from None


def wait_for_break(sim: Simh, pc: int, timeout: float) -> None:
    """Wait for the running machine to stop at the breakpoint ``pc``."""
    try:
        sim.expect(NEVER, timeout=timeout)
    except BreakpointReached as stop:
        if stop.pc != pc:
            raise
        return


def _slice_to(step: Callable[[int], tuple[str, int | None]], instructions: int, sim: Simh, end: int) -> bool:
    """One slice of ``instructions`` run by ``step``; True when it stopped at the breakpoint ``end``
    (any other stop raises).  Output typed meanwhile (none is expected) is given back to the
    machine's reader so that it reaches the transcript in order."""
    try:
        output, _pc = step(instructions)
    except BreakpointReached as stop:
        if stop.pc != end:
            raise
        return True
    if output:
        sim.unread(output)
    return False


def step_to_break(sim: Simh, end: int, pacer: Pacer, limit: int, what: str,
                  between: Callable[[], None] | None = None) -> int:
    """Step the stopped machine until the breakpoint ``end``; paced to 1960 time. Instructions run."""
    first = sim.instructions()
    started = pacer.clock()
    done = 0
    slice_ = SLICE if pacer.paced else FAST_SLICE
    while not _slice_to(sim.step, slice_, sim, end):
        done += slice_
        if done > limit:
            raise SimhError(f"{what} ran for more than {limit} instructions", sim.tail())
        if between is not None:
            between()
        pacer.run_for(started, done)
    used = sim.instructions() - first
    pacer.run_for(started, used)
    return used


def think_to_break(sim: Simh, end: int, pacer: Pacer, limit: int = MAX_THINK,
                   between: Callable[[], None] | None = None) -> tuple[int, int]:
    """Step the PDP-1's thinking to the breakpoint ``end``, paced at 200,000 cycles a second.

    Every instruction's cycles are counted (``CycleCounter``); unpaced, the
    slices are as long as SIMH's history.  ``between`` is called after every
    slice (the host's "thinking" line).  Returns instructions and cycles.
    """
    counter = CycleCounter(sim)
    started = pacer.clock()
    slice_ = THINK_SLICE if pacer.paced else HISTORY_MAX
    while not _slice_to(counter.step, slice_, sim, end):
        if counter.instructions > limit:
            raise SimhError(f"the PDP-1's thinking ran for more than {limit} instructions", sim.tail())
        pacer.run_for(started, counter.cycles, CYCLES_PER_SECOND)
        if between is not None:
            between()
    pacer.run_for(started, counter.cycles, CYCLES_PER_SECOND)
    return counter.instructions, counter.cycles


def read_in(sim: Simh, start: int, pacer: Pacer, reader_at: Callable[[int], None], timeout: float) -> int:
    """Carry out the read-in the machine was booted for; the program left stopped at ``start``.

    The machine was booted (READ IN) with breakpoints at the loader's start
    and at ``start``: the hardware's read-in mode has read the loader, and
    the loader now reads the blocks at the reader's speed.  ``reader_at``
    hears the reader's position after every slice.  Returns the instructions
    the read-in took.
    """
    wait_for_break(sim, LOADER_START, timeout)
    sim.command(f"nobreak {LOADER_START:o}")  # the loader comes back here after every block
    if pacer.paced:
        sim.command(f"deposit ptr time {READER_TIME}")
    reader_at(reader_position(sim))
    used = step_to_break(sim, start, pacer, MAX_READ_IN, "the read-in",
                         between=lambda: reader_at(reader_position(sim)))
    reader_at(reader_position(sim))
    sim.command(f"nobreak {start:o}")
    return used
