"""FIO-DEC, the PDP-1's six-bit typewriter and paper-tape character code.

The Friden Flexowriter on the PDP-1 console used FIO-DEC ("concise code"): 64
codes, most of which mean one character in lower case and another in upper
case.  Case is a *state* of the typewriter, changed by two shift codes, so a
string of text becomes a stream of codes with shifts inserted where the case
changes.  This module is the one place the project keeps that knowledge:

* ``encode(text)`` turns ASCII text into codes, inserting case shifts the way
  macro1's ``text`` pseudo-op does (the typewriter starts in lower case);
* ``decode(codes)`` renders a code stream as text, tracking the case the way
  SIMH's typewriter does; ``Typewriter`` does the same incrementally, for a
  program's output arriving one code at a time;
* ``keyboard(text)`` gives the codes a PDP-1 program receives when ``text`` is
  typed on SIMH's console (what SIMH drops, and the shifts it inserts);
* ``LOWER`` / ``UPPER`` map codes to characters, ``CHARACTERS`` maps characters
  to ``(code, case)``; the special codes have names (``LOWER_CASE`` ...).

ASCII stands in for the few Flexowriter glyphs it lacks, exactly as SIMH and
macro1 both do: ``~`` upper 003 (overline), ``#`` upper 004 (implies), ``!``
upper 005 (or), ``&`` upper 006 (and), ``^`` upper 011 (up arrow), the
backquote upper 020, ``@`` lower 040 (centre dot), ``_`` upper 040 (underline),
``\\`` lower 056 (overbar), ``|`` upper 056, ``*`` upper 073 (times).

Where the two programs differ (all in the control characters; the printable
characters agree code for code, see ``MACRO1_ONLY`` and ``SIMH_ONLY``):

* carriage return: SIMH's keyboard delivers ASCII CR as 077 and prints 077 as
  CR LF; macro1's ``text`` turns a source newline into 077.  A line feed is
  never delivered by SIMH.
* macro1 (3.8.1) loops forever on a bare CR or on a character with no code
  inside ``text``; SIMH silently drops characters it cannot translate.
* DEL becomes backspace (075) in both.
* SIMH prints nothing for 034/035 (colour shifts), 013 (stop) and the
  unassigned codes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

__all__ = [
    "BACKSPACE", "BLACK", "CARRIAGE_RETURN", "CHARACTERS", "Case", "LOWER",
    "LOWER_CASE", "MACRO1_ONLY", "RED", "SIMH_ONLY", "SPACE", "STOP", "TAB",
    "UPPER", "UPPER_CASE", "Typewriter", "decode", "encode", "encode_char",
    "keyboard", "pack",
]

SPACE = 0o00
STOP = 0o13               #: stop code (tape reader); prints nothing
BLACK = 0o34              #: colour shift to the black half of the ribbon
RED = 0o35                #: colour shift to the red half of the ribbon
TAB = 0o36
LOWER_CASE = 0o72         #: shift to lower case
UPPER_CASE = 0o74         #: shift to upper case
BACKSPACE = 0o75
CARRIAGE_RETURN = 0o77    #: carriage return and line feed


class Case(enum.Enum):
    """The typewriter's shift state."""

    LOWER = "lower"
    UPPER = "upper"


def _table(spec: str) -> dict[int, str]:
    """Parse ``"code chars code chars ..."``: runs of characters on consecutive codes."""
    table: dict[int, str] = {}
    fields = spec.split()
    for code_text, chars in zip(fields[::2], fields[1::2], strict=True):
        for offset, char in enumerate(chars):
            table[int(code_text, 8) + offset] = char
    return table


_CONTROLS = {SPACE: " ", TAB: "\t", BACKSPACE: "\b", CARRIAGE_RETURN: "\n"}

#: Lower-case meaning of each code that prints something.
LOWER: dict[int, str] = {
    **_table("01 123456789 20 0/stuvwxyz 33 , 40 @jklmnopqr 54 -)\\( 61 abcdefghi 73 ."),
    **_CONTROLS,
}
#: Upper-case meaning of each code that prints something.
UPPER: dict[int, str] = {
    **_table("01 \"'~#!&<>^ 20 `?STUVWXYZ 33 = 40 _JKLMNOPQR 54 +]|[ 61 ABCDEFGHI 73 *"),
    **_CONTROLS,
}

#: Every character with a code: ``char -> (code, case)``; case is None when
#: the code means the same character in both cases (space, tab, backspace, CR).
CHARACTERS: dict[str, tuple[int, Case | None]] = {}
for _code, _char in LOWER.items():
    CHARACTERS[_char] = (_code, None if UPPER.get(_code) == _char else Case.LOWER)
for _code, _char in UPPER.items():
    CHARACTERS.setdefault(_char, (_code, Case.UPPER))
CHARACTERS["\r"] = (CARRIAGE_RETURN, None)
CHARACTERS["\x7f"] = (BACKSPACE, None)

#: ASCII characters macro1's table knows and SIMH's keyboard does not deliver.
MACRO1_ONLY: dict[str, str] = {
    "\n": "text/flexo: newline assembles as carriage return 077",
}
#: ASCII characters SIMH's keyboard handles and macro1's text cannot.
SIMH_ONLY: dict[str, str] = {
    "\r": "keyboard CR is delivered as 077; macro1 3.8.1 hangs on a bare CR in text",
}


def encode_char(char: str) -> tuple[int, Case | None]:
    """Return ``(code, case)`` for one character; ``KeyError`` if it has no FIO-DEC code."""
    return CHARACTERS[char]


def encode(text: str, *, case: Case = Case.LOWER, end_lower: bool = False,
           errors: str = "strict") -> list[int]:
    """Encode ``text`` as FIO-DEC codes, inserting a shift wherever the case changes.

    ``case`` is the typewriter's state before the first character (lower after a
    reset).  ``end_lower`` appends a final shift back to lower case when the text
    ends in upper case, as macro1's ``text`` does before its closing delimiter.
    ``"\\r\\n"`` counts as one carriage return.  ``errors="strict"`` raises
    ``ValueError`` for a character with no code; ``"ignore"`` drops it.
    """
    codes: list[int] = []
    state = case
    previous = ""
    for char in text:
        if char == "\n" and previous == "\r":
            previous = char
            continue
        previous = char
        entry = CHARACTERS.get(char)
        if entry is None:
            if errors == "ignore":
                continue
            raise ValueError(f"no FIO-DEC code for {char!r}")
        code, needed = entry
        if needed is not None and needed is not state:
            codes.append(UPPER_CASE if needed is Case.UPPER else LOWER_CASE)
            state = needed
        codes.append(code)
    if end_lower and state is Case.UPPER:
        codes.append(LOWER_CASE)
    return codes


def keyboard(text: str, *, case: Case = Case.LOWER) -> tuple[list[int], Case]:
    """The codes SIMH 3.8.1 delivers to ``tyi`` for keys typed, and the case after.

    SIMH keeps one case state for the console; a key whose character needs the
    other case is delivered as the shift code first, then the character.  CR is
    077, DEL becomes backspace 075, a line feed and the characters with no code
    (``; $ { } :`` ...) are echoed but never delivered.  Characters outside ASCII
    are dropped here (SIMH would take the low seven bits of each byte it reads).
    """
    codes: list[int] = []
    for char in text:
        if char == "\n":
            continue
        entry = CHARACTERS.get("\b" if char == "\x7f" else char)
        if entry is None or ord(char) > 127:
            continue
        code, needed = entry
        if needed is not None and needed is not case:
            codes.append(UPPER_CASE if needed is Case.UPPER else LOWER_CASE)
            case = needed
        codes.append(code)
    return codes, case


class Typewriter:
    """Render FIO-DEC output one code at a time, keeping the case state between calls.

    Codes with no printed form (colour shifts, stop, unassigned codes) render as
    nothing, as on SIMH's console.  Only the low six bits of a code are used,
    as ``tyo`` does.
    """

    def __init__(self, case: Case = Case.LOWER) -> None:
        self.case = case

    def feed(self, code: int) -> str:
        """Return the text one code prints (possibly empty) and update the case."""
        code &= 0o77
        if code == LOWER_CASE:
            self.case = Case.LOWER
            return ""
        if code == UPPER_CASE:
            self.case = Case.UPPER
            return ""
        table = UPPER if self.case is Case.UPPER else LOWER
        return table.get(code, "")

    def feed_all(self, codes: Iterable[int]) -> str:
        """Render a sequence of codes."""
        return "".join(self.feed(code) for code in codes)


def decode(codes: Iterable[int], *, case: Case = Case.LOWER) -> str:
    """Render a FIO-DEC code stream as text; carriage return becomes ``"\\n"``."""
    return Typewriter(case).feed_all(codes)


def pack(codes: Iterable[int]) -> list[int]:
    """Pack codes three to an 18-bit word, first code in the high bits, zero-padded."""
    codes = list(codes)
    words = []
    for start in range(0, len(codes), 3):
        chunk = codes[start:start + 3] + [0, 0]
        words.append((chunk[0] << 12) | (chunk[1] << 6) | chunk[2])
    return words
