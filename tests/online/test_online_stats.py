"""Figures for curators from either database: ``online stats`` counts games by day and week, language, board,
strength and result, gives the median finished game, keeps to ``--since``/``--until``, and draws games a
day by result as an SVG a report can hold.  Records as the server keeps them, in real SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from python_bridge.driver.game_records import SavedGame
from python_bridge.online.database import open_store
from python_bridge.reference.rules import Variants
from tests.online.online_support import online_command, where

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
# (day, language, pits, seeds, level, result or None for a game not finished, moves, minutes)
GAMES = [
    ("2026-11-30", "en", 4, 3, "1", "pdp-1 3, you 9; you win", 14, 3.0),
    ("2026-11-30", "pl", 6, 4, "auto", "pdp-1 30, you 18; pdp-1 wins", 30, 9.0),
    ("2026-12-01", "pl", 4, 3, "4", "pdp-1 6, you 6; a draw", 16, 5.0),
    ("2026-12-02", "az", 6, 4, "1", None, 6, 1.0),
    ("2026-12-09", "tl", 4, 3, "1", "pdp-1 8, you 4; pdp-1 wins", 12, 2.0),  # the next week
]


def _keep(database: tuple[str, Path]) -> None:
    store = open_store(*database)
    try:
        for n, (day, language, pits, seeds, level, result, moves, minutes) in enumerate(GAMES):
            game_id = f"{n}" * 22
            record = SavedGame(pits, seeds, level, Variants(), [1] * moves, "you", result or "not finished",
                               heading=f"online game {game_id}", fields=(("game", game_id), ("language", language)))
            store.save(game_id, record.text(), finished=result is not None)
            made = dt.datetime.fromisoformat(day + "T10:00:00+00:00").timestamp()
            dates = (made, made + minutes * 60, game_id)
            store._run("date", lambda dates=dates: store._sql(
                "update games set created = ?, updated = ? where id = ?", dates))
    finally:
        store.close()


def _stats(database: tuple[str, Path], *options: str) -> subprocess.CompletedProcess[str]:
    return online_command("stats", *where(database), *options)


def test_the_figures_a_curator_asks_for(database, tmp_path) -> None:
    _keep(database)
    done = _stats(database, "--svg", str(tmp_path / "games.svg"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "games from the first game to today: 5 (4 finished)"
    assert "by day: 2026-11-30 2, 2026-12-01 1, 2026-12-02 1, 2026-12-09 1" in lines
    assert "by week: 2026-W49 4, 2026-W50 1" in lines
    assert "by language: pl 2, en 1, az 1, tl 1" in lines
    assert "by board: quick 3, classic 2" in lines
    assert "by strength: gentle 3, full 1, fair 1" in lines
    assert "by result: pdp-1 won 2, visitor won 1, draw 1, unfinished 1" in lines
    assert "the median finished game: 4.0 minutes, 15 moves" in lines
    svg = ET.parse(tmp_path / "games.svg").getroot()
    bars = [(rect.get("data-day"), rect.get("data-result")) for rect in svg.iter(f"{SVG}rect")
            if rect.get("class") == "bar"]
    assert sorted(bars) == sorted([("2026-11-30", "visitor won"), ("2026-11-30", "pdp-1 won"),
                                   ("2026-12-01", "draw"), ("2026-12-02", "unfinished"), ("2026-12-09", "pdp-1 won")])
    assert svg.find(f"{SVG}title") is not None  # a chart that says what it is


def test_since_and_until_keep_to_their_days(database) -> None:
    _keep(database)
    done = _stats(database, "--since", "2026-12-01", "--until", "2026-12-02")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "games from 2026-12-01 to 2026-12-02: 2 (1 finished)"


def test_bad_dates_and_folders_are_one_line_and_exit_2(tmp_path) -> None:
    database = ("", tmp_path / "state")
    for options, words in ((["--since", "2026-02-30"], "is not a day"), (["--since", "1999-12-31"], "out of range"),
                           (["--since", "2026-12-02", "--until", "2026-12-01"], "is after --until"),
                           (["--svg", str(tmp_path / "none" / "x.svg")], "--svg: cannot write")):
        done = _stats(database, *options)
        assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, done.stderr
