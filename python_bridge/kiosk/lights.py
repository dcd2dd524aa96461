"""The PDP-1's console lights, sampled from the simulator between slices of its thinking.

The operator's console showed the accumulator, the in-out register, the
program counter and the program flags in lamps; the kiosk shows the same
registers, read with SIMH's ``examine`` while the machine is stopped between
two ``step`` slices (never while typed keys are pending: see the runner).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..machine.simh import Simh

CYCLES_PER_1960_SECOND = 200_000  # one 5 us memory cycle after another


@dataclass(frozen=True)
class ConsoleLights:
    ac: int  # 18 bits
    io: int  # 18 bits
    pc: int  # 12 bits
    pf: int  # 6 program flags
    seconds: float  # thinking so far, in 1960 seconds

    def message(self) -> dict:
        return {"type": "lights", **asdict(self)}


def sample(sim: Simh, cycles: int) -> ConsoleLights:
    """The lamps now (the machine must be stopped); ``cycles``: memory cycles thought so far."""
    return ConsoleLights(
        ac=sim.examine("ac") & 0o777777,
        io=sim.examine("io") & 0o777777,
        pc=sim.examine("pc") & 0o7777,
        pf=sim.examine("pf") & 0o77,
        seconds=round(cycles / CYCLES_PER_1960_SECOND, 2),
    )
