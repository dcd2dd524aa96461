"""The diagnostic protocol as the reference engine answers it: the golden side of the differential fuzz.

Given the panel (pits a side, variants), the current position and a line
*as typed*, ``DiagnosticModel.answer`` returns exactly the line the PDP-1
must answer and updates the position as the PDP-1 must.  The typed line is
first passed through what SIMH's keyboard does to it (characters without a
FIO-DEC code never arrive, DEL becomes backspace) and what the program's
line reader does (backspace takes back a character, more than 80 characters
spoil the line).  Each tape answers p and m and a command of its own: the
game's tape ``b`` (search), the analysis tape ``w`` (prove); the other is
answered ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.fiodec import CHARACTERS

from ..reference.notation import NotationError, format_position, parse_position
from ..reference.prove import ProofError, deepen, prove
from ..reference.rules import ENDED, Position, RulesError, Variants, play, start_position
from ..reference.search import MAX_DEPTH, MIN_DEPTH, best_move
from .kalah_program import GAME, Program

LINE_MAX = 80  # the program's line buffer (lbmax)
DEL = "\x7f"


def delivered_line(typed: str) -> tuple[str, bool]:
    """What the program's line reader holds after ``typed`` (without the CR), and whether it overflowed."""
    held: list[str] = []
    overflow = False
    for ch in typed:
        if ch in (DEL, "\b"):
            if held:
                held.pop()
            continue
        if ch not in CHARACTERS and ch != "\t":
            continue  # no FIO-DEC code: SIMH echoes it but never delivers it
        if len(held) == LINE_MAX:
            overflow = True
            continue
        held.append(ch)
    return "".join(held), overflow


def _bound(token: str) -> int | None:
    """A proof's bound: a protocol number with an optional minus sign before it (``-0`` is 0)."""
    number = _number(token[1:] if token.startswith("-") else token)
    if number is None:
        return None
    return -number if token.startswith("-") else number


def _number(token: str) -> int | None:
    """A protocol number: one or two decimal digits."""
    if 1 <= len(token) <= 2 and token.isascii() and token.isdigit():
        return int(token)
    return None


@dataclass
class DiagnosticModel:
    """The reference's view of the diagnostic session: panel settings and position."""

    pits: int
    seeds: int
    variants: Variants
    position: Position
    program: Program = GAME
    brief: bool = False  # the panel's brief form: ``m`` answers ``=`` alone, the position stays in core

    @classmethod
    def fresh(cls, pits: int, seeds: int, variants: Variants, program: Program = GAME,
              brief: bool = False) -> "DiagnosticModel":
        """The state right after read-in of ``program``'s tape: the opening position for the panel."""
        return cls(pits, seeds, variants, start_position(pits, seeds), program, brief)

    def answer(self, typed: str) -> str:
        line, overflow = delivered_line(typed)
        if overflow:
            return "error"
        head, sep, rest = line.partition(" ")
        if not sep:
            return "error"
        if head == "p":
            return self._set(rest)
        if head == "m":
            return self._move(rest)
        own = {"b": self._best, "w": self._prove, "d": self._deepen}
        if head in own and head in self.program.commands:
            return own[head](rest)
        return "error"

    def _set(self, text: str) -> str:
        fields = text.split(" ")
        if len(fields) != 2 * self.pits + 3 or any(_number(f) is None for f in fields[:-1]):
            return "error"
        try:
            position = parse_position(text)
        except NotationError:
            return "error"
        self.position = position
        return "ok"

    def _move(self, text: str) -> str:
        pit = _number(text)
        if pit is None or self.position.to_move == ENDED:
            return "error"
        try:
            self.position = play(self.position, pit, self.variants).position
        except RulesError:
            return "error"
        return "=" if self.brief else "= " + format_position(self.position)

    def _best(self, text: str) -> str:
        depth = _number(text)
        if depth is None or not MIN_DEPTH <= depth <= MAX_DEPTH or self.position.to_move == ENDED:
            return "error"
        return best_move(self.position, depth, self.variants).line()

    def _prove(self, text: str) -> str:
        bound = _bound(text)
        if bound is None or self.position.to_move == ENDED:
            return "error"
        try:
            return prove(self.position, bound, self.variants).line()
        except ProofError:
            return "error"  # deeper than the PDP-1's frames

    def _deepen(self, text: str) -> str:
        deepest = _number(text)
        if deepest is None or deepest == 0 or self.position.to_move == ENDED:
            return "error"
        return "\n".join([d.line() for d in deepen(self.position, deepest, self.variants)] + ["ok"])
