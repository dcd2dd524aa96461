"""The online exhibit's protocol additions, on the real server, SIMH and SQLite, over real WebSockets:
a game of one's own with an ID, a machine each, the waiting line, ``full``, coming back by ID from another
connection, refused IDs, the records by ID, health."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kiosk.kiosk_support import ROOT
from tests.online.online_support import OnlinePage, OnlineServer, write_settings

pytestmark = pytest.mark.simh

ID = re.compile(r"[A-Za-z0-9_-]{22,}")


def _server(tmp_path: Path, **limits: int) -> OnlineServer:
    return OnlineServer(write_settings(tmp_path / "conf", **limits), tmp_path / "state")


def test_a_game_of_ones_own_played_to_the_end_and_its_record_by_id(tmp_path, kalah_tape) -> None:
    async def visit(server: OnlineServer) -> str:
        async with OnlinePage(server) as page:
            assert page.game and ID.fullmatch(page.game)
            assert page.state["mode"] == "attract" and page.controls is True
            assert server.health()["machines"] == 0  # no machine before the visitor plays
            await page.send({"type": "play"})
            await page.until(lambda: page.your_turn())
            assert server.health()["games"] == 1
            await page.play_out()
            assert page.state["result"] is not None
            return page.game

    with _server(tmp_path) as server:
        game = asyncio.run(visit(server))
        server.wait_for(lambda h: h["games"] == 0 and h["machines"] == 0 and h["games_played"] == 1,
                        what="the machine given back at once")
        status, record = server.get(f"/games/{game}/record.txt")
        assert status == 200 and record.startswith(f"Kalah on the PDP-1: online game {game}")
        (tmp_path / "kept.txt").write_text(record)
        replayed = subprocess.run([sys.executable, "-m", "python_bridge", "replay", str(tmp_path / "kept.txt")],
                                  cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert replayed.returncode == 0 and "the game is over" in replayed.stdout, replayed.stderr
        status, svg = server.get(f"/games/{game}/paper.svg")
        assert status == 200 and "<svg" in svg and "kalah for the pdp-1" in svg
        for path in (f"/games/{'A' * 22}/record.txt", "/games/nonsense/record.txt", f"/games/{game[:-1]}/paper.svg"):
            assert server.get(path)[0] == 404, path
        assert server.get("/games/")[0] == 404  # nothing lists the games


def test_two_play_at_once_and_a_third_waits_first_come_first_served(tmp_path, kalah_tape) -> None:
    async def three(server: OnlineServer) -> None:
        async with OnlinePage(server) as first, OnlinePage(server) as second, OnlinePage(server) as third:
            for page in (first, second):
                await page.send({"type": "play"})
                await page.until(page.your_turn)
            await third.send({"type": "play"})
            await third.until(lambda: third.queue is not None)
            assert third.queue == {"type": "queue", "position": 1, "ahead": 0, "estimate_s": third.queue["estimate_s"]}
            assert third.queue["estimate_s"] > 0 and third.state["mode"] == "attract"
            health = server.health()
            assert (health["games"], health["waiting"], health["max_games"]) == (2, 1, 2)
            assert len({first.game, second.game, third.game}) == 3
            await first.play_out()  # a machine given back: the third game starts on it
            await third.until(third.your_turn)

    with _server(tmp_path, max_games=2) as server:
        asyncio.run(three(server))


def test_past_max_waiting_the_answer_is_full_with_a_time_to_come_back(tmp_path, kalah_tape) -> None:
    async def crowd(server: OnlineServer) -> None:
        async with OnlinePage(server) as first, OnlinePage(server) as second:
            await first.send({"type": "play"})
            await first.until(first.your_turn)
            await second.send({"type": "play"})
            await second.until(lambda: second.full is not None)
            assert second.full["retry_s"] > 0
            closed = await second.ws.receive(timeout=10)
            assert closed.type.name in ("CLOSE", "CLOSED", "CLOSING")

    with _server(tmp_path, max_games=1, max_waiting=0) as server:
        asyncio.run(crowd(server))


def test_coming_back_by_id_gives_the_same_board_and_turn_and_a_move_is_played_once(tmp_path, kalah_tape) -> None:
    async def two_browsers(server: OnlineServer) -> None:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            async with OnlinePage(server, game=page.game) as other:
                assert other.game == page.game and not other.rejected
                assert other.state["turn"] == page.state["turn"] and other.state["board"] == page.state["board"]
                turn, pit = page.state["turn"], page.state["legal"][0]
                await page.move(pit, turn)
                await other.move(pit, turn)  # the same tap from the other browser: refused, never played twice
                await page.until(lambda: page.state["turn"] != turn or page.state["phase"] == "game_over")
                await other.until(lambda: bool(other.rejected))
                # refused whichever it meets: the question answered ("not your turn" while the move is typed) or
                # the next one open ("an earlier turn")
                assert len(other.rejected) == 1
                assert other.rejected[0] in ("that tap was for an earlier turn", "not your turn")
                await page.settle(0.5)
                assert page.paper.count("you play") == 1

    with _server(tmp_path) as server:
        asyncio.run(two_browsers(server))


@pytest.mark.parametrize("asked", ["A" * 22, "short", "x" * 300, "../../etc/passwd", ""])
def test_an_unknown_or_malformed_id_is_refused_and_gets_a_new_game_of_its_own(tmp_path, kalah_tape,
                                                                             asked: str) -> None:
    async def guess(server: OnlineServer) -> None:
        async with OnlinePage(server) as owner:
            async with OnlinePage(server, game=asked) as guesser:
                assert guesser.rejected == ["no such game: here is a new one"]
                assert guesser.game and guesser.game not in (asked, owner.game) and ID.fullmatch(guesser.game)

    with _server(tmp_path) as server:
        asyncio.run(guess(server))


def test_health_says_what_runs_and_who_answers(tmp_path, kalah_tape) -> None:
    with _server(tmp_path, max_games=3) as server:
        health = server.health()
        assert {"games", "waiting", "machines", "max_games", "games_played", "mismatches", "restarts", "database",
                "server", "pid"} <= set(health)
        assert health["database"] == "ok" and health["max_games"] == 3 and health["pid"] == server.proc.pid
        assert (tmp_path / "state" / "games.sqlite3").exists()


def test_a_choice_made_after_a_game_is_the_next_games(tmp_path, kalah_tape) -> None:
    """The page shows the choices beside "New game" once a game is over: one touched then is taken, and the new
    game is played with it (it was refused as "the game is over")."""
    async def visit(server: OnlineServer) -> None:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            level = page.state["board"]["settings"]["level"]
            await page.play_out()
            chosen = page.state["choices"]["strength"]
            other = next(s for s in page.state["choices"]["strengths"] if s != chosen)
            await page.send({"type": "choose", "strength": other})
            await page.until(lambda: page.state["choices"]["strength"] == other)
            await page.send({"type": "new_game"})
            await page.until(lambda: page.your_turn() and page.state["result"] is None)
            assert page.state["choices"]["strength"] == other and not page.rejected, page.rejected
            assert page.state["board"]["settings"]["level"] != level  # (the strength's own level)

    with OnlineServer(write_settings(tmp_path / "conf", choices=True), tmp_path / "state") as server:
        asyncio.run(visit(server))
