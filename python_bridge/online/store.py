"""The online games, kept by ID: each game's record in the one record format, saved as it goes, and who
drives it now.

Why a database, one transaction a move: a game must survive the server's ``kill -9``, and a page that
comes back with its ID must find its game where it was.  What ``/games/ID/record.txt`` serves is what is
stored: the text ``replay`` checks (``driver.game_records``).

Two backends, one schema and one behaviour (``store_sql``'s SQL is theirs both):

* SQLite (``store_sqlite``), the embedded default: a file under the state folder, WAL mode (record
  downloads read while games write), for one host;
* PostgreSQL (``store_postgres``), past one host: every server behind the load balancer shares it.

One owner a game: a server drives a game only while it holds the game's lease (``owner``,
``lease_until``, on the database's clock), renewed while it runs.  A save names its owner and is refused
(``LeaseLost``) once another has taken the game, so a server that lost a game can never write it again.
"""

from __future__ import annotations

from typing import Protocol


class StoreError(Exception):
    """The database cannot be read or written (a full disk, a broken file, a lost server): one line."""


class LeaseLost(StoreError):
    """The game is driven by another server now: this one must stop driving it."""


class GameStore(Protocol):
    """What the online server asks of its database, whichever it is (safe from every game's thread)."""

    where: str  # the database as the log and the operator name it (a path, or a URL without its password)

    def save(self, game_id: str, record: str, finished: bool = False, owner: str | None = None) -> None:
        """The game's record now, in one transaction; with ``owner``, only while that server holds the lease
        (``LeaseLost`` otherwise); StoreError when it cannot be written."""

    def load(self, game_id: str) -> tuple[str, bool] | None:
        """The game's record and whether it finished, or None when there is no such game."""

    def take(self, game_id: str, owner: str, lease_s: float, replacing: str | None = None) -> bool:
        """The game's lease for ``owner`` (a new game is made with it): True when it is free, expired, or
        ``owner``'s already, or held by ``replacing`` (a server known dead); False while another holds it."""

    def owner_of(self, game_id: str) -> str | None:
        """The server holding the game's lease (run out or not), None when none does."""

    def renew(self, owner: str, lease_s: float, game_ids: list[str]) -> set[str]:
        """Every lease ``owner`` still holds among ``game_ids``, made ``lease_s`` longer: the set kept."""

    def release(self, game_id: str, owner: str) -> None:
        """``owner`` gives the game up (its page left, the game ended): anyone may take it at once."""

    def lease_left(self, game_id: str) -> float | None:
        """Seconds until the game's lease expires (0 when it is free), None when there is no such game."""

    def exists(self, game_id: str) -> bool:
        """Whether a game of this ID was ever made (played or not)."""

    def begin(self, game_id: str) -> None:
        """Keep a game made but not yet played, so that another server knows its ID (a page sent there)."""

    def report(self, name: str, label: str, free: int, waiting: int) -> None:
        """This server's room now: machines free, games waiting; ``label`` is its name in the load balancer."""

    def room_elsewhere(self, name: str, within_s: float) -> str | None:
        """The load balancer's label of another server with more machines free than games waiting, reported
        within ``within_s`` seconds (the roomiest), or None."""

    def games_made(self, start_s: float, end_s: float) -> list[tuple[float, float, bool, str]]:
        """The games made from ``start_s`` to before ``end_s`` (seconds since 1970) that have a record:
        (created, updated, finished, record), the oldest first."""

    def servers_seen(self, within_s: float) -> list[str]:
        """The servers that said their room within ``within_s`` seconds: those using the database now."""

    def forget_server(self, name: str) -> None:
        """This server is stopping: no page is sent to it any more."""

    def prune(self, keep_s: float, dry_run: bool = False) -> tuple[int, int]:
        """Finished games last saved over ``keep_s`` seconds ago and unfinished ones left alone that long,
        removed (counted only, ``dry_run``): (finished, unfinished)."""

    def problem(self) -> str | None:
        """Why the database cannot be used now, or None (health asks; it writes nothing)."""

    def close(self) -> None:
        """Give the connection back."""
