"""Records kept as long as the museum says: ``online prune`` (and ``--dry-run``) on either database, and the
running server pruning by itself at start (then daily).  Real databases, the real command, a real server."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from python_bridge.online.database import open_store
from tests.online.online_support import OnlineServer, online_command, where, write_settings
from tests.online.test_store import _age

ROOT = Path(__file__).resolve().parents[2]
DAY = 86_400.0
DONE, LEFT, NEW = "a" * 22, "b" * 22, "c" * 22


def _kept(database: tuple[str, Path], ages: dict[str, float]) -> None:
    """Games of the given ages in days (``DONE`` finished, the others not), in the database."""
    store = open_store(*database)  # type: ignore[arg-type]
    try:
        for game, days in ages.items():
            store.save(game, "over" if game == DONE else "in play", finished=game == DONE)
            _age(store, game, days * DAY)
    finally:
        store.close()


def _left(database: tuple[str, Path]) -> set[str]:
    store = open_store(*database)  # type: ignore[arg-type]
    try:
        return {game for game in (DONE, LEFT, NEW) if store.load(game) is not None}
    finally:
        store.close()


def _prune(database: tuple[str, Path], *options: str) -> subprocess.CompletedProcess[str]:
    return online_command("prune", *where(database), *options)


def test_prune_counts_then_removes_what_is_past_keep_days(database) -> None:
    _kept(database, {DONE: 40, LEFT: 40, NEW: 2})
    counted = _prune(database, "--keep-days", "30", "--dry-run")
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout.strip() == ("would remove 1 finished game older than 30 days and 1 unfinished game "
                                      "left alone as long")
    assert _left(database) == {DONE, LEFT, NEW}
    done = _prune(database, "--keep-days", "30")
    assert done.returncode == 0 and done.stdout.startswith("removed 1 finished game"), (done.stdout, done.stderr)
    assert _left(database) == {NEW}
    again = _prune(database, "--keep-days", "30")
    assert again.stdout.startswith("removed 0 finished games") and _left(database) == {NEW}


def test_bad_options_are_one_line_and_exit_2(tmp_path) -> None:
    for options, words in ((["--keep-days", "0"], "out of range"), (["--keep-days", "x"], "--keep-days"),
                           (["--state-dir", str(tmp_path / "none")], "no games database")):
        done = _prune(("", tmp_path), *options) if options[0] != "--state-dir" else online_command("prune", *options)
        assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.simh
def test_a_server_prunes_by_itself_as_it_starts(tmp_path, kalah_tape) -> None:
    state = tmp_path / "state"
    _kept(("", state), {DONE: 400, LEFT: 10, NEW: 1})
    settings = write_settings(tmp_path / "conf")
    settings.write_text(settings.read_text().replace("[online]\n", "[online]\nkeep_days = 365\n"))
    with OnlineServer(settings, state) as server:
        server.wait_for(lambda h: "removed 1 finished game" in server.output(), timeout=10, what="the prune")
        assert "removed 1 finished game older than 365 days and 0 unfinished games" in server.output()
    assert _left(("", state)) == {LEFT, NEW}
