"""The PDP-1's console lights, sampled from the simulator whenever it may be stopped.

The operator's console showed the program counter, memory address, memory
buffer, accumulator, in-out register and program flags in lamps, with the
sense switches and the test word switches below; the kiosk shows the same
registers, read with one SIMH ``examine`` while the machine is stopped:
between two ``step`` slices while it thinks, and at the keyboard loop while
it waits for a key (never while it types: see the runner).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from ..machine.cycles import CYCLES_PER_SECOND
from ..machine.simh import Simh, SimhError

REGISTERS = ("pc", "ma", "mb", "ac", "io", "ov", "pf", "ss", "tw")
_WIDTH = {"pc": 0o7777, "ma": 0o7777, "mb": 0o777777, "ac": 0o777777, "io": 0o777777, "ov": 1, "pf": 0o77,
          "ss": 0o77, "tw": 0o777777}
_LINE = re.compile(r"^\s*([A-Z]+):\s*([0-7]+)\s*$", re.M)


@dataclass(frozen=True)
class ConsoleLights:
    pc: int  # 12 bits
    ma: int  # 12 bits
    mb: int  # 18 bits
    ac: int  # 18 bits
    io: int  # 18 bits
    ov: int  # overflow, 1 bit
    pf: int  # 6 program flags
    ss: int  # the six sense switches as set
    tw: int  # the test word switches as set
    seconds: float  # thinking so far, in 1960 seconds (0 outside the thinking)
    phase: str  # where the sample was taken: "thinking" or "waiting" (the keyboard loop)

    def message(self) -> dict:
        return {"type": "lights", **asdict(self)}


def sample(sim: Simh, cycles: int = 0, phase: str = "thinking") -> ConsoleLights:
    """The lamps now (the machine must be stopped): one ``examine`` of all nine registers;
    ``cycles``: memory cycles thought so far."""
    out = sim.command("examine " + ",".join(REGISTERS))
    values = {name.lower(): int(value, 8) for name, value in _LINE.findall(out)}
    missing = [r for r in REGISTERS if r not in values]
    if missing:
        raise SimhError(f"examine {','.join(REGISTERS)}: no {missing[0]} in {out!r}", sim.tail())
    return ConsoleLights(**{r: values[r] & _WIDTH[r] for r in REGISTERS},
                         seconds=round(cycles / CYCLES_PER_SECOND, 2), phase=phase)
