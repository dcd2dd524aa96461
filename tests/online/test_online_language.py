"""The page's language kept with an online game's record (what the curators' figures count by), as the
page last said it; a watching or malformed language message changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from tests.online.online_support import OnlinePage, OnlineServer, write_settings

pytestmark = pytest.mark.simh


def test_the_language_the_page_says_is_kept_with_the_record(tmp_path, kalah_tape) -> None:
    async def play(server: OnlineServer) -> str:
        async with OnlinePage(server) as page:
            await page.send({"type": "language", "language": "tl"})
            await page.send({"type": "language", "language": "xx"})  # refused, changes nothing
            await page.send({"type": "play"})
            await page.send({"type": "language", "language": "pl"})  # during the game: the last word counts
            await page.play_out()
            assert page.rejected == ["language must be one of en, pl, tl, az"]
            return page.game or ""

    with OnlineServer(write_settings(tmp_path / "conf"), tmp_path / "state") as server:
        game = asyncio.run(play(server))
        status, record = server.get(f"/games/{game}/record.txt")
    assert status == 200 and "\nlanguage: pl\n" in record, record
