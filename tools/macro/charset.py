"""macro1's view of FIO-DEC: a 128-entry ASCII table with case bits.

``text``, ``flexo`` and ``char`` look characters up here.  Each entry is the
six-bit code plus ``LOWER`` and/or ``UPPER`` marking the case(s) in which the
code means that character; a character with no code maps to ``BAD`` (an unused
code with neither case bit), which the assembler reports and treats as code 0.
The table is derived from ``tools.fiodec``; the one deliberate difference is
that newline has no entry here (``text`` converts it to carriage return itself).
"""

from __future__ import annotations

from tools import fiodec

UPPER = 0o100
LOWER = 0o200
BOTH = LOWER | UPPER
CODE_BITS = 0o77
BAD = 0o14


def _build() -> tuple[int, ...]:
    table = []
    for ascii_code in range(128):
        entry = fiodec.CHARACTERS.get(chr(ascii_code)) if ascii_code != 10 else None
        if entry is None:
            table.append(BAD)
            continue
        code, case = entry
        bits = BOTH if case is None else (UPPER if case is fiodec.Case.UPPER else LOWER)
        table.append(bits | code)
    return tuple(table)


#: ASCII code (0-127) -> FIO-DEC code | case bits, or BAD.
ASCII_TO_FIODEC: tuple[int, ...] = _build()
