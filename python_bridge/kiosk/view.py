"""What the page draws, as one JSON-ready dict built from the cross-checker's game.

The page works nothing out about the game (it only shows a touched pit's
seeds sown at once, and then settles on what it is sent): the server sends the board
as the visitor sees it (the PDP-1's row on top, drawn from its pit m at the
left, the stores at the ends), whose turn it is, the pits that may be
touched, the last move and the result.  A reconnecting page gets the same
dict and so shows the game as it was.  The last move carries its parts
(player, pit, seeds captured, extra turn, and its number in the game's record) so that the page words it in the
visitor's language and shows the sowing, the capture and the extra turn.
Everything is sent as numbers and identifiers (``winner``: ``"pdp-1"``,
``"visitor"`` or ``null``), never as English: the page has the words.
"""

from __future__ import annotations

from ..driver.crosscheck import CrossChecker
from ..machine.transcript import GameOver, Move, Swap
from ..reference.rules import other, pit_index, store_index


def board_view(checker: CrossChecker | None) -> dict:
    """The board for the page; empty before the PDP-1 has typed its title."""
    if checker is None:
        return {"pits": 0, "top": [], "bottom": [], "top_store": 0, "bottom_store": 0, "to_move": None,
                "settings": None}
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
    }


def last_move_view(event: Move | Swap, checker: CrossChecker) -> dict:
    """The move to highlight: its row, its column on the page (0 = left), and its parts."""
    pdp1 = event.player == "pdp-1"
    if isinstance(event, Swap):
        return {"row": None, "col": None, "player": event.player, "swap": True,
                "pit": None, "captured": 0, "extra_turn": False, "number": len(checker.game.record)}
    m = checker.game.position.pits
    # the PDP-1 sits on top, its pit k drawn in column m-k; the visitor's pit k in column k-1
    return {"row": "top" if pdp1 else "bottom", "col": m - event.pit if pdp1 else event.pit - 1,
            "player": event.player, "swap": False, "pit": event.pit, "captured": event.captured,
            "extra_turn": bool(event.extra_turn), "number": len(checker.game.record)}


def result_view(end: GameOver) -> dict:
    """The scores and the winner: ``"pdp-1"``, ``"visitor"`` (the person, or the demo player in
    attract mode: the page knows which from the mode) or None for a draw."""
    scores = dict(end.scores)
    winner = {"pdp-1": "pdp-1", "you": "visitor"}.get(end.winner or "")
    return {"pdp1": scores.get("pdp-1", 0), "visitor": scores.get("you", 0), "winner": winner}
