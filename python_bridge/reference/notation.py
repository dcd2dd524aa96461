"""Position notation and game records, exactly as scripts and the PDP-1's diagnostic mode use them.

A position is the 2m+2 counts in sowing order (South pits 1..m, South store,
North pits 1..m, North store) separated by single spaces, then the side to
move: ``s``, ``n``, or ``e`` when the game is over.  The start of standard
Kalah is ``4 4 4 4 4 4 0 4 4 4 4 4 4 0 s``.

A game record is the list of pits played, with ``swap`` where the pie rule was used.
"""

from __future__ import annotations

from .rules import ENDED, MAX_PITS, MIN_PITS, NORTH, SOUTH, Position

SIDES = (SOUTH, NORTH, ENDED)
MAX_COUNT = 72  # the most seeds a 6x6 game holds; no pit or store can exceed it
SWAP = "swap"


class NotationError(ValueError):
    """Text that is not a well-formed position or record."""


def format_position(position: Position) -> str:
    """The notation of ``position``."""
    return " ".join(str(c) for c in position.board) + " " + position.to_move


def _quoted(word: str, limit: int = 16) -> str:
    """A word as an error message shows it: quoted, and cut short when long (one line, not 100,000 digits)."""
    return repr(word) if len(word) <= limit else f"{word[:limit]!r}... ({len(word):,} characters)"


def parse_position(text: str) -> Position:
    """Parse the notation strictly: single spaces, 4 to 14 counts, a side letter.

    A count is one or two decimal digits.  The board must be one a game could
    hold: at most 72 seeds in all; a finished game (``e``) has empty pits; the
    side to move has at least one seed in its pits (otherwise the game is over).
    The PDP-1's diagnostic ``p`` command applies exactly these checks.
    """
    if text != text.strip() or "  " in text or "\t" in text:
        raise NotationError("a position is counts separated by single spaces, then s, n or e")
    fields = text.split(" ")
    if len(fields) < 2:
        raise NotationError("a position needs its counts and the side to move")
    *counts_text, side = fields
    if side.isascii() and side.isdigit():
        raise NotationError(f"a position ends with the side to move (s, n or e) after its 2m+2 counts; "
                            f"{_quoted(text)} ends with a count")
    if side not in SIDES:
        raise NotationError(f"side to move must be s, n or e, not {_quoted(side)}")
    counts = []
    for field in counts_text:
        if not (field.isascii() and field.isdigit() and len(field) <= 2):
            raise NotationError(f"{_quoted(field)} is not a count")
        counts.append(int(field))
    if len(counts) % 2 or not MIN_PITS <= len(counts) // 2 - 1 <= MAX_PITS:
        raise NotationError(
            f"a position has 2m+2 counts for m = {MIN_PITS}..{MAX_PITS} (4 to 14), not {len(counts)}"
        )
    if sum(counts) > MAX_COUNT:
        raise NotationError(f"at most {MAX_COUNT} seeds in all")
    position = Position(tuple(counts), side)
    if side == ENDED:
        if position.side_seeds(SOUTH) or position.side_seeds(NORTH):
            raise NotationError("a finished game (e) has empty pits")
    elif position.side_seeds(side) == 0:
        raise NotationError("the side to move has no seeds: the game is over")
    return position


def format_record(moves: list[int | str]) -> str:
    """A game record as text: pits and ``swap`` separated by spaces."""
    return " ".join(str(mv) for mv in moves)


def parse_record(text: str) -> list[int | str]:
    """Parse a game record (pits 1..6 and ``swap``, separated by white space)."""
    moves: list[int | str] = []
    for word in text.split():
        if word == SWAP:
            moves.append(SWAP)
        elif word.isdigit() and word.isascii() and 1 <= int(word) <= MAX_PITS:
            moves.append(int(word))
        else:
            raise NotationError(f"{_quoted(word)} is not a pit or swap")
    return moves
