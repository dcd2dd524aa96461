"""A game put back on a fresh emulator: from the cross-checker, or from a saved record.

The cross-checker already holds the game as the reference sees it, so a
restart needs nothing from the dead emulator: a fresh ``pdp1`` reads the
tape in with the same panel, is stopped at ``gloop`` (the top of the game
loop) by a breakpoint, has the game deposited into the program's variables
(board, side to move, seats), and is started at ``resume``, which draws the
board and plays on.  Restoring runs at full speed; the machine is then set
back to the game's speed.  When to restore, and how often, is the driver's
(``driver.driver.GameDriver``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import KalahMachine, Transport, board_words, program_symbols
from ..machine.simh import FULL_SPEED, BreakpointReached, MachineConfig, Simh
from ..machine.transcript import Title
from ..reference.game import Game
from ..reference.notation import SWAP
from ..reference.rules import SOUTH, other
from .crosscheck import CrossChecker
from .search_pool import Decision, reference_decision


def _side_word(side: str) -> int:
    return 0 if side == SOUTH else 1


def checker_from_record(title: Title, record: list[int | str],
                        decide: Callable[..., Decision] = reference_decision) -> CrossChecker:
    """The cross-checker of a game after ``record``, rebuilt without any machine.

    Why: after the server itself restarts there is no emulator and no
    transcript left, only the saved title and record; replaying the record
    gives the reference's game (and the seats, exchanged by a pie-rule swap)
    that ``restore_machine`` deposits into a fresh PDP-1.  The record is
    trusted to be a legal game (it was cross-checked as it was played).
    """
    checker = CrossChecker(title, decide=decide)
    checker.game = Game.replay(checker.game.position, title.variants, list(record))
    if SWAP in record and checker.pdp1_side is not None:  # the players exchanged seats
        checker.pdp1_side = other(checker.pdp1_side)
        checker.bottom_side = other(checker.bottom_side)
    checker.moves_checked = len(record)
    checker.finished = checker.game.position.over
    return checker


def restore_machine(panel: PanelSettings, config: MachineConfig, checker: CrossChecker,
                    timeout: float = 10.0, breakpoints: tuple[int, ...] = (),
                    transport: Transport = Simh, tape: Path | None = None) -> KalahMachine:
    """A fresh machine playing on the game ``checker`` holds, from the board's redrawing.

    ``breakpoints``: the driver's own (where the PDP-1's thinking starts and
    ends, where the brief form leaves the board in core), set once the fresh
    start has reached ``gloop`` and left in place.  ``tape``: the driver's (None: the game's own).
    """
    symbols = program_symbols(tape=tape)
    gloop = symbols["gloop"]
    machine = KalahMachine(panel, FULL_SPEED, timeout=timeout, tape=tape, breakpoints=(gloop,), transport=transport)
    try:
        sim = machine.sim
        stop = sim.wait_for_stop(timeout)
        if not (isinstance(stop, BreakpointReached) and stop.pc == gloop):
            raise stop
        for address in breakpoints:
            if address != gloop:
                sim.set_breakpoint(address)
        sim.discard_output()  # the title and opening board of the fresh start: not part of this game
        for offset, word in enumerate(board_words(checker.game.position)):
            sim.deposit(symbols["bd"] + offset, word)
        game = checker.game
        pdp1 = checker.pdp1_side or SOUTH
        for name, value in (
            ("side", _side_word(game.position.to_move)),
            ("over", int(game.position.over)),  # a game lost between its last move and its end line
            ("psd", _side_word(pdp1)),
            ("bots", _side_word(checker.bottom_side)),
            ("swpd", int(game.seats_swapped)),
            ("nmov", int(game.north_has_played)),
        ):
            sim.deposit(symbols[name], value)
        sim.command(f"nobreak {gloop:o}")
        sim.deposit("pc", symbols["resume"])
        for command in config.commands()[2:]:  # the game's speed (the memory size is already set)
            sim.command(command)
        sim.cont()
        machine.config = config
        return machine
    except BaseException:
        machine.close()
        raise
