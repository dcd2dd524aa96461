"""The clock a game runs by: the PDP-1's thinking stepped and counted in memory cycles, at a pace.

Why the driver paces the machine itself: SIMH 3.8.1's ``set throttle`` does
not give 1960 speed for this program.  It calibrates itself at full speed
after every ``run``/``cont`` (about 3.4 million instructions here), and it
measures the host's speed over simulated time in which the typewriter's
waits pass without host time, so a whole level-3 game of 4 pits (55 million
instructions, mostly typewriter waits) ran through in under a second with
``throttle 200K``.  So SIMH runs at full speed and the driver paces what
people see from exact counts:

* the thinking: the PDP-1 stops itself where its choice starts and ends
  (breakpoints at ``think`` and ``thx``) and is stepped between them in
  slices, each instruction's memory cycles counted (``machine.cycles``), and
  each slice let through when its cycles have taken their time at the
  ``Pacer``'s rate: 200,000 cycles (5 us each) a second is 1960 speed;
* the read-in: the machine is stepped through the tape's loader in slices of
  0.1 s with SIMH's reader set to the real reader's 400 frames a second
  (``ptr`` time 500 SIMH time units a frame, 200,000 units a second), and
  the reader's position is read between slices;
* the typewriter: each character is shown a character's time after the one
  before (``Pacer.character``), or later if the machine typed it later.

An unpaced ``Pacer`` runs the same steps without waiting.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ..machine.cycles import CYCLES_PER_SECOND, HISTORY_MAX, CycleCounter
from ..machine.simh import NEVER, PERIOD_RATE, TYPEWRITER_CHARACTERS_PER_SECOND, BreakpointReached, Simh, SimhError

READER_FRAMES_PER_SECOND = 400  # the PDP-1's photoelectric reader (type 760)
READ_IN_SLICE = PERIOD_RATE // 10  # time units stepped between two looks at the reader: 0.1 s
FAST_READ_IN_SLICE = 2_000_000  # the same unpaced: fewer round trips
SLICES_A_SECOND = 20  # paced thinking is looked at (lights, the page) this often
MIN_THINK_SLICE = 1_000  # instructions: a slower pace still steps this many at a time
READER_TIME = PERIOD_RATE // READER_FRAMES_PER_SECOND  # SIMH ptr time: time units a frame
LOADER_START = 0o7751  # where the read-in mode hands over to the tape's block loader
MAX_READ_IN = 40_000_000  # 200 s of 1960 time: a tape that never ends
MAX_THINK = 60_000_000  # instructions, over 500 s of 1960 time; the default level needs about a million


@dataclass
class Pacer:
    """How fast a game runs as people see it; never waits when unpaced.

    ``thinking_rate``: memory cycles a wall second for the PDP-1's thinking
    (``CYCLES_PER_SECOND``, 200,000, is 1960 speed), None for unpaced.
    ``typing_rate``: characters a second on the paper, None for at once.
    ``counted``: whether the thinking is stepped and counted at all (always
    when paced); a game at full speed that shows no 1960 time lets it run free.
    ``sleep``: how the front end waits (the kiosk answers its page meanwhile).
    """

    thinking_rate: int | None = None
    typing_rate: float | None = None
    counted: bool = False
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    free_at: float = field(default=0.0, init=False)  # when the typewriter has finished its last character
    # the paced thinking so far in 1960 seconds (its cycles at the rate): the online exhibit sets a reply's
    # wall time beside it and the typewriter's, how closely a loaded host keeps the pace
    paced_seconds: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self.counted = self.counted or self.paced  # a pace is kept by counting
    @classmethod
    def at_1960_speed(cls, **kwargs) -> "Pacer":
        """The PDP-1 at 200,000 memory cycles a second, its typewriter at 10 characters a second."""
        return cls(CYCLES_PER_SECOND, TYPEWRITER_CHARACTERS_PER_SECOND, True, **kwargs)

    @property
    def paced(self) -> bool:
        """The thinking (and with it the read-in) takes its 1960 time."""
        return self.thinking_rate is not None

    def think_slice(self) -> int:
        """Instructions stepped between two looks while the PDP-1 thinks.

        Paced: about ``SLICES_A_SECOND`` looks a second (1.9 cycles an
        instruction); unpaced: as many as SIMH's history holds.
        """
        if self.thinking_rate is None:
            return HISTORY_MAX
        return min(HISTORY_MAX, max(MIN_THINK_SLICE, self.thinking_rate // SLICES_A_SECOND))

    def thought(self, cycles: int) -> None:
        """A paced thinking of ``cycles`` ended: added to the 1960 seconds so far."""
        if self.thinking_rate:
            self.paced_seconds += cycles / self.thinking_rate

    def wait_until(self, moment: float) -> None:
        delay = moment - self.clock()
        if delay > 0:
            self.sleep(delay)

    def character(self) -> None:
        """Wait for the typewriter to be free, then take one character's time."""
        if not self.typing_rate:
            return
        start = max(self.clock(), self.free_at)
        self.wait_until(start)
        self.free_at = start + 1 / self.typing_rate

    def typewriter_idle(self) -> float:
        """Wait until the last character is typed; the moment it was."""
        if not self.typing_rate:
            return self.clock()
        self.wait_until(self.free_at)
        return max(self.clock(), self.free_at)

    def run_for(self, started: float, units: int, rate: int | None) -> None:
        """Let ``units`` at ``rate`` a second pass since ``started`` (nothing to wait for when unpaced)."""
        if rate:
            self.wait_until(started + units / rate)


def reader_position(sim: Simh) -> int:
    """Frames SIMH's paper tape reader has read (its ``POS`` register, printed in decimal)."""
    out = sim.command("examine ptr pos")
    try:
        return int(out.split(":")[1])
    except (IndexError, ValueError):
        raise SimhError(f"examine ptr pos: {out!r}", sim.tail()) from None


def wait_for_break(sim: Simh, pc: int, timeout: float) -> None:
    """Wait for the running machine to stop at the breakpoint ``pc`` (any other stop raises)."""
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
    """Step the stopped machine until the breakpoint ``end``, in SIMH time units paced at
    ``PERIOD_RATE`` a second when the pacer is paced; the instructions run."""
    first = sim.instructions()
    started = pacer.clock()
    done = 0
    rate = PERIOD_RATE if pacer.paced else None
    slice_ = READ_IN_SLICE if pacer.paced else FAST_READ_IN_SLICE
    while not _slice_to(sim.step, slice_, sim, end):
        done += slice_
        if done > limit:
            raise SimhError(f"{what} ran for more than {limit} instructions", sim.tail())
        if between is not None:
            between()
        pacer.run_for(started, done, rate)
    used = sim.instructions() - first
    pacer.run_for(started, used, rate)
    return used


def think_to_break(sim: Simh, end: int, pacer: Pacer, limit: int = MAX_THINK,
                   between: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Step the PDP-1's thinking to the breakpoint ``end`` at the pacer's rate; instructions and cycles.

    Every instruction's cycles are counted (``CycleCounter``).  ``between``
    hears the cycles so far after every slice (the console lights, a
    "thinking" line, the kiosk's page).
    """
    counter = CycleCounter(sim)
    started = pacer.clock()
    slice_ = pacer.think_slice()
    while not _slice_to(counter.step, slice_, sim, end):
        if counter.instructions > limit:
            raise SimhError(f"the PDP-1's thinking ran for more than {limit} instructions", sim.tail())
        pacer.run_for(started, counter.cycles, pacer.thinking_rate)
        if between is not None:
            between(counter.cycles)
    pacer.run_for(started, counter.cycles, pacer.thinking_rate)
    pacer.thought(counter.cycles)
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
