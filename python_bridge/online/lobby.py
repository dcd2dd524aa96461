"""How many machines run at once, and the waiting line: first come, first served.

Why a line and not a refusal: a visitor who finds every machine busy should see their place and
about how long, as at a museum's door; only past ``max_waiting`` are they told to come back later,
with about when.  The estimate is the time the games now running have left, from the games this
server has seen finish (five minutes until it has seen one).
"""

from __future__ import annotations

import collections
import math
import threading
import time
from dataclasses import dataclass
from typing import Callable, Protocol

FIRST_GUESS_S = 300.0  # a game's length before this server has seen one finish
KEPT_LENGTHS = 50  # the last game lengths the estimate averages


class Seat(Protocol):
    """What the lobby needs of a game: it can start on a machine."""

    id: str

    def start(self) -> None: ...


@dataclass(frozen=True)
class Place:
    """Where a waiting game stands: 1 is next."""

    position: int
    ahead: int
    estimate_s: int

    def message(self) -> dict:
        return {"type": "queue", "position": self.position, "ahead": self.ahead, "estimate_s": self.estimate_s}


class Full(Exception):
    """The line is as long as it may be: come back in about ``retry_s`` seconds."""

    def __init__(self, retry_s: int) -> None:
        super().__init__(f"the line is full: come back in about {retry_s} s")
        self.retry_s = retry_s


class Lobby:
    """Machines for games, at most ``max_games`` at once; the rest wait in line.  Thread-safe: pages
    join and leave from the server's loop, games give their machine back from their own threads."""

    def __init__(self, max_games: int, max_waiting: int, moved: Callable[[Seat, Place], None],
                 waited: Callable[[float], None] = lambda seconds: None) -> None:
        self.max_games = max_games
        self.max_waiting = max_waiting
        self._moved = moved  # told to each waiting game whenever the line moves
        self._waited = waited  # told how long each game that got a machine waited for it (0: none)
        self._joined: dict[str, float] = {}  # when each waiting game joined the line
        self._lock = threading.Lock()
        self.running: dict[str, Seat] = {}
        self.waiting: collections.OrderedDict[str, Seat] = collections.OrderedDict()
        self._started: dict[str, float] = {}
        self._lengths: collections.deque[float] = collections.deque(maxlen=KEPT_LENGTHS)

    def join(self, game: Seat) -> Place | None:
        """A machine for ``game`` now (None: it has started), or its place in line; Full past ``max_waiting``."""
        with self._lock:
            if game.id in self.running or game.id in self.waiting:
                return self._place(game.id) if game.id in self.waiting else None
            if len(self.running) < self.max_games and not self.waiting:
                self._seat(game)
                start = True
            else:
                if len(self.waiting) >= self.max_waiting:
                    raise Full(self._estimate(len(self.waiting) + 1))
                self.waiting[game.id] = game
                self._joined[game.id] = time.monotonic()
                start = False
            place = None if start else self._place(game.id)
        if start:
            self._waited(0.0)
            game.start()
        return place

    def leave(self, game_id: str) -> None:
        """A waiting game's page went away: out of the line, the others move up."""
        with self._lock:
            self._joined.pop(game_id, None)
            if self.waiting.pop(game_id, None) is None:
                return
        self._tell_the_line()

    def released(self, game_id: str) -> None:
        """A game gave its machine back: the next in line starts."""
        with self._lock:
            if self.running.pop(game_id, None) is not None:
                self._lengths.append(time.monotonic() - self._started.pop(game_id))
            nxt, waited = None, 0.0
            if self.waiting and len(self.running) < self.max_games:
                _, nxt = self.waiting.popitem(last=False)
                waited = time.monotonic() - self._joined.pop(nxt.id, time.monotonic())
                self._seat(nxt)
        if nxt is not None:
            self._waited(waited)
            nxt.start()
            self._tell_the_line()

    def has_room(self) -> bool:
        """A game joining now would start at once."""
        with self._lock:
            return len(self.running) < self.max_games and not self.waiting

    def first_waiting(self) -> Seat | None:
        """The game at the head of the line, taken out of it (it is sent to another server); the rest move up."""
        with self._lock:
            if not self.waiting:
                return None
            _, first = self.waiting.popitem(last=False)
            self._joined.pop(first.id, None)
        self._tell_the_line()
        return first

    def counts(self) -> tuple[int, int]:
        with self._lock:
            return len(self.running), len(self.waiting)

    def _seat(self, game: Seat) -> None:
        self.running[game.id] = game
        self._started[game.id] = time.monotonic()

    def _tell_the_line(self) -> None:
        with self._lock:
            places = [(game, self._place(game_id)) for game_id, game in self.waiting.items()]
        for game, place in places:
            self._moved(game, place)

    def _place(self, game_id: str) -> Place:
        ahead = list(self.waiting).index(game_id)
        return Place(ahead + 1, ahead, self._estimate(ahead + 1))

    def _estimate(self, position: int) -> int:
        """Seconds until the game at ``position`` gets a machine: the rounds of games before it."""
        length = sum(self._lengths) / len(self._lengths) if self._lengths else FIRST_GUESS_S
        return int(length * math.ceil(position / self.max_games))
