"""What the page may send, checked before anything else sees it.

Every message is a small JSON object with a ``type`` the kiosk knows and
exactly the fields that type takes; anything else gets a ``rejected`` answer
with the reason and changes nothing.  Whether a well-formed move is allowed
*now* (the visitor's turn, a legal pit) is the runner's decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

MAX_MESSAGE_BYTES = 512
KINDS = {
    "move": {"pit"},  # play a pit (1..pits, counted from the visitor's left)
    "swap": set(),  # the pie rule's swap
    "play": set(),  # "touch to play": leave attract mode for a visitor's game
    "touch": set(),  # the visitor is still there (resets the idle countdown)
    "new_game": set(),  # after a game: another one
    "choose": {"game", "strength"},  # a visitor's choice for the next game: "quick"/"classic", "gentle"/"fair"/"full"
}
CHOICES = {"game": ("quick", "classic"), "strength": ("gentle", "fair", "full")}


class BadMessage(ValueError):
    """A message from the page that the kiosk does not accept."""


@dataclass(frozen=True)
class ClientMessage:
    kind: str
    pit: int | None = None
    choice: tuple[str, str] | None = None  # choose: (what, which), e.g. ("game", "quick")


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
    if kind == "move":
        pit = data.get("pit")
        if isinstance(pit, bool) or not isinstance(pit, int) or not 1 <= pit <= 6:
            raise BadMessage("a move needs a pit number from 1 to 6")
        return ClientMessage(kind, pit)
    if kind == "choose":
        if len(data) != 2:
            raise BadMessage("a choice needs exactly one of game or strength")
        what = next(k for k in data if k != "type")
        which = data[what]
        if which not in CHOICES[what]:
            raise BadMessage(f"{what} must be one of {', '.join(CHOICES[what])}")
        return ClientMessage(kind, choice=(what, which))
    return ClientMessage(kind)


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
