"""The online exhibit's machines through a visitor's waits and their faults: one killed in its sleep, the
server killed, one stopped while it thinks, a game left idle (a waiting PDP-1's cost, measured at both front
ends, is tests/exhibit/test_waiting_machine.py's)."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from tests.exhibit.test_waiting_machine import pdp1s as _pdp1s
from tests.online.online_support import OnlinePage, OnlineServer, write_settings

pytestmark = pytest.mark.simh


def test_a_pdp1_killed_while_its_visitor_thinks_is_replaced_and_the_move_played_once(tmp_path, kalah_tape) -> None:
    """``kill -9`` on the (suspended) pdp1: the visitor's move finds it gone; a fresh PDP-1 is given the game at
    the same position, "one moment" shown meanwhile, and the move is played there, once."""
    async def killed(server: OnlineServer) -> None:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            # asleep by now (looked at as it asked, then suspended), and half a second from the server's next look
            # at its process (every ALIVE_EVERY, 1 s, from the question): the move reaches the server first
            await page.settle(0.5)
            board = page.state["board"]
            (pdp1,) = _pdp1s(server)
            os.kill(pdp1, signal.SIGKILL)
            turn = page.state["turn"]
            await page.move(page.state["legal"][0])
            await page.until(lambda: any(m.get("notice") == "one_moment" for m in page.messages
                                         if m["type"] == "state"))
            await page.until(lambda: page.state["turn"] != turn or page.state["phase"] == "game_over", timeout=30)
            assert page.paper.count("you play") == 1 and not page.rejected
            assert board["bottom"] != page.state["board"]["bottom"]  # the move was played on the restored board
            assert server.health()["restarts"] == 1 and _pdp1s(server) != [pdp1]

    with OnlineServer(write_settings(tmp_path / "conf"), tmp_path / "state") as server:
        asyncio.run(killed(server))


def test_a_pdp1_replaced_while_the_question_is_open_keeps_the_question_and_its_turn(tmp_path, kalah_tape) -> None:
    """``kill -9`` on the (suspended) pdp1 while the visitor thinks, and no tap until it has been replaced: the
    fresh PDP-1 asks the same question at the same board, the same side to move, with the same turn, so the
    tap the page sends for the turn it showed is played (not refused as stale), once."""
    async def killed(server: OnlineServer) -> None:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            turn = page.state["turn"]
            await page.move(page.state["legal"][0])  # one question answered: a turn past a new page's
            await page.until(lambda: page.your_turn() and page.state["turn"] != turn)
            await page.settle(0.5)  # (asleep by now: looked at as it asked, then suspended)
            asked = {key: page.state[key] for key in ("board", "legal", "swap", "turn")}
            (pdp1,) = _pdp1s(server)
            os.kill(pdp1, signal.SIGKILL)
            server.wait_for(lambda h: h["restarts"] == 1, timeout=20, what="the pdp1 replaced")
            await page.until(lambda: any(m.get("notice") == "one_moment" for m in page.messages
                                         if m["type"] == "state"))
            await page.until(lambda: page.your_turn() and page.state["notice"] is None, timeout=30)
            assert {key: page.state[key] for key in asked} == asked
            await page.move(asked["legal"][0], turn=asked["turn"])
            await page.until(lambda: page.state["turn"] != asked["turn"] or page.state["phase"] == "game_over",
                             timeout=30)
            assert not page.rejected and page.paper.count("you play") == 2
            assert page.state["board"] != asked["board"] and pdp1 not in _pdp1s(server)

    settings = write_settings(tmp_path / "conf", pits=4, seeds=3)
    with OnlineServer(settings, tmp_path / "state") as server:
        asyncio.run(killed(server))


def test_the_server_killed_and_started_again_resumes_the_game_at_the_same_board_and_turn(tmp_path,
                                                                                      kalah_tape) -> None:
    """``kill -9`` on the server mid-game; started again on the same state folder, the page that comes back
    with its ID finds its game as it was: the same board, the same open turn, and it plays on."""
    settings = write_settings(tmp_path / "conf", max_games=2, pits=4, seeds=3)
    server = OnlineServer(settings, tmp_path / "state")

    async def before() -> tuple[str, dict, int]:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            for _ in range(2):  # two questions answered: the turn numbers are well past a new page's
                turn = page.state["turn"]
                await page.move(page.state["legal"][-1])
                await page.until(lambda turn=turn: page.your_turn() and page.state["turn"] != turn)
            assert page.paper.count("you play") == 2 and page.state["turn"] >= 4
            return page.game or "", page.state["board"], page.state["turn"]

    async def after(game: str, board: dict, turn: int) -> None:
        async with OnlinePage(server, game=game) as page:
            assert page.game == game and not page.rejected
            await page.until(page.your_turn, timeout=30)
            assert page.state["board"]["bottom"] == board["bottom"] and page.state["board"]["top"] == board["top"]
            assert page.state["turn"] == turn
            await page.move(page.state["legal"][0])
            await page.until(lambda: page.state["turn"] != turn or page.state["phase"] == "game_over")
            assert not page.rejected

    server.start()
    try:
        game, board, turn = asyncio.run(before())
        server.stop(signal.SIGKILL)
        server.start()
        asyncio.run(after(game, board, turn))
    finally:
        server.stop()


def test_a_pdp1_stopped_while_it_thinks_is_replaced_and_the_game_goes_on_at_the_same_turn(tmp_path,
                                                                                           kalah_tape) -> None:
    """``kill -STOP`` on the pdp1 while it answers the visitor (at the 1960 pace it takes seconds): silent past
    the watchdog, it is replaced by a fresh PDP-1, restored at the same position ("one moment" shown
    meanwhile), and the next question is asked with the next turn, the visitor's move played once."""
    async def stopped(server: OnlineServer) -> None:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn, timeout=60)
            turn = page.state["turn"]
            (pdp1,) = _pdp1s(server)
            await page.move(page.state["legal"][0])
            # (its thinking begun: the visitor's key typed, the machine woken from its wait long before)
            await page.until(lambda: page.state["phase"] == "thinking" and page.state["turn"] == turn)
            os.kill(pdp1, signal.SIGSTOP)
            await page.until(lambda: any(m.get("notice") == "one_moment" for m in page.messages
                                         if m["type"] == "state"), timeout=30)
            await page.until(lambda: page.your_turn() or page.state["phase"] == "game_over", timeout=60)
            assert page.paper.count("you play") == 1 and not page.rejected
            if page.your_turn():
                assert page.state["turn"] == turn + 1
            assert server.health()["restarts"] == 1 and pdp1 not in _pdp1s(server)

    settings = write_settings(tmp_path / "conf", pits=3, seeds=2, level=2, pace="1960", watchdog_seconds=3)
    with OnlineServer(settings, tmp_path / "state") as server:
        asyncio.run(stopped(server))


def test_a_game_left_idle_gives_its_machine_back_and_resumes_on_a_fresh_pdp1(tmp_path, kalah_tape) -> None:
    """A game untouched for ``idle_seconds`` (5, the least) is kept and its machine given back; its visitor,
    coming back with the ID, plays on at the same board and turn on a PDP-1 restored from the record."""
    async def left_and_back(server: OnlineServer) -> None:
        async with OnlinePage(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            turn = page.state["turn"]
            await page.move(page.state["legal"][0])
            await page.until(lambda: page.your_turn() and page.state["turn"] != turn)
            board, turn = page.state["board"], page.state["turn"]
            (first,) = _pdp1s(server)
            server.wait_for(lambda h: h["machines"] == 0 and h["games"] == 0, timeout=45, what="the idle game")
            assert _pdp1s(server) == []
        async with OnlinePage(server, game=page.game) as back:
            await back.until(back.your_turn, timeout=30)
            assert back.state["board"] == board and back.state["turn"] == turn and not back.rejected
            assert _pdp1s(server) != [first]
            await back.move(back.state["legal"][0])
            await back.until(lambda: back.state["turn"] != turn or back.state["phase"] == "game_over")
            assert back.paper.count("you play") == 2

    settings = write_settings(tmp_path / "conf", pits=4, seeds=3, idle_seconds=5)
    with OnlineServer(settings, tmp_path / "state") as server:
        asyncio.run(left_and_back(server))
