"""Keeping a game alive when the emulator dies or hangs: detect, say so, restart, restore, play on.

The cross-checker already holds the game as the reference sees it, so a
restart needs nothing from the dead emulator: a fresh ``pdp1`` reads the
tape in with the same panel, is stopped at ``gloop`` (the top of the game
loop) by a breakpoint, has the game deposited into the program's variables
(board, side to move, seats), and is started at ``resume``, which draws the
board and plays on.  A key the visitor typed that the PDP-1 had not yet
answered is typed again.  Restoring runs at full speed; the machine is then
set back to the game's speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..machine.transcript import Title
from ..machine.transcript import TranscriptParser
from .crosscheck import CrossChecker
from ..machine.front_panel import PanelSettings
from ..reference.game import Game
from ..machine.kalah_program import KalahMachine, program_symbols
from ..reference.rules import SOUTH, other
from ..reference.notation import SWAP
from .session import GameOutcome, PlaySession, Visitor
from ..machine.simh import FULL_SPEED, BreakpointReached, Closing, MachineConfig, SimhError

MAX_RESTARTS = 20  # in one game; beyond that something is wrong with the machine, not the emulator


def _side_word(side: str) -> int:
    return 0 if side == SOUTH else 1


def board_words(checker: CrossChecker) -> list[int]:
    """The 14 words of the program's board (6 pits a side, unused pits empty) for the game's position."""
    pos = checker.game.position
    m = pos.pits
    south = list(pos.board[:m]) + [0] * (6 - m)
    north = list(pos.board[m + 1:2 * m + 1]) + [0] * (6 - m)
    return south + [pos.board[m]] + north + [pos.board[2 * m + 1]]


def checker_from_record(title: Title, record: list[int | str]) -> CrossChecker:
    """The cross-checker of a game after ``record``, rebuilt without any machine.

    Why: after the server itself restarts there is no emulator and no
    transcript left, only the saved title and record; replaying the record
    gives the reference's game (and the seats, exchanged by a pie-rule swap)
    that ``restore_machine`` deposits into a fresh PDP-1.  The record is
    trusted to be a legal game (it was cross-checked as it was played).
    """
    checker = CrossChecker(title)
    checker.game = Game.replay(checker.game.position, title.variants, list(record))
    if SWAP in record and checker.pdp1_side is not None:  # the players exchanged seats
        checker.pdp1_side = other(checker.pdp1_side)
        checker.bottom_side = other(checker.bottom_side)
    checker.moves_checked = len(record)
    checker.finished = checker.game.position.over
    return checker


def restore_machine(panel: PanelSettings, config: MachineConfig, checker: CrossChecker,
                    timeout: float = 10.0, breakpoints: tuple[int, ...] = ()) -> KalahMachine:
    """A fresh machine playing on the game ``checker`` holds, from the board's redrawing.

    ``breakpoints``: the caller's own, set before read-in and left in place
    (the kiosk stops the PDP-1 where it starts and ends its thinking).
    """
    symbols = program_symbols()
    machine = KalahMachine(panel, FULL_SPEED, timeout=timeout,
                           breakpoints=(symbols["gloop"],) + tuple(b for b in breakpoints if b != symbols["gloop"]))
    try:
        sim = machine.sim
        try:
            sim.expect("(?!x)x", timeout=timeout)
        except BreakpointReached as stop:
            if stop.pc != symbols["gloop"]:
                raise
        sim.discard_output()  # the title and opening board of the fresh start: not part of this game
        for offset, word in enumerate(board_words(checker)):
            sim.deposit(symbols["bd"] + offset, word)
        game = checker.game
        pdp1 = checker.pdp1_side or SOUTH
        for name, value in (
            ("side", _side_word(game.position.to_move)),
            ("over", 0),
            ("psd", _side_word(pdp1)),
            ("bots", _side_word(checker.bottom_side)),
            ("swpd", int(game.seats_swapped)),
            ("nmov", int(game.north_has_played)),
        ):
            sim.deposit(symbols[name], value)
        sim.command(f"nobreak {symbols['gloop']:o}")
        sim.deposit("pc", symbols["resume"])
        for command in config.commands()[2:]:  # the game's speed (the memory size is already set)
            sim.command(command)
        sim.cont()
        machine.config = config
        return machine
    except BaseException:
        machine.close()
        raise


def play_with_restarts(session: PlaySession, restore: Callable[[CrossChecker], KalahMachine],
                       announce: Callable[[str], None],
                       lost_after_end: Callable[[str], None]) -> tuple[GameOutcome, int]:
    """Play the session's game to its end; whenever the emulator fails, announce why, put the
    machine ``restore`` gives for the checker's game in its place, and go on.

    Returns the outcome and how many restarts it took.  An emulator that
    fails after the game's last line was printed and checked leaves nothing
    to restore: ``lost_after_end`` hears why, the outcome is the finished
    game's, and the caller must not type into that emulator again (the next
    game needs a fresh one).  A failure before the game has begun raises.
    """
    resume = False
    restarts = 0
    while True:
        try:
            return session.play_game(resume=resume), restarts
        except SimhError as failure:
            checker = session.checker
            reason = str(failure).splitlines()[0]
            if checker is not None and checker.finished:
                lost_after_end(reason)
                return GameOutcome.of(checker, session.transcript), restarts
            if checker is None or restarts >= MAX_RESTARTS:
                raise
            restarts += 1
            announce(reason)
            session.machine = restore(checker)
            session.parser = TranscriptParser()
            resume = True


@dataclass
class RecoveringGame(Closing):
    """Plays whole games on a machine that is restarted and restored whenever it fails."""

    panel: PanelSettings
    visitor: Visitor | None
    config: MachineConfig = FULL_SPEED
    echo: Callable[[str], None] | None = None
    on_event: Callable | None = None
    notice: Callable[[str], None] = print  # how a restart is announced to the person watching
    silence_timeout: float = 60.0
    on_wait: Callable[[float], None] | None = None  # the PDP-1 silent so long (s): e.g. a spinner
    restarts: int = 0  # in all games so far, counted as they happen (a game left early keeps its count)
    game_restarts: int = 0  # in the game now being played (or the last one)
    restarts_before_game: int = 0  # made between games, for the next game: its record counts them
    machine: KalahMachine | None = None
    session: PlaySession | None = field(default=None, repr=False)
    machine_lost: bool = False  # the emulator failed after the last game ended: the next needs a fresh one

    def start(self) -> None:
        self.machine = KalahMachine(self.panel, self.config)
        self.session = PlaySession(self.machine, self.visitor, echo=self.echo, on_event=self.on_event,
                                   silence_timeout=self.silence_timeout, on_wait=self.on_wait)

    def play_game(self) -> GameOutcome:
        """One game from its title (or from where the last failure left it) to its end.

        An emulator that fails before the game's title leaves nothing to
        restore: a fresh one starts the game again, once (twice in a row is
        a machine that cannot start, and raises).
        """
        if self.machine is None:
            self.start()
        assert self.session is not None

        self.game_restarts, self.restarts_before_game = self.restarts_before_game, 0

        def announce(reason: str) -> None:
            self.restarts += 1
            self.game_restarts += 1
            self.notice(f"[the PDP-1 failed: {reason}. Restarting it and restoring the game...]")

        def lost_after_end(reason: str) -> None:
            self._lost(reason, "after the game ended")

        try:
            outcome, _restarts = play_with_restarts(self.session, self._replace_machine, announce, lost_after_end)
        except SimhError as failure:
            if self.session.checker is not None:
                raise
            self._lost(str(failure).splitlines()[0], "before the game began")
            self._fresh()
            outcome, _restarts = play_with_restarts(self.session, self._replace_machine, announce, lost_after_end)
        return outcome

    def _lost(self, reason: str, when: str, between_games: bool = False) -> None:
        """An emulator failed where no game needs restoring: the next game starts on a fresh one."""
        self.restarts += 1
        if between_games:  # the last game is saved already: the next one's record counts it
            self.restarts_before_game += 1
        else:
            self.game_restarts += 1
        self.machine_lost = True
        self.notice(f"[the PDP-1 failed {when}: {reason}. The next game starts on a fresh emulator]")

    def _fresh(self) -> None:
        self.close()
        self.machine_lost = False
        self.start()

    def _replace_machine(self, checker: CrossChecker) -> KalahMachine:
        if self.machine is not None:
            self.machine.close()
        self.machine = restore_machine(self.panel, self.config, checker)
        self.notice("[restored: the game goes on from the same position]")
        return self.machine

    def new_game(self) -> None:
        """Answer the new-game offer.  After an emulator lost at the end of a game (or one that fails
        as the key is typed), read the tape into a fresh one instead: it starts a game of its own
        from the same panel."""
        assert self.session is not None
        if not self.machine_lost:
            try:
                self.session.new_game()
                return
            except SimhError as failure:
                self._lost(str(failure).splitlines()[0], "as the new game was asked for", between_games=True)
        self._fresh()

    def close(self) -> None:
        if self.machine is not None:
            self.machine.close()
            self.machine = None

