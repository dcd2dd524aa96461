"""A saved record played again on Debian's ``pdp1``: the visitor's moves typed from the record, and every move
the PDP-1 makes held against the record's.

Why: ``replay`` checks a record by the reference's rules, but a record claims more than legal moves: that a
PDP-1 running the program tape made its moves.  A record the browser edition offers was made on a machine in
a visitor's browser, and a page can be edited.  So the record's game is played again on the real program tape
(``build/kalah.rim``) read into Debian's ``pdp1``, at full speed, through the one game driver
(``driver.driver.GameDriver``: the read-in, the cross-check of every move with the reference, its restore policy and
timeouts, the emulator closed however the game ends).  This module adds only what a record brings: a
``Visitor`` that types the record's moves for the person who played them, and a ``FrontEnd`` that holds each
move the PDP-1 types against the record's.  A record that stops before its game's end (a visitor who left) is
played to its last move, and the PDP-1 is asked nothing beyond it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..driver.crosscheck import CrossChecker
from ..driver.driver import FrontEnd, GameDriver
from ..driver.game_records import RecordError, SavedGame
from ..driver.pacing import Pacer
from ..driver.wording import count
from ..machine.front_panel import PanelSettings
from ..machine.transcript import FIRST_PLAYERS, Complaint, Event, Move, Prompt, Swap
from ..reference.game import Game
from ..reference.notation import SWAP
from ..reference.search_limits import MAX_DEPTH
from .terminal import silence_timeout

MACHINE = "Debian's pdp1 (SIMH 3.8.1)"
VISITOR = "you"  # how the typewriter names the visitor; every other player (pdp-1, south, north) is the PDP-1
SWAP_KEY = "s"  # what a visitor types to swap ("your move, or s to swap?")


class RecordDiffers(RecordError):
    """The PDP-1 played the record's game otherwise than the record says: one line naming the move."""


class _RecordPlayed(Exception):
    """Every move of the record is played and its game goes on: the PDP-1 is asked no further."""


def _said(move: int | str) -> str:
    return "a swap" if move == SWAP else f"pit {move}"


@dataclass(frozen=True)
class RecordedVisitor:
    """The person who played the record: types the record's move whenever the PDP-1 asks for one (again, the same,
    when a restored PDP-1 asks again)."""

    moves: list[int | str]

    def choose(self, game: Game) -> str:
        index = len(game.record)
        if index >= len(self.moves):  # (the front end stops the game at the question before this)
            raise _RecordPlayed()
        move = self.moves[index]
        return SWAP_KEY if move == SWAP else str(move)


@dataclass
class RecordFront(FrontEnd):
    """Each move the PDP-1 types (checked by the driver's cross-checker against the reference already) held
    against the record: the first that differs, or a recorded move the PDP-1 refuses, raises ``RecordDiffers``."""

    moves: list[int | str]
    pdp1_moves: int = field(default=0, init=False)
    visitor_moves: int = field(default=0, init=False)

    def event(self, event: Event, checker: CrossChecker) -> None:
        played_so_far = len(checker.game.record)
        if isinstance(event, Prompt) and played_so_far >= len(self.moves):
            raise _RecordPlayed()
        if isinstance(event, Complaint) and played_so_far < len(self.moves):  # (only the record's moves are typed)
            raise RecordDiffers(f"move {played_so_far + 1}: on Debian's pdp1 the PDP-1 refuses the record's "
                                f"{_said(self.moves[played_so_far])} ({event.text.strip()})")
        if not isinstance(event, (Move, Swap)):
            return
        number = played_so_far  # the move is in the checker's game already
        if number > len(self.moves):
            raise _RecordPlayed()
        played: int | str = SWAP if isinstance(event, Swap) else event.pit
        recorded = self.moves[number - 1]
        pdp1 = event.player != VISITOR
        if played != recorded:
            did = ("swaps" if played == SWAP else f"plays pit {played}") if pdp1 \
                else f"took the visitor's move as {_said(played)}"
            raise RecordDiffers(f"move {number}: on Debian's pdp1 the PDP-1 {did}, the record says {_said(recorded)}")
        if pdp1:
            self.pdp1_moves += 1
        else:
            self.visitor_moves += 1


@dataclass(frozen=True)
class MachineReplay:
    """What playing the record again on the PDP-1 checked."""

    pdp1_moves: int  # the PDP-1's moves, each the record's
    visitor_moves: int  # the record's moves typed for the visitor
    both_sides: bool  # the PDP-1 played both sides (a demonstration's record)
    finished: bool  # the game was played to its end (else the record stops before it)
    restarts: int  # emulators replaced on the way (the driver's restore policy)

    def line(self) -> str:
        """The one line ``replay`` prints after the boards: what was checked on the PDP-1."""
        pdp1 = count(self.pdp1_moves, "PDP-1 move") + (" (it plays both sides)" if self.both_sides else "")
        typed = "" if self.both_sides else f", and {count(self.visitor_moves, 'visitor move')} typed from the record"
        end = "to the game's end" if self.finished else "to the record's last move (the game was not finished)"
        restarts = f"; {count(self.restarts, 'emulator restart')} on the way" if self.restarts else ""
        return f"checked on {MACHINE}: {pdp1}, each the one recorded{typed}, {end}{restarts}"


def panel_of(saved: SavedGame) -> PanelSettings:
    """The front panel the record's game was started with: its pits, seeds, level, rules and who moved first.

    RecordError for a record the program cannot be set for: who moved first not said (an old record with no
    title on its paper), a level beyond the program's frames."""
    if saved.first not in FIRST_PLAYERS:
        raise RecordError("the record does not say who moved first (first: you, pdp-1 or both), so the PDP-1 "
                          "cannot play it again (--no-pdp1 checks it by the reference alone)")
    title = saved.title
    if not 0 <= title.level <= MAX_DEPTH:
        raise RecordError(f"the record's level {saved.level} is none of the program's (1 to {MAX_DEPTH}, or auto)")
    return PanelSettings(pits=title.pits, seeds=title.seeds, depth=title.level, variants=title.variants,
                         pdp1_first=title.first == "pdp-1", demo=title.first == "both")


def replay_on_pdp1(saved: SavedGame) -> MachineReplay:
    """The record's game played again from a fresh read-in of the tape on Debian's pdp1, at full speed.

    Raises ``RecordDiffers`` at the first move that is not the record's; the driver's ``CrossCheckMismatch`` (the
    PDP-1 and the reference disagree) and ``SimhError`` (the emulator cannot be had or restored) go through."""
    panel = panel_of(saved)
    front = RecordFront(list(saved.moves))
    both_sides = saved.first == "both"
    visitor = None if both_sides else RecordedVisitor(list(saved.moves))
    with GameDriver(panel, front, visitor, Pacer(), silence_timeout=silence_timeout(panel.depth)) as driver:
        try:
            finished = driver.play_game().end is not None
        except _RecordPlayed:
            finished = False
        restarts = driver.game_restarts
    return MachineReplay(front.pdp1_moves, front.visitor_moves, both_sides, finished, restarts)
