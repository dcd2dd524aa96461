"""The kiosk's protocol (WebSocket ``/ws``), and the check of what the page may send.

Why a protocol with turns: a page's tap travels while the board changes; a
double tap, or a tap queued while the PDP-1 typed, must never play a move on
a board the visitor did not see.  So every question has a number, and a move
says which question it answers.

**Server to page** (JSON objects, ``type`` first):

* ``hello`` on every (re)connection: ``state`` (a ``state`` message as below),
  ``paper`` (``game``, ``base``, ``text``: the whole sheet), ``lights``, and
  ``control`` (true when this connection controls the game, false when it may
  only watch).
* ``state`` whenever anything shown changes: ``mode`` (``attract``,
  ``visitor``), ``phase`` (``starting``, ``typing``, ``thinking``,
  ``your_turn``, ``demo_turn``, ``game_over``, ``mismatch``, ``one_moment``), ``game``,
  ``board``, ``legal``, ``swap``, ``last``, ``result`` (``pdp1``,
  ``visitor``: the scores; ``winner``: ``"pdp-1"``, ``"visitor"`` or null),
  ``mismatch`` (null, or in the phase ``mismatch``: ``pdp1`` and ``reference``, the PDP-1's choice and the
  reference engine's, each a pit in the PDP-1's own numbering or ``"swap"``, both null when the
  difference was not a choice), ``countdown``, ``notice`` (null, or ``"one_moment"``), ``speed`` and
  **``turn``**: the number of the question now open.
  ``mismatch`` is a visitor's game stopped by a cross-check mismatch: the PDP-1 did what the
  reference engine did not.  The board stays as it was before that move, nothing can be played,
  and ``new_game`` is taken as after ``game_over`` (the operator has the full report in the log
  and the mismatch counted).
  It increases (never decreases while the server runs) every time the PDP-1
  asks for a move (the visitor's or the demonstration player's) and every time
  a new game starts; a page answers the ``turn`` of the last ``state`` it drew.
  The sowing comes with it, worked out by the reference (``rules.sowing_indices``), never on the
  page: ``last.path`` is the cells the last move's seeds fell into, in order, and ``board.paths``
  maps each pit the visitor may play (``"1"``..) to its cells, for the sowing shown at the touch.
  A cell is ``["bottom", col]``, ``["top", col]`` (col 0 at the page's left), ``["bottom-store", 0]``
  or ``["top-store", 0]``.
* ``paper`` (``game``, ``at``, ``text``, ``reset``), ``lights``: the
  typewriter and the console lights.
* ``control`` (``control``: bool): this connection's part changed (the
  controlling page left and this one, the oldest, took over; see below).
* ``rejected`` (``reason``: one line for a person): the last message changed
  nothing.  ``ok`` (``what``): a ``play`` or ``new_game`` was taken.

**Page to server** (at most ``MAX_MESSAGE_BYTES``, exactly these fields):

* ``{"type": "move", "pit": 1..6, "turn": N}``: play a pit (counted from
  the visitor's left) in answer to question ``N``;
* ``{"type": "swap", "turn": N}``: the pie rule's swap, answering ``N``;
* ``{"type": "play"}``: "touch to play" (attract mode to a visitor's game);
* ``{"type": "touch"}``: the visitor is still there (the idle countdown restarts);
* ``{"type": "new_game"}``: after a visitor's game (``game_over``, or ``mismatch``), another one.

A move or swap whose ``turn`` is not the open question is refused
(``rejected``, reason "that tap was for an earlier turn"): of a double tap,
only the first can be played, and a tap sent before the board changed is
never played on the new one.

**Who may play.** One connection controls the game; every other one only
watches (a second screen in the gallery) and has every message refused with
"this screen only watches".  With ``control_token`` set in the configuration
the controlling page is the newest connection that opened ``/ws?control=TOKEN``
(the kiosk's own Chromium opens ``/?control=TOKEN`` and the page passes the
token on); with no token, it is the oldest connection still open.  Before
that, ``/ws`` is refused with 403 unless the request's ``Host`` is one of
``allowed_hosts`` with the kiosk's port and its ``Origin`` is
``http://`` that host (a page of another site cannot reach the kiosk through
a visitor's browser), and with 503 when ``max_connections`` are open.  With a
token, watching pages get ``max_connections - 1`` places: the kiosk's own page
always gets in (an older connection of its own, not yet timed out, is closed
to make room).  A refused page retries, waiting twice as long each time, up
to a minute; the kiosk's own page up to 2 s.  A watching page says on the
screen that it watches, and shows nothing to touch.

Whether a well-formed move is allowed *now* (the visitor's turn, a legal
pit) is the runner's decision; this module checks only the form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..reference.rules import MAX_PITS
from .settings import LANGUAGES

MAX_MESSAGE_BYTES = 512
MAX_TURN = 2**53  # beyond any kiosk's life (a question a second for 285 million years); JSON-safe in JavaScript
KINDS = {
    "move": {"pit", "turn"},  # play a pit (1..pits, counted from the visitor's left) answering question turn
    "swap": {"turn"},  # the pie rule's swap, answering question turn
    "play": set(),  # "touch to play": leave attract mode for a visitor's game
    "touch": set(),  # the visitor is still there (resets the idle countdown)
    "new_game": set(),  # after a game: another one
    "choose": {"game", "strength"},  # a visitor's choice for the next game: "quick"/"classic", "gentle"/"fair"/"full"
    "language": {"language"},  # the page's language now (kept with an online game's record, for the curators)
}
CHOICES = {"game": ("quick", "classic"), "strength": ("gentle", "fair", "full")}


class BadMessage(ValueError):
    """A message from the page that the kiosk does not accept."""


@dataclass(frozen=True)
class ClientMessage:
    kind: str
    pit: int | None = None
    turn: int | None = None  # the question a move or swap answers
    choice: tuple[str, str] | None = None  # choose: (what, which), e.g. ("game", "quick")
    language: str | None = None  # language: one of the exhibit's languages


def parse_message(raw: str | bytes) -> ClientMessage:
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadMessage("message too long")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("not a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadMessage(f"unknown message type {str(kind)[:20]!r}")
    extra = set(data) - {"type"} - KINDS[kind]
    if extra:
        raise BadMessage(f"unexpected field {sorted(extra)[0][:20]!r} in {kind}")
    if kind == "choose":
        if len(data) != 2:
            raise BadMessage("a choice needs exactly one of game or strength")
        what = next(k for k in data if k != "type")
        which = data[what]
        if which not in CHOICES[what]:
            raise BadMessage(f"{what} must be one of {', '.join(CHOICES[what])}")
        return ClientMessage(kind, choice=(what, which))
    if kind == "language":
        if data.get("language") not in LANGUAGES:
            raise BadMessage(f"language must be one of {', '.join(LANGUAGES)}")
        return ClientMessage(kind, language=data["language"])
    if kind not in ("move", "swap"):
        return ClientMessage(kind)
    pit = data.get("pit")
    if kind == "move" and (isinstance(pit, bool) or not isinstance(pit, int) or not 1 <= pit <= MAX_PITS):
        raise BadMessage(f"a move needs a pit number from 1 to {MAX_PITS}")
    turn = data.get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= MAX_TURN:
        raise BadMessage(f"a {kind} needs the turn it answers (a whole number)")
    return ClientMessage(kind, pit if kind == "move" else None, turn)


@dataclass
class TokenBucket:
    """Flood control for one connection: ``rate`` messages a second, bursts up to ``burst``."""

    rate: float = 5.0
    burst: float = 10.0
    tokens: float = 10.0
    last: float = 0.0

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
