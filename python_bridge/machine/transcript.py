"""The play-mode typewriter transcript, turned into events.

The PDP-1 program types for people, but regularly enough to parse without
guessing.  A game looks like this (``pdp1_src/kalah.mac`` types it)::

    kalah for the pdp-1
    6 pits, 4 seeds, level auto.             (or level 1-20: a fixed depth; 1 pit, 1 seed)
    with empty capture, pie rule.           (only when a variant is on)
    you move first.                          (or: the pdp-1 moves first. /
                                              the pdp-1 plays both sides.)

            6  5  4  3  2  1                 the top side's pit numbers, from its own left
     pdp-1  4  4  4  4  4  4                 top row: the other side, pit m first
         0                    0              its store at the left, the bottom side's at the right
            4  4  4  4  4  4  you            bottom row: pits 1..m
            1  2  3  4  5  6
    your move? 3                             (SIMH echoes the key)
    you play 3, move again.
    pdp-1 plays 5, captures 6.
    pdp-1 swaps.
    game over.
    pdp-1 25, you 23.
    pdp-1 wins.                              (or: you win. / a draw.)
    type any key for a new game.

``TranscriptParser.feed`` takes raw output as it arrives and returns the
events of the lines completed so far; prompts (which end without a carriage
return) are reported as soon as they are seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..reference.rules import NORTH, SOUTH, Position, Variants

PLAYER_NAMES = ("pdp-1", "you", "south", "north")


@dataclass(frozen=True)
class Title:
    pits: int
    seeds: int
    level: int  # plies searched; 0 for the default level (budgeted deepening)
    variants: Variants
    first: str  # "pdp-1", "you" or "both"


@dataclass(frozen=True)
class Board:
    """The board as drawn: rows left to right as printed."""

    top_label: str
    top_row: tuple[int, ...]  # the top side's pits m..1
    top_store: int
    bottom_store: int
    bottom_row: tuple[int, ...]  # the bottom side's pits 1..m
    bottom_label: str

    def position(self, bottom_side: str, to_move: str) -> Position:
        """The board in notation order, given which side sits at the bottom."""
        top = tuple(reversed(self.top_row))
        if bottom_side == SOUTH:
            board = self.bottom_row + (self.bottom_store,) + top + (self.top_store,)
        else:
            board = top + (self.top_store,) + self.bottom_row + (self.bottom_store,)
        return Position(board, to_move)


@dataclass(frozen=True)
class Move:
    player: str  # "pdp-1", "you", "south", "north"
    pit: int
    captured: int  # 0 if no capture
    extra_turn: bool


@dataclass(frozen=True)
class Swap:
    player: str


@dataclass(frozen=True)
class Prompt:
    swap_offered: bool


@dataclass(frozen=True)
class Complaint:
    """The program refused what was typed; nothing changed."""

    text: str


@dataclass(frozen=True)
class GameOver:
    scores: tuple[tuple[str, int], tuple[str, int]]
    winner: str | None  # a player name, None for a draw

    def result(self) -> str:
        """The result in words for a record or a summary: ``pdp-1 1, you 3; you win``.

        Why here: the record of ``play``, the demo's record and its summary all
        say it, and "you" takes "win" where a side's name takes "wins".
        """
        scores = ", ".join(f"{player} {score}" for player, score in self.scores)
        if self.winner is None:
            return f"{scores}; a draw"
        return f"{scores}; {self.winner} {'win' if self.winner == 'you' else 'wins'}"


@dataclass(frozen=True)
class NewGameOffer:
    pass


@dataclass(frozen=True)
class BadTestWord:
    text: str


Event = Title | Board | Move | Swap | Prompt | Complaint | GameOver | NewGameOffer | BadTestWord

COMPLAINTS = ("no such pit.", "type a pit number.", "that pit is empty.", "no swap now.")
VARIANT_WORDS = {
    "empty capture": "empty_capture",
    "deferred end": "deferred_end",
    "remainder void": "remainder_void",
    "pie rule": "pie_rule",
}

_SETTINGS = re.compile(r"(\d) (pits?), (\d) (seeds?), level (\d+|auto)\.")
_WITH = re.compile(r"with (.+)\.")
_FIRST = {"you move first.": "you", "the pdp-1 moves first.": "pdp-1", "the pdp-1 plays both sides.": "both"}
FIRST_PLAYERS = tuple(_FIRST.values())  # who moves first, as a title (and a record's ``first:``) says it
_TOP = re.compile(r" (pdp-1|north|south|you)((?:  ?\d{1,2})+)")
_STORES = re.compile(r" +(\d{1,2}) +(\d{1,2})")
_BOTTOM = re.compile(r"      ((?:  ?\d{1,2})+)  (pdp-1|north|south|you)")
_NUMBERS = re.compile(r"      ((?:  \d)+)")
_MOVE = re.compile(r"(pdp-1|you|south|north) plays? (\d)(?:, captures? (\d+)|, (moves? again))?\.")
_SWAP = re.compile(r"(pdp-1|you|south|north) swaps?\.")
_SCORES = re.compile(r"(pdp-1|you|south|north) (\d+), (pdp-1|you|south|north) (\d+)\.")
_WINNER = re.compile(r"(pdp-1|you|south|north) wins?\.")
_PROMPT = re.compile(r"your move(, or s to swap)?\? ")


class ParseError(ValueError):
    """A transcript line that fits nothing the program types."""


@dataclass
class TranscriptParser:
    """Incremental parser: raw typewriter output in, events out."""

    buffer: str = ""
    _title: dict = field(default_factory=dict, init=False)
    _board: list[str] = field(default_factory=list, init=False)
    _scores: tuple | None = field(default=None, init=False)

    def feed(self, text: str) -> list[Event]:
        self.buffer += text.replace("\r", "")
        events: list[Event] = []
        while True:
            prompt = _PROMPT.match(self.buffer)
            if prompt:
                # the prompt, then SIMH's echo of what is typed and a newline
                events.append(Prompt(bool(prompt.group(1))))
                rest = self.buffer[prompt.end():]
                newline = rest.find("\n")
                if newline < 0:
                    self.buffer = "\x00" + rest  # mark: echo still to come
                    break
                self.buffer = rest[newline + 1:]
                continue
            if self.buffer.startswith("\x00"):
                newline = self.buffer.find("\n")
                if newline < 0:
                    break
                self.buffer = self.buffer[newline + 1:]
                continue
            newline = self.buffer.find("\n")
            if newline < 0:
                break
            line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
            event = self._line(line)
            if event is not None:
                events.append(event)
        return events

    def _line(self, line: str) -> Event | None:
        if self._board:
            return self._board_line(line)
        if line == "":
            return None
        if line == "kalah for the pdp-1":
            self._title = {"variants": Variants()}
            return None
        m = _SETTINGS.fullmatch(line)
        if m:
            pits, seeds = int(m.group(1)), int(m.group(3))
            if (m.group(2) == "pit") != (pits == 1) or (m.group(4) == "seed") != (seeds == 1):
                raise ParseError(f"singular and plural disagree with the number in {line!r}")
            level = 0 if m.group(5) == "auto" else int(m.group(5))
            self._title.update(pits=pits, seeds=seeds, level=level)
            return None
        m = _WITH.fullmatch(line)
        if m:
            names = m.group(1).split(", ")
            if any(n not in VARIANT_WORDS for n in names):
                raise ParseError(f"unknown variant in {line!r}")
            self._title["variants"] = Variants(**{VARIANT_WORDS[n]: True for n in names})
            return None
        if line in _FIRST:
            t = self._title
            if not {"pits", "seeds", "level"} <= t.keys():
                raise ParseError(f"{line!r} without the settings line before it")
            self._title = {}
            return Title(t["pits"], t["seeds"], t["level"], t["variants"], _FIRST[line])
        if _NUMBERS.fullmatch(line):  # the top side's pit numbers begin a board
            self._board = [line]
            return None
        m = _MOVE.fullmatch(line)
        if m:
            return Move(m.group(1), int(m.group(2)), int(m.group(3) or 0), bool(m.group(4)))
        m = _SWAP.fullmatch(line)
        if m:
            return Swap(m.group(1))
        if line in COMPLAINTS:
            return Complaint(line)
        if line == "game over.":
            self._scores = None
            return None
        m = _SCORES.fullmatch(line)
        if m:
            self._scores = ((m.group(1), int(m.group(2))), (m.group(3), int(m.group(4))))
            return None
        m = _WINNER.fullmatch(line)
        if m or line == "a draw.":
            if self._scores is None:
                raise ParseError(f"{line!r} without the scores before it")
            scores, self._scores = self._scores, None
            return GameOver(scores, m.group(1) if m else None)
        if line == "type any key for a new game.":
            return NewGameOffer()
        if line.startswith("test word out of range"):
            return BadTestWord(line)
        raise ParseError(f"unexpected line {line!r}")

    def _board_line(self, line: str) -> Event | None:
        self._board.append(line)
        if len(self._board) < 5:
            return None
        top_numbers, top, stores, bottom, numbers = self._board
        self._board = []
        mt, ms, mb = _TOP.fullmatch(top), _STORES.fullmatch(stores), _BOTTOM.fullmatch(bottom)
        mtn, mn = _NUMBERS.fullmatch(top_numbers), _NUMBERS.fullmatch(numbers)
        if not (mtn and mt and ms and mb and mn):
            raise ParseError(f"malformed board:\n{top_numbers}\n{top}\n{stores}\n{bottom}\n{numbers}")
        top_row = tuple(int(x) for x in mt.group(2).split())
        bottom_row = tuple(int(x) for x in mb.group(1).split())
        top_numbers_row = tuple(int(x) for x in mtn.group(1).split())
        pit_numbers = tuple(int(x) for x in mn.group(1).split())
        m = len(bottom_row)
        if len(top_row) != m or pit_numbers != tuple(range(1, m + 1)) or top_numbers_row != tuple(range(m, 0, -1)):
            raise ParseError(f"board rows of different lengths or misnumbered:\n{top_numbers}\n{top}\n"
                             f"{stores}\n{bottom}\n{numbers}")
        return Board(mt.group(1), top_row, int(ms.group(1)), int(ms.group(2)), bottom_row, mb.group(2))


def side_of(player: str, pdp1_side: str | None) -> str:
    """The side a named player sits on: south/north directly, pdp-1/you through the seats."""
    if player == "south":
        return SOUTH
    if player == "north":
        return NORTH
    if pdp1_side is None:
        raise ParseError(f"{player!r} in a game the PDP-1 plays against itself")
    if player == "pdp-1":
        return pdp1_side
    return NORTH if pdp1_side == SOUTH else SOUTH
