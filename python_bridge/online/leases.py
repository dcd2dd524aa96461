"""One owner a game: the leases this server holds on the games it drives, kept fresh, and what it does when
it cannot keep them.

Why leases, on the database's clock: past one host, several servers share the games, and a visitor whose
server is lost comes back through the load balancer to another.  At most one server may drive a game at
any moment, or a move could be played twice.  So a server drives a game only while it holds the game's
lease (``store.take``), renews the leases of all its games every quarter lease, and

* stops driving (holds every game still, "one moment" on their pages) once its last renewal is older than
  the lease less a margin: a server stopped (``kill -STOP``), or cut off from the database, never drives a
  game whose lease another server may have taken meanwhile;
* gives a game up for good (``lost``) when a renewal finds another server holds it;
* takes a game from another server only once that lease has run out, or at once when the owner is known
  dead: a process of this host that no longer runs (names are ``host-pid-random``).

Every save names its owner too (``store.save(owner=...)``), so even a server that wakes between two
renewals cannot write a game it lost.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from typing import Callable

from ..exhibit.health import alive
from .store import GameStore, StoreError

RENEWALS_A_LEASE = 4  # a lease is renewed this often before it would run out
MARGIN_FRACTION = 0.25  # driving stops this much of a lease before the last renewal's lease runs out
TAKE_POLL_S = 0.25  # how often a server waiting for another's lease looks again


def server_name() -> str:
    """A name unique to this process, that says where it runs: ``host-pid-random``."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"


def known_dead(owner: str) -> bool:
    """Whether ``owner`` names a server process of this host that no longer runs (its lease need not be
    waited for); a server elsewhere is never known dead here."""
    parts = owner.rsplit("-", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    return int(parts[1]) != os.getpid() and not alive(int(parts[1]))


class Leases:
    """This server's leases: ``take`` one for a game, ``fresh`` says whether it may drive now, and a thread
    renews them all, calling ``on_lost(game_id)`` for each found taken by another."""

    def __init__(self, store: GameStore, name: str, lease_s: float, log: logging.Logger,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.name = name
        self.lease_s = lease_s
        self.log = log
        self.clock = clock
        self._fresh_until = clock() + lease_s * (1 - MARGIN_FRACTION)
        self._held: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.failing: str | None = None  # why the last renewal failed (None: it did not)

    # -- a game's lease ------------------------------------------------------------------------------
    def take(self, game_id: str, waiting: Callable[[], None], stopping: Callable[[], bool]) -> bool:
        """This server's lease on ``game_id``, waiting (``waiting()`` called once) while another holds it;
        False if ``stopping()`` became true first.  A database that does not answer is waited for too."""
        told = False
        while not stopping():
            try:
                taken = self.store.take(game_id, self.name, self.lease_s)
                if not taken:
                    owner = self.store.owner_of(game_id)
                    if owner is not None and owner != self.name and known_dead(owner):
                        taken = self.store.take(game_id, self.name, self.lease_s, replacing=owner)
                        if taken:
                            self.log.info("game %s taken from %s, which no longer runs", game_id, owner)
            except StoreError as failure:
                self.log.warning("game %s: waiting for the database: %s", game_id, failure)
                taken = False
            if taken:
                with self._lock:
                    self._held.add(game_id)
                return True
            if not told:
                waiting()
                told = True
            time.sleep(TAKE_POLL_S)
        return False

    def give_up(self, game_id: str) -> None:
        """The game is over here (ended, left, lost): anyone may take it at once."""
        with self._lock:
            held = game_id in self._held
            self._held.discard(game_id)
        if held:
            try:
                self.store.release(game_id, self.name)
            except StoreError as failure:  # it runs out by itself
                self.log.warning("game %s: its lease could not be given up: %s", game_id, failure)

    def fresh(self) -> bool:
        """Whether the last renewal is recent enough to drive the games now."""
        return self.clock() < self._fresh_until

    # -- the renewals -------------------------------------------------------------------------------
    def start(self, on_lost: Callable[[str], None]) -> None:
        self._thread = threading.Thread(target=self._keep, args=(on_lost,), name="leases", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.lease_s + 15)

    def renew_now(self, on_lost: Callable[[str], None]) -> None:
        """One renewal of every lease held: the fresh time moved on, the games found taken reported lost."""
        with self._lock:
            held = sorted(self._held)
        began = self.clock()
        try:
            kept = self.store.renew(self.name, self.lease_s, held)
        except StoreError as failure:
            if self.failing is None:
                self.log.error("leases: the database does not answer (%s): the games hold until it does", failure)
            self.failing = str(failure)
            return
        if self.failing is not None:
            self.log.info("leases: the database answers again")
        self.failing = None
        self._fresh_until = began + self.lease_s * (1 - MARGIN_FRACTION)
        for game_id in held:
            if game_id not in kept:
                with self._lock:
                    self._held.discard(game_id)
                self.log.warning("game %s: another server drives it now; this one stops", game_id)
                on_lost(game_id)

    def _keep(self, on_lost: Callable[[str], None]) -> None:
        while not self._stop.wait(self.lease_s / RENEWALS_A_LEASE):
            self.renew_now(on_lost)
