"""The cross-checker: the reference engine in lockstep with every move the PDP-1 types.

After every move it compares the PDP-1's board with the reference's; for
every move the PDP-1 chooses it compares the pit with the reference search at
the same depth (and the pie-rule decision); at the end it compares the
scores.  The search is ``search.best_move`` / ``level_move``: the fast search
(``reference.fast_search``), which answers as the readable specification does
and costs a tenth of its time on a move of the default level.  Any difference
raises ``CrossCheckMismatch`` with a full report: the position before, the
move, both boards, the settings, the transcript's tail and a command that
reproduces the reference's side of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..machine.kalah_program import CoreBoard
from ..machine.transcript import Board, Complaint, Event, GameOver, Move, NewGameOffer, Prompt, Swap, Title, side_of
from ..reference.game import Game
from ..reference.notation import format_position, format_record
from ..reference.rules import NORTH, SOUTH, Position, Variants, other, start_position, winner
from .search_pool import Decision, reference_decision
from .wording import count


class CrossCheckMismatch(AssertionError):
    """The PDP-1 and the reference engine disagree.

    ``str()`` is the full report (for the log and the operator).  When the difference is in a choice the
    PDP-1 made, ``pdp1`` and ``reference`` name both choices -- a pit (the mover's own number, as the
    typewriter says it) or ``"swap"`` -- so that a page can say them in its visitor's language; both are
    None for any other difference (a board, a score, an announcement)."""

    def __init__(self, report: str, pdp1: int | str | None = None, reference: int | str | None = None) -> None:
        super().__init__(report)
        self.pdp1 = pdp1
        self.reference = reference


@dataclass
class CrossChecker:
    """Follows one game's events and checks each against the reference engine."""

    title: Title
    game: Game = field(init=False)
    pdp1_side: str | None = field(init=False)  # None when the PDP-1 plays both sides
    bottom_side: str = field(init=False)
    moves_checked: int = field(default=0, init=False)
    choices_checked: int = field(default=0, init=False)
    transcript_tail: str = field(default="", init=False)
    last_position_before: Position | None = field(default=None, init=False)
    finished: bool = field(default=False, init=False)
    # the game's last line, once checked (finished is then set)
    end: GameOver | None = field(default=None, init=False)
    # a board is typed (or read from core) after the title and every move or swap
    pending_board: bool = field(default=True, init=False)
    # (depth, positions) of the reference's last PDP-1 choice
    last_choice: tuple[int, int] | None = field(default=None, init=False)
    _choice: tuple[tuple, tuple[bool, int, int, int]] | None = field(default=None, init=False, repr=False)
    # who searches: this interpreter, or a pool of worker processes (``search_pool.SearchPool.decide``)
    decide: Callable[[Position, Variants, int, bool], Decision] = field(default=reference_decision, repr=False)

    def __post_init__(self) -> None:
        t = self.title
        self.game = Game(start_position(t.pits, t.seeds), t.variants)
        if t.first == "both":
            self.pdp1_side, self.bottom_side = None, SOUTH
        else:
            self.pdp1_side = SOUTH if t.first == "pdp-1" else NORTH
            self.bottom_side = other(self.pdp1_side)

    # -- reporting ---------------------------------------------------------------------
    def _fail(self, what: str, *, pdp1: str = "", reference: str = "", move: str = "",
              choices: tuple[int | str, int | str] | None = None) -> None:
        t = self.title
        before = self.last_position_before or self.game.position
        flags = " ".join(t.variants.flags())
        lines = [
            f"CROSS-CHECK MISMATCH: {what}",
            f"  settings: {count(t.pits, 'pit')}, {count(t.seeds, 'seed')}, level {t.level}, {t.variants.describe()}",
            f"  record so far: {format_record(self.game.record) or '(none)'}",
            f"  position before: {format_position(before)}",
        ]
        if move:
            lines.append(f"  move: {move}")
        if pdp1:
            lines.append(f"  PDP-1:     {pdp1}")
        if reference:
            lines.append(f"  reference: {reference}")
        lines.append("  transcript tail:")
        lines += ["    | " + ln for ln in self.transcript_tail.replace("\r", "").splitlines()[-10:]]
        depth = t.level if t.level else "level"
        lines.append((f'  reproduce: python -m python_bridge ref best "{format_position(before)}" '
                      f'{depth} {flags}').rstrip())
        raise CrossCheckMismatch("\n".join(lines), *(choices or (None, None)))

    # -- the events --------------------------------------------------------------------
    def side_of(self, player: str) -> str:
        return side_of(player, self.pdp1_side)

    def is_pdp1(self, side: str) -> bool:
        return self.pdp1_side is None or side == self.pdp1_side

    def on_event(self, event: Event) -> None:
        if isinstance(event, Board):
            self._check_board(event)
        elif isinstance(event, Move):
            self._check_move(event)
        elif isinstance(event, Swap):
            self._check_swap(event)
        elif isinstance(event, Prompt):
            self._check_prompt(event)
        elif isinstance(event, GameOver):
            self._check_end(event)
        elif isinstance(event, (Complaint, NewGameOffer, Title)):
            pass

    def _check_board(self, board: Board) -> None:
        ref = self.game.position
        drawn = board.position(self.bottom_side, ref.to_move)
        if drawn.board != ref.board:
            self._fail("the board differs", pdp1=format_position(drawn), reference=format_position(ref))
        labels = ("north", "south") if self.pdp1_side is None else ("pdp-1", "you")
        if (board.top_label, board.bottom_label) != labels:
            self._fail(f"the board is labelled {board.top_label}/{board.bottom_label}, expected {labels}")
        self.pending_board = False

    def check_core(self, core: CoreBoard) -> None:
        """The brief form's board, read from core where the full form types it: the same check."""
        ref = self.game.position
        if not core.holds(ref):
            self._fail("the board in core differs", pdp1=core.position(ref.pits), reference=format_position(ref))
        self.pending_board = False

    def reference_choice(self) -> tuple[bool, int, int, int]:
        """The reference's decision for the PDP-1 here: (swap?, pit, depth searched, positions visited).

        Kept for the position it was asked for: the driver asks as the PDP-1
        starts thinking (to say how deep it will look), the check asks again
        when the move is typed, and a deep search is not done twice.
        """
        key = (self.game.position, self.game.swap_offered)
        if self._choice is None or self._choice[0] != key:
            self._choice = (key, self._search())
        return self._choice[1]

    def _search(self) -> tuple[bool, int, int, int]:
        return self.decide(self.game.position, self.game.variants, self.title.level, self.game.swap_offered)

    def _board_drawn(self, what: str) -> None:
        """The program draws the board after its title and after every move or swap, before anything else."""
        if self.pending_board:
            self._fail(f"{what} came before the board was drawn")

    def _check_choice(self) -> tuple[bool, int]:
        swap, pit, depth, nodes = self.reference_choice()
        self.last_choice = (depth, nodes)
        return swap, pit

    def _check_move(self, move: Move) -> None:
        self._board_drawn(f"{move.player}'s move")
        side = self.side_of(move.player)
        pos = self.game.position
        self.last_position_before = pos
        if side != pos.to_move:
            self._fail(f"{move.player} moved but {pos.to_move} is to move", move=f"pit {move.pit}")
        if self.is_pdp1(side):
            swap, pit = self._check_choice()
            if swap:
                self._fail("the PDP-1 moved where the reference swaps", pdp1=f"pit {move.pit}", reference="swap",
                           choices=(move.pit, "swap"))
            if pit != move.pit:
                self._fail("the PDP-1 chose another pit", pdp1=f"pit {move.pit}", reference=f"pit {pit}",
                           choices=(move.pit, pit))
            self.choices_checked += 1
        result = self.game.move(move.pit)
        if (result.captured, result.extra_turn) != (move.captured, move.extra_turn):
            self._fail(
                "the move's announcement differs",
                pdp1=f"captured {move.captured}, extra turn {move.extra_turn}",
                reference=f"captured {result.captured}, extra turn {result.extra_turn}",
                move=f"pit {move.pit}",
            )
        self.moves_checked += 1
        self.pending_board = True

    def _check_swap(self, swap: Swap) -> None:
        self._board_drawn(f"{swap.player}'s swap")
        side = self.side_of(swap.player)
        self.last_position_before = self.game.position
        if not self.game.swap_offered or side != NORTH:
            self._fail(f"{swap.player} swapped when no swap was on offer")
        if self.is_pdp1(side):
            ref_swap, pit = self._check_choice()
            if not ref_swap:
                self._fail("the PDP-1 swapped where the reference moves", pdp1="swap", reference=f"pit {pit}",
                           choices=("swap", pit))
            self.choices_checked += 1
        self.game.swap()
        if self.pdp1_side is not None:  # the players change sides; the drawing follows the visitor
            self.pdp1_side = other(self.pdp1_side)
            self.bottom_side = other(self.bottom_side)
        self.moves_checked += 1
        self.pending_board = True

    def _check_prompt(self, prompt: Prompt) -> None:
        self._board_drawn("the question for a move")
        pos = self.game.position
        if self.pdp1_side is None or pos.to_move == self.pdp1_side or pos.over:
            self._fail("the PDP-1 asked the visitor to move out of turn")
        if prompt.swap_offered != self.game.swap_offered:
            self._fail(f"the prompt offers a swap: {prompt.swap_offered}, the reference: {self.game.swap_offered}")

    def _check_end(self, end: GameOver) -> None:
        self._board_drawn("the end of the game")
        pos = self.game.position
        if not pos.over:
            self._fail("the PDP-1 ended a game the reference has not ended")
        for player, score in end.scores:
            side = self.side_of(player)
            if pos.store(side) != score:
                self._fail(f"{player}'s score differs", pdp1=str(score), reference=str(pos.store(side)))
        ref_winner = winner(pos)
        got = None if end.winner is None else self.side_of(end.winner)
        if got != ref_winner:
            self._fail("the winner differs", pdp1=str(end.winner), reference=str(ref_winner))
        self.end = end
        self.finished = True
