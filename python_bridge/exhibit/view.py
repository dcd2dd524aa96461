"""What the page draws, as one JSON-ready dict built from the cross-checker's game.

The page works nothing out about the game (it only shows a touched pit's
seeds sown at once, and then settles on what it is sent): the server sends the board
as the visitor sees it (the PDP-1's row on top, drawn from its pit m at the
left, the stores at the ends), whose turn it is, the pits that may be
touched, the last move and the result.  A reconnecting page gets the same
dict and so shows the game as it was.  The last move carries its parts
(player, pit, seeds captured, extra turn, and its number in the game's record) so that the page words it in the
visitor's language and shows the sowing, the capture and the extra turn.  The sowing itself is the
reference's (``rules.sowing_indices``), sent as the page's cells: the last move's ``path``, and
the board's ``paths`` for each pit the visitor may touch (the page sows a touched pit at once, before
the PDP-1 confirms); the page holds no copy of the rules.
Everything is sent as numbers and identifiers (``winner``: ``"pdp-1"``,
``"visitor"`` or ``null``), never as English: the page has the words.
"""

from __future__ import annotations

from ..driver.crosscheck import CrossChecker
from ..machine.transcript import GameOver, Move, Swap
from ..reference.game import Game
from ..reference.rules import SOUTH, Position, other, pit_index, sowing_indices, start_position, store_index


def page_cell(m: int, bottom: str, index: int) -> list:
    """A board index as the page's cell: ``["bottom", col]``, ``["top", col]`` (col 0 at the left),
    ``["bottom-store", 0]`` or ``["top-store", 0]``."""
    side = SOUTH if index <= m else other(SOUTH)
    if index == store_index(m, side):
        return ["bottom-store" if side == bottom else "top-store", 0]
    pit = index + 1 if side == SOUTH else index - m
    return ["bottom", pit - 1] if side == bottom else ["top", m - pit]


def sowing_path(position: Position, pit: int, bottom: str) -> list[list]:
    """The cells the seeds of the side to move's ``pit`` fall into, in order, as the page draws them."""
    return [page_cell(position.pits, bottom, index) for index in sowing_indices(position, pit)]


def board_view(checker: CrossChecker | None) -> dict:
    """The board for the page; empty before the PDP-1 has typed its title."""
    if checker is None:
        return {"pits": 0, "top": [], "bottom": [], "top_store": 0, "bottom_store": 0, "to_move": None,
                "settings": None, "paths": {}}
    pos = checker.game.position
    m = pos.pits
    bottom = checker.bottom_side
    top = other(bottom)
    t = checker.title
    return {
        "pits": m,
        "top": [pos.board[pit_index(m, top, k)] for k in range(m, 0, -1)],
        "bottom": [pos.board[pit_index(m, bottom, k)] for k in range(1, m + 1)],
        "top_store": pos.board[store_index(m, top)],
        "bottom_store": pos.board[store_index(m, bottom)],
        "to_move": None if pos.over else ("bottom" if pos.to_move == bottom else "top"),
        "settings": {"pits": t.pits, "seeds": t.seeds, "level": t.level, "rules": t.variants.describe()},
        # the visitor's pits' sowings, should one be touched (keys: the pit numbers, as JSON keys are text)
        "paths": {str(k): sowing_path(pos, k, bottom) for k in pos.legal_pits()} if pos.to_move == bottom else {},
    }


def last_move_view(event: Move | Swap, checker: CrossChecker) -> dict:
    """The move to highlight: its row, its column on the page (0 = left), and its parts."""
    pdp1 = event.player == "pdp-1"
    if isinstance(event, Swap):
        return {"row": None, "col": None, "player": event.player, "swap": True,
                "pit": None, "captured": 0, "extra_turn": False, "number": len(checker.game.record), "path": []}
    game = checker.game
    m = game.position.pits
    title = checker.title
    before = Game.replay(start_position(title.pits, title.seeds), title.variants, game.record[:-1]).position
    # the PDP-1 sits on top, its pit k drawn in column m-k; the visitor's pit k in column k-1
    return {"row": "top" if pdp1 else "bottom", "col": m - event.pit if pdp1 else event.pit - 1,
            "player": event.player, "swap": False, "pit": event.pit, "captured": event.captured,
            "extra_turn": bool(event.extra_turn), "number": len(game.record),
            "path": sowing_path(before, event.pit, checker.bottom_side)}


def result_view(end: GameOver) -> dict:
    """The scores and the winner: ``"pdp-1"``, ``"visitor"`` (the person, or the demo player in
    attract mode: the page knows which from the mode) or None for a draw."""
    scores = dict(end.scores)
    winner = {"pdp-1": "pdp-1", "you": "visitor"}.get(end.winner or "")
    return {"pdp1": scores.get("pdp-1", 0), "visitor": scores.get("you", 0), "winner": winner}


def mismatch_view(pdp1: int | str | None, reference: int | str | None) -> dict:
    """What the page says of a game stopped by a cross-check mismatch (``CrossCheckMismatch``'s ``pdp1`` and
    ``reference``): the PDP-1's choice and the reference's, each a pit (the PDP-1's own number, as ``last.pit``
    gives its moves) or ``"swap"``; both None when the difference was not in a choice (a board, a score): the page
    then says only that the PDP-1 did what the reference did not."""
    return {"pdp1": pdp1, "reference": reference}
