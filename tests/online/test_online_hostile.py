"""A public server's input is hostile: a foreign Origin or Host, non-JSON, an oversized frame, a flood of
moves, more connections from one address than it may hold.  Each gets an answer and harms nothing else."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import aiohttp
import pytest

from tests.online.online_support import OnlinePage, OnlineServer, write_settings

pytestmark = pytest.mark.simh


def test_hostile_input_is_answered_and_harms_nothing(tmp_path, kalah_tape) -> None:
    async def attack(server: OnlineServer) -> None:
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as foreign:
                await http.ws_connect(server.url + "/ws", origin="https://evil.example")
            assert foreign.value.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError) as no_origin:
                await http.ws_connect(server.url + "/ws")
            assert no_origin.value.status == 403
        async with OnlinePage(server) as victim, OnlinePage(server) as page:
            await victim.send({"type": "play"})
            await victim.until(victim.your_turn)
            await page.send("this is not json")
            await page.send(json.dumps({"type": "move", "pit": 1, "turn": 1, "extra": "x"}))
            await page.until(lambda: len(page.rejected) == 2)
            for _ in range(200):  # a flood: answered once a second at most, and nothing played
                await page.send({"type": "move", "pit": 1, "turn": 1})
            await page.settle(1.0)
            # a burst of 10 and 5 a second are heard (each refused: no machine yet), the rest get one line a second
            assert "too many messages" in page.rejected and len(page.rejected) < 50
            await page.ws.send_str("x" * 100_000)  # past the message size cap: the connection is closed
            closed = await page.ws.receive(timeout=10)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING,
                                   aiohttp.WSMsgType.ERROR)
            # the other visitor's game went on untouched
            turn = victim.state["turn"]
            await victim.move(victim.state["legal"][0])
            await victim.until(lambda: victim.state["turn"] != turn or victim.state["phase"] == "game_over")
            assert not victim.rejected

    with OnlineServer(write_settings(tmp_path / "conf"), tmp_path / "state") as server:
        request = urllib.request.Request(server.url + "/", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as wrong_host:
            urllib.request.urlopen(request, timeout=10)
        assert wrong_host.value.code == 403
        status, page = server.get("/")
        assert status == 200 and 'data-site="online"' in page
        with urllib.request.urlopen(server.url + "/health", timeout=10) as answer:
            assert answer.headers["Server"] == "kalah-online"  # no versions for a scanner
        asyncio.run(attack(server))
        assert server.health()["status"] == "ok"


def test_one_address_holds_at_most_per_ip_games_connections(tmp_path, kalah_tape) -> None:
    async def many(server: OnlineServer) -> None:
        async with OnlinePage(server), OnlinePage(server), OnlinePage(server):
            async with aiohttp.ClientSession() as http:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(server.url + "/ws", origin=server.url)
                assert refused.value.status == 429
        async with OnlinePage(server) as again:  # the places are free again once those pages left
            assert again.game

    with OnlineServer(write_settings(tmp_path / "conf", per_ip=3), tmp_path / "state") as server:
        asyncio.run(many(server))


def test_a_full_disk_refuses_new_games_with_a_clear_message_and_keeps_the_records(tmp_path, kalah_tape) -> None:
    """The disk "full" (``min_free_mb`` above what is free): a new game is refused in one line, health says
    why (503), and the game kept before is whole, by its ID, record and paper alike."""
    state = tmp_path / "state"

    async def play(server: OnlineServer) -> str:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.play_out()
            return page.game or ""

    async def refused(server: OnlineServer, game: str) -> None:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(server.url + "/ws", origin=server.url)
            said = await ws.receive(timeout=10)
            assert json.loads(said.data)["reason"].startswith("no new game can be kept now: the disk is nearly full")
            assert (await ws.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        async with OnlinePage(server, game=game) as back:  # a kept game is still shown by its ID
            assert back.game == game and back.state["phase"] == "game_over"

    with OnlineServer(write_settings(tmp_path / "conf"), state) as server:
        game = asyncio.run(play(server))
        server.wait_for(lambda h: h["games_played"] == 1)
        kept = server.get(f"/games/{game}/record.txt")
    answering = lambda h: "server" in h  # noqa: E731 - it answers, failing
    with OnlineServer(write_settings(tmp_path / "full", min_free_mb=1_000_000), state, answering) as server:
        health = server.health()
        assert health["status"] == "failing" and "the disk is nearly full" in health["problems"][0]
        asyncio.run(refused(server, game))
        assert server.get(f"/games/{game}/record.txt") == kept and kept[0] == 200
