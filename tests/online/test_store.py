"""The games' store, the same tests on both backends (SQLite, the embedded default, and PostgreSQL in a
scratch cluster): the schema made or upgraded at start and versioned, records by ID, one owner a game by
lease on the database's clock, and a lost database said in one line and found again."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import psycopg
import pytest

from python_bridge.online.database import SQLITE_NAME, open_store
from python_bridge.online.store import LeaseLost, StoreError
from python_bridge.online.store_sql import MIGRATIONS, SCHEMA_VERSION

GAME = "g" * 22


def test_the_schema_is_made_at_start_with_its_version(database) -> None:
    store = open_store(*database)
    try:
        assert store.schema_version() == SCHEMA_VERSION and store.problem() is None
        assert store.load(GAME) is None and store.lease_left(GAME) is None
    finally:
        store.close()
    again = open_store(*database)  # a second start finds it made
    assert again.schema_version() == SCHEMA_VERSION
    again.close()


def _raw(database: tuple[str, Path]):
    """A plain connection to the backend, as the first online release's server had."""
    url, state = database
    if url:
        return psycopg.connect(url, autocommit=True)
    state.mkdir(parents=True, exist_ok=True)
    return sqlite3.connect(state / SQLITE_NAME, isolation_level=None)


def test_a_first_release_database_is_upgraded_at_start_and_keeps_its_games(database) -> None:
    raw = _raw(database)
    for statement in MIGRATIONS[1]:  # the first release's table, unversioned, one game in it
        raw.execute(statement)
    mark = "%s" if database[0] else "?"
    raw.execute(f"insert into games (id, created, updated, finished, record) values ({mark}, 1, 1, 1, 'kept')",
                (GAME,))
    raw.close()
    store = open_store(*database)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.load(GAME) == ("kept", True)
        assert store.take(GAME, "server-a", 5)  # the columns the upgrade added work
    finally:
        store.close()


def test_a_database_newer_than_the_server_is_refused_in_one_line(database) -> None:
    open_store(*database).close()
    raw = _raw(database)
    raw.execute("update kalah_schema set version = 99")
    raw.close()
    with pytest.raises(StoreError, match="schema version 99, newer than this server's") as refused:
        open_store(*database)
    assert "\n" not in str(refused.value)


def test_records_are_saved_by_id_and_read_back(database) -> None:
    store = open_store(*database)
    try:
        store.save(GAME, "move 1")
        store.save(GAME, "move 1\nmove 2")
        assert store.load(GAME) == ("move 1\nmove 2", False)
        store.save(GAME, "over", finished=True)
        assert store.load(GAME) == ("over", True)
        assert store.load("h" * 22) is None
    finally:
        store.close()


def test_one_owner_a_game_by_lease(database) -> None:
    """A lease taken is refused to another until it expires or is given up; the loser's saves are refused;
    a renewal keeps only what is still one's own."""
    a, b = open_store(*database), open_store(*database)  # two servers on one database
    try:
        assert a.take(GAME, "a", 0.5)
        assert a.load(GAME) is None  # taken before its first move: nothing to resume yet
        assert not b.take(GAME, "b", 5) and 0 < b.lease_left(GAME) <= 0.5
        a.save(GAME, "a's move", owner="a")
        assert a.renew("a", 0.5, [GAME, "x" * 22]) == {GAME}
        time.sleep(0.6)
        assert b.lease_left(GAME) == 0 and b.take(GAME, "b", 5)  # expired: b takes it
        with pytest.raises(LeaseLost):
            a.save(GAME, "a's late move", owner="a")
        assert a.renew("a", 5, [GAME]) == set()
        assert b.load(GAME) == ("a's move", False)
        b.save(GAME, "b's move", owner="b")
        b.release(GAME, "b")
        assert a.lease_left(GAME) == 0 and a.take(GAME, "a", 5)
    finally:
        a.close()
        b.close()


def test_a_lease_run_out_that_nobody_took_is_taken_again_by_its_saver(database) -> None:
    store = open_store(*database)
    try:
        assert store.take(GAME, "a", 0.2)
        time.sleep(0.3)
        store.save(GAME, "still a's", owner="a")  # nobody took it meanwhile: a holds it again
        assert store.load(GAME) == ("still a's", False) and store.lease_left(GAME) == 0
        assert store.take(GAME, "a", 5) and not open_store(*database).take(GAME, "b", 5)
    finally:
        store.close()


def test_of_servers_taking_one_game_at_once_exactly_one_wins(database) -> None:
    stores = [open_store(*database) for _ in range(4)]
    wins: list[str] = []
    start = threading.Barrier(len(stores))

    def take(n: int) -> None:
        start.wait()
        if stores[n].take(GAME, f"server-{n}", 5):
            wins.append(f"server-{n}")

    threads = [threading.Thread(target=take, args=(n,)) for n in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for store in stores:
        store.close()
    assert len(wins) == 1, wins


def test_an_unreachable_postgresql_is_one_line() -> None:
    with pytest.raises(StoreError, match="cannot be opened") as refused:
        open_store("postgresql://nobody@127.0.0.1:9/none", Path("/nonexistent"))
    assert "\n" not in str(refused.value)


def test_a_postgresql_restarted_is_found_again_and_nothing_kept_is_lost(postgres) -> None:
    url = postgres.new_database("restarted")
    store = open_store(url, Path("/nonexistent"))
    try:
        store.save(GAME, "before")
        postgres.restart()
        try:  # the first call may find the old connection cut: one line, and the next connects again
            store.save(GAME, "after")
        except StoreError as lost:
            assert "\n" not in str(lost)
            store.save(GAME, "after")
        assert store.load(GAME) == ("after", False) and store.problem() is None
    finally:
        store.close()


def _age(store, game_id: str, seconds: float) -> None:
    """The game last saved ``seconds`` ago, as if time had passed (the database's own clock)."""
    store._run("age", lambda: store._sql("update games set updated = {now} - ? where id = ?", (seconds, game_id)))


def test_prune_removes_finished_games_past_the_keep_and_unfinished_ones_left_alone(database) -> None:
    store = open_store(*database)
    day = 86_400.0
    old_done, old_left, old_held, new_done, new_left = ("a" * 22, "b" * 22, "c" * 22, "d" * 22, "e" * 22)
    try:
        for game in (old_done, new_done):
            store.save(game, "over", finished=True)
        for game in (old_left, new_left):
            store.save(game, "in play")
        assert store.take(old_held, "server-a", 60)  # a game a server drives now, whatever its age
        store.save(old_held, "in play", owner="server-a")
        for game in (old_done, old_left, old_held):
            _age(store, game, 400 * day)
        assert store.prune(365 * day, dry_run=True) == (1, 1)  # counted, nothing removed
        assert store.load(old_done) == ("over", True) and store.load(old_left) == ("in play", False)
        assert store.prune(365 * day) == (1, 1)
        assert store.load(old_done) is None and store.load(old_left) is None
        assert store.load(old_held) is not None and store.load(new_done) is not None and store.load(new_left)
        assert store.prune(365 * day) == (0, 0)
        store.release(old_held, "server-a")  # left alone now: its lease given up
        assert store.prune(365 * day) == (0, 1) and store.load(old_held) is None
    finally:
        store.close()


def test_a_games_table_that_cannot_be_read_is_a_problem_and_then_none_again(database) -> None:
    store = open_store(*database)
    raw = _raw(database)
    try:
        for n in range(3):
            store.save(f"{n:022d}", f"record {n}", finished=bool(n % 2), owner="s1")
        assert store.problem() is None
        raw.execute("alter table games rename to games_away")
        problem = store.problem()
        assert problem is not None and problem.startswith("the games database cannot be read"), problem
        raw.execute("alter table games_away rename to games")
        assert store.problem() is None
    finally:
        raw.close()
        store.close()
