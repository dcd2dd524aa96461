"""What the game driver tells a front end: ``FrontEnd``'s callbacks, and what they carry.

Why apart from the driver: a front end (play, the demonstration, the kiosk, a test) reads these
and overrides ``FrontEnd``; it needs none of the driver's machinery to do so.  ``driver`` imports
them and names them again, so ``from python_bridge.driver.driver import GameOutcome`` still works.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..machine.cycles import seconds
from ..machine.simh import Simh
from ..machine.transcript import Event, GameOver, Title
from ..reference.notation import format_record
from .crosscheck import CrossChecker

# When an emulator failed (``Failure.when``)
DURING = "during the game"
AFTER_END = "after the game ended"
BEFORE_TITLE = "before the game began"
BETWEEN_GAMES = "as the new game was asked for"


@dataclass(frozen=True)
class Failure:
    """An emulator that failed: why (SIMH's first line), when, and the game's record at that moment."""

    reason: str
    when: str
    record: str  # the moves so far, in notation ("" when none)

    @property
    def restored(self) -> bool:
        """Whether the game goes on from where it was (else the next game starts on a fresh emulator)."""
        return self.when == DURING

    def notice(self) -> str:
        """The one line a person watching is told (the kiosk logs its own)."""
        if self.restored:
            return f"[the PDP-1 failed: {self.reason}. Restarting it and restoring the game...]"
        return f"[the PDP-1 failed {self.when}: {self.reason}. The next game starts on a fresh emulator]"


@dataclass
class Thought:
    """One choice of the PDP-1's: described by the reference, measured between its breakpoints."""

    move: int  # the move's number in the game, from 1
    player: str  # as the typewriter names it: "pdp-1", "south" or "north"
    depth: int
    positions: int
    instructions: int = 0
    cycles: int = 0  # memory cycles, 5 us each
    choice: str = ""  # "pit 3" or "swap", once typed
    host_seconds: float = 0.0  # the wall time its stepping took (paced or not)

    @property
    def seconds(self) -> float:
        """True 1960 seconds: the thinking's memory cycles at 5 us."""
        return seconds(self.cycles)

    @property
    def counting_speed(self) -> float:
        """Unpaced: how many times 1960 speed the cycles were counted at (below 1, a 1960 pace falls behind)."""
        return self.seconds / self.host_seconds if self.host_seconds else 0.0


@dataclass
class GameOutcome:
    """What one game produced."""

    title: Title
    record: list[int | str]
    end: GameOver | None
    moves_checked: int
    choices_checked: int
    transcript: str
    restarts: int = 0
    thoughts: list[Thought] = field(default_factory=list)

    def record_text(self) -> str:
        return format_record(self.record)

    @classmethod
    def of(cls, checker: CrossChecker, transcript: str, restarts: int = 0,
           thoughts: list[Thought] | None = None) -> "GameOutcome":
        """What the game ``checker`` followed produced, its end included once it was printed and checked."""
        return cls(checker.title, list(checker.game.record), checker.end, checker.moves_checked,
                   checker.choices_checked, transcript, restarts, list(thoughts or []))


class FrontEnd:
    """What a front end hears from the driver; every method does nothing until overridden."""

    @property
    def paces_echo(self) -> bool:
        """Whether ``echo`` takes the typewriter's time (10 characters a second): the PDP-1, which typed the
        line at SIMH's speed, is put to sleep meanwhile instead of spinning in its keyboard loop."""
        return False

    def echo(self, text: str) -> None:
        """Typewriter output, a line (or a line's beginning) at a time, before that line's events."""

    def event(self, event: Event, checker: CrossChecker) -> None:
        """An event of the paper, already checked against the reference by ``checker``."""

    def failed(self, failure: Failure) -> None:
        """The emulator failed; ``failure.restored`` says whether the game is being put back."""

    def restored(self) -> None:
        """The game goes on on a fresh emulator, from the same position."""

    def thinking(self, thought: Thought, sim: Simh) -> None:
        """The PDP-1 starts a choice (stopped at ``think``; ``thought`` has no cycles yet)."""

    def slice(self, sim: Simh, cycles: int) -> None:
        """Between two slices of the thinking (the machine stopped): ``cycles`` counted so far."""

    def thought(self, thought: Thought) -> None:
        """The choice measured: its instructions and memory cycles."""

    def waiting(self, silent: float) -> None:
        """The PDP-1 has been silent ``silent`` seconds (thinking, when the thinking is not stepped)."""
