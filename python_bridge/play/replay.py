"""Showing a saved game again, move by move with the boards, every move played by the reference's rules.

Why: a record is a line of pit numbers; a person wants to see the game.  The
record is read by ``driver.game_records`` (beside the code that names the
files), each move is played by the reference, and the board after it is drawn
as the PDP-1's typewriter draws it: North's pits on top, numbered from the
right, the stores at the ends, South's pits below numbered from the left.
"""

from __future__ import annotations

import time
from typing import Callable, TextIO

from ..driver.game_records import SavedGame, Step, check_complete, replay_steps
from ..driver.wording import count
from ..reference.rules import ENDED, NORTH, SOUTH, Position


def board_lines(position: Position, north: str, south: str) -> list[str]:
    """The board in the typewriter's layout, the players named at their rows."""
    m, board = position.pits, position.board
    south_pits, south_store = board[:m], board[m]
    north_pits, north_store = board[m + 1:2 * m + 1], board[2 * m + 1]
    row = lambda counts: "".join(f"{c:3d}" for c in counts)  # noqa: E731 - a table's cell format
    width = 3 * m
    return [
        " " * 6 + row(range(m, 0, -1)),
        f"{north[:6]:>6}" + row(reversed(north_pits)),
        f"{north_store:6d}" + " " * width + f"{south_store:3d}",
        " " * 6 + row(south_pits) + f"  {south}",
        " " * 6 + row(range(1, m + 1)),
    ]


def _said(step: Step) -> str:
    if step.result is None:
        return f"move {step.number}: {step.player} ({step.side_name}) swaps: the players exchange seats"
    words = f"move {step.number}: {step.player} ({step.side_name}) plays pit {step.move}"
    if step.result.captured:
        words += f", captures {step.result.captured}"
    if step.result.extra_turn:
        words += ", moves again"
    return words


def _end(position: Position, north: str, south: str) -> str:
    if position.to_move != ENDED:
        return f"the record stops here with {'south' if position.to_move == SOUTH else 'north'} to move"
    s, n = position.store(SOUTH), position.store(NORTH)
    winner = south if s > n else north if n > s else None
    verdict = f"{winner} {'win' if winner == 'you' else 'wins'}" if winner else "a draw"
    return f"the game is over: {south} {s}, {north} {n}; {verdict}"


def show_replay(saved: SavedGame, out: TextIO, *, wait: Callable[[], None] | None = None,
                pause: float = 0.0) -> int:
    """Print the game move by move with the boards; the number of moves replayed.

    ``wait`` is called before each move (``replay --step``: Enter at the terminal); ``pause``
    seconds pass between moves.  A move the rules refuse raises ``RecordError`` after the
    moves before it were shown; so does a record missing moves it claims (its ``moves:`` count, or a
    result stating an end the moves do not reach)."""
    from ..reference.game import Game

    seats = Game.new(saved.pits, saved.seeds, saved.variants)
    north, south = saved.player(NORTH, seats), saved.player(SOUTH, seats)
    out.write(f"Kalah({saved.pits},{saved.seeds}), {saved.variants.describe()}, level {saved.level}: "
              f"{count(len(saved.moves), 'move')}\n\n")
    out.write("\n".join(board_lines(seats.position, north, south)) + "\n")
    position, replayed = seats.position, 0
    for step in replay_steps(saved):
        if wait is not None:
            wait()
        elif pause and replayed:
            time.sleep(pause)
        north, south = step.north, step.south
        out.write(f"\n{_said(step)}\n" + "\n".join(board_lines(step.position, north, south)) + "\n")
        out.flush()
        position, replayed = step.position, replayed + 1
    check_complete(saved, position, north, south)
    out.write(f"\n{_end(position, north, south)}\n"
              f"every move checked against the reference: {count(replayed, 'move')}, all legal\n"
              f"the record says: {saved.result}\n")
    return replayed
