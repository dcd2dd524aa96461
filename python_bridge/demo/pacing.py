"""1960 speed for the show: the PDP-1 stepped at 200,000 instructions a second, the typewriter at 10.

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
  0.1 s of 1960 time with SIMH's reader set to the real reader's 400 frames
  a second (``ptr`` time 500 instructions a frame), and the reader's
  position is read between slices;
* the thinking: the PDP-1 stops itself where its choice starts and ends
  (breakpoints at ``think`` and ``thx``) and is stepped between them, 20,000
  instructions every 0.1 s;
* the typewriter: each character of output is shown 0.1 s after the one
  before (``Pacer``), or later if the machine typed it later.

``--fast`` runs the same steps without waiting.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from .tape_picture import READER_FRAMES_PER_SECOND
from ..machine.simh import BreakpointReached, Simh, SimhError

PDP1_RATE = 200_000  # instructions a second: the yardstick of 1960 time (README)
TYPEWRITER_RATE = 10  # characters a second
SLICE = PDP1_RATE // 10  # instructions stepped between two looks: 0.1 s of 1960 time
FAST_SLICE = 2_000_000  # the same unpaced: fewer round trips
READER_TIME = PDP1_RATE // READER_FRAMES_PER_SECOND  # SIMH ptr time: instructions a frame
LOADER_START = 0o7751  # where the read-in mode hands over to the tape's block loader
MAX_READ_IN = 40_000_000  # 200 s of 1960 time: a tape that never ends
MAX_THINK = 60_000_000  # 300 s of 1960 time; the default level needs under 2 million
NEVER = "(?!x)x"


def seconds_1960(instructions: int) -> float:
    return instructions / PDP1_RATE


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

    def run_for(self, started: float, instructions: int) -> None:
        """Let ``instructions`` of 1960 time pass since ``started``."""
        self.wait_until(started + seconds_1960(instructions))


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


def step_to_break(sim: Simh, end: int, pacer: Pacer, limit: int, what: str,
                  between: Callable[[], None] | None = None) -> int:
    """Step the stopped machine until the breakpoint ``end``; paced to 1960 time. Instructions run.

    Output typed meanwhile (none is expected) is given back to the machine's
    reader so that it reaches the transcript in order.
    """
    first = sim.instructions()
    started = pacer.clock()
    done = 0
    slice_ = SLICE if pacer.paced else FAST_SLICE
    while True:
        try:
            output, _pc = sim.step(slice_)
        except BreakpointReached as stop:
            if stop.pc != end:
                raise
            break
        if output:
            sim.unread(output)
        done += slice_
        if done > limit:
            raise SimhError(f"{what} ran for more than {limit} instructions", sim.tail())
        if between is not None:
            between()
        pacer.run_for(started, done)
    used = sim.instructions() - first
    pacer.run_for(started, used)
    return used


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
