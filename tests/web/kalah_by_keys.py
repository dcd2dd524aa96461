"""A Kalah game played on any transport of the SIMH wrapper by keys alone, each machine stopped where
the program waits for a key and where it has taken one: what it typed, and how many instructions each
stretch took.

Why stopped at both: a key reaches a running ``pdp1`` whenever the host delivers it, so the count of
instructions spent spinning in the keyboard loop is the host's, not the program's; from a key taken to
the next wait for one (and from read-in to the first wait) the count is the program's alone, and the
same on every faithful machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from python_bridge.machine.simh_console import ConsoleCommands
from python_bridge.machine.simh_errors import BreakpointReached

GAME_OVER = "type any key for a new game."
ASKED = ("your move? ", "your move, or s to swap? ")
STRETCH_TIMEOUT = 60.0  # seconds a move may think, on a loaded host


@dataclass
class Played:
    """What a machine typed (SIMH's echo of the keys included) and the instructions of each stretch."""

    typed: str = ""
    stretches: list[int] = field(default_factory=list)
    keys: str = ""


def _stretch(sim: ConsoleCommands, at: int) -> tuple[str, int]:
    """Run to the breakpoint ``at``; what was typed meanwhile and the instruction count there."""
    try:
        sim.expect_output("(?!x)x", STRETCH_TIMEOUT)
    except BreakpointReached as stop:
        assert stop.pc == at, f"stopped at {stop.pc:o}, not {at:o}"
    typed = ""
    while sim._unread:
        typed += sim._unread
        sim.discard_output()
    return typed, sim.instructions()


def play(sim: ConsoleCommands, tape: bytes, gc1: int, switches: int, test_word: int, moves: str,
         max_keys: int = 400) -> Played:
    """Read in the game, then answer each question with the next of ``moves`` (a pit, cycled) and a carriage
    return, until the game is over; the machine stops at ``gc1`` (waiting) and ``gc1 + 2`` (key taken)."""
    played = Played()
    sim.set_switches(switches)
    sim.set_test_word(test_word)
    sim.set_breakpoint(gc1)
    sim.read_in_tape(tape)
    taken_at = 0
    pending = ""
    turn = 0
    while len(played.keys) < max_keys:
        typed, arrived_at = _stretch(sim, gc1)  # waiting for a key
        played.typed += typed
        played.stretches.append(arrived_at - taken_at)
        if played.typed.endswith(GAME_OVER + "\r\n") or GAME_OVER in typed:
            break
        if not pending:
            pending = moves[turn % len(moves)] + "\r"
            turn += 1
        key, pending = pending[0], pending[1:]
        sim.clear_breakpoint(gc1)
        sim.set_breakpoint(gc1 + 2)
        sim.cont()
        sim.type(key)
        played.keys += key
        typed, taken_at = _stretch(sim, gc1 + 2)  # the key taken
        played.typed += typed
        sim.clear_breakpoint(gc1 + 2)
        sim.set_breakpoint(gc1)
        sim.cont()
    return played
