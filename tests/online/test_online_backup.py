"""Backups that restore games, on both databases: ``online backup`` taken while a game is played, ``online
restore`` refused while a server uses the database, and, restored, the server resumes the game by its ID
at the same board and the same open question.  A real server, real SQLite and PostgreSQL, the real
commands."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.online.online_support import OnlinePage, OnlineServer, online_command, where, write_settings

pytestmark = pytest.mark.simh
ROOT = Path(__file__).resolve().parents[2]



async def _answer(server: OnlineServer, game: str | None = None) -> tuple[str, dict, int]:
    """The visitor's page (a new game, or ``game`` by its ID): one move answered; the game, board and turn of
    the next question."""
    async with OnlinePage(server, game=game) as page:
        if game is None:
            await page.send({"type": "play"})
        await page.until(page.your_turn, timeout=30)
        turn = page.state["turn"]
        await page.move(page.state["legal"][0])
        await page.until(lambda: page.your_turn() and page.state["turn"] != turn, timeout=30)
        return page.game or "", page.state["board"], page.state["turn"]


async def _question(server: OnlineServer, game: str) -> tuple[dict, int]:
    async with OnlinePage(server, game=game) as page:
        await page.until(page.your_turn, timeout=30)
        assert not page.rejected
        return page.state["board"], page.state["turn"]


def test_a_backup_taken_mid_game_restores_the_game_by_its_id(database, tmp_path, kalah_tape) -> None:
    url, state = database
    settings = write_settings(tmp_path / "conf", pits=4, seeds=3)
    if url:
        settings.write_text(settings.read_text().replace("[online]\n", f'[online]\ndatabase = "{url}"\n'))
    backup = tmp_path / "backups" / ("games.sql" if url else "games.sqlite3")
    backup.parent.mkdir()
    server = OnlineServer(settings, state)
    server.start()
    try:
        game, board, turn = asyncio.run(_answer(server))  # mid-game: a question open
        taken = online_command("backup", str(backup), *where(database))
        assert taken.returncode == 0 and taken.stdout.startswith("backed up:"), (taken.stdout, taken.stderr)
        _, later, _ = asyncio.run(_answer(server, game))  # the game goes on past the backup
        assert later != board
        refused = online_command("restore", str(backup), *where(database))
        assert refused.returncode == 1 and "refused: 1 server uses the games database now" in refused.stderr
        assert refused.stderr.count("\n") == 1
    finally:
        server.stop()
    restored = online_command("restore", str(backup), *where(database))
    assert restored.returncode == 0 and restored.stdout.startswith("restored:"), (restored.stdout, restored.stderr)
    server.start()
    try:
        assert asyncio.run(_question(server, game)) == (board, turn)  # as at the backup: same board, same question
    finally:
        server.stop()


def test_a_backup_of_the_wrong_kind_or_place_is_one_line(tmp_path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (tmp_path / "not-a-backup").write_text("hello\n")
    wrong = online_command("restore", str(tmp_path / "not-a-backup"), "--state-dir", str(state))
    assert wrong.returncode == 1 and "is not a SQLite backup made by online backup" in wrong.stderr
    nowhere = online_command("backup", str(tmp_path / "no-such-folder" / "x"), "--state-dir", str(state))
    assert nowhere.returncode == 2 and "no games database" in nowhere.stderr
    for done in (wrong, nowhere):
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
