"""The kiosk server over HTTP and WebSocket, with the real SIMH: health, hostile input, restarts.

A page here is a plain WebSocket client (``kiosk_support.Page``); the real
browser is in test_browser.py.
"""

from __future__ import annotations

import asyncio
import json
import signal
import urllib.request

import pytest

from python_bridge.exhibit.page import STATIC_DIR as STATIC
from tests.kiosk.kiosk_support import Page
from tests.processes import pid_alive

pytestmark = pytest.mark.simh


def test_health_and_the_page_and_only_on_localhost(server) -> None:
    report = server.health()
    assert report["status"] == "ok" and report["mode"] == "attract"
    assert pid_alive(report["pdp1_pid"]) and report["processes"] == 2  # the server and its one pdp1
    page = urllib.request.urlopen(server.url + "/").read().decode()
    assert '<script type="module" src="static/js/main.js">' in page and "paper" in page
    assert urllib.request.urlopen(server.url + "/static/kiosk.css").status == 200
    for module in sorted((STATIC / "js").glob("*.js")):  # a module script needs a JavaScript MIME type
        served = urllib.request.urlopen(f"{server.url}/static/js/{module.name}")
        assert served.headers.get_content_type() in ("text/javascript", "application/javascript"), module.name
    with open(f"/proc/{server.proc.pid}/net/tcp") as tcp:  # listening sockets: 127.0.0.1 only
        listening = [line.split()[1] for line in tcp.readlines()[1:] if line.split()[3] == "0A"]
    assert f"0100007F:{server.port:04X}" in listening
    assert all(addr.startswith("0100007F") for addr in listening if addr.endswith(f":{server.port:04X}"))


async def _start_visitor_game(page: Page) -> None:
    await page.send({"type": "play"})
    await page.until(page.your_turn)


def test_bad_and_hostile_input_is_rejected_and_changes_nothing(server) -> None:
    async def scenario() -> None:
        async with Page(server) as page:
            await page.move(1)  # attract mode: nobody's turn
            await page.until(lambda: "not your turn" in page.rejected)
            await _start_visitor_game(page)
            board = page.state["board"]
            bad = ["not json", "[1, 2]", json.dumps({"type": "reboot"}), json.dumps({"type": "move"}),
                   json.dumps({"type": "move", "pit": 0}), json.dumps({"type": "move", "pit": "3"}),
                   json.dumps({"type": "move", "pit": True}), json.dumps({"type": "move", "pit": 2, "x": 1}),
                   json.dumps({"type": "swap", "turn": page.state["turn"]}), json.dumps({"type": "new_game"}),
                   json.dumps({"type": 7})]
            for raw in bad:  # at a person's pace, below the flood limit
                await page.send(raw)
                await asyncio.sleep(0.25)
            await page.ws.send_bytes(b"\x00\x01")
            await page.until(lambda: len(page.rejected) >= 1 + len(bad) + 1)
            assert page.your_turn() and page.state["board"] == board
            reasons = " | ".join(page.rejected)
            for words in ("not JSON", "not a JSON object", "unknown message type", "pit number", "unexpected field",
                          "no swap", "game is in progress", "text messages only"):
                assert words in reasons, (words, reasons)
            # a flood of touches on one pit: at most one move is played, the rest refused
            legal = page.state["legal"]
            for _ in range(60):
                await page.move(legal[0])
            await page.settle(1.0)
            assert "too many touches" in page.rejected
            await page.until(page.your_turn)
            health = server.health()
            assert health["status"] == "ok" and health["mismatches"] == 0 and health["errors"] == 0
            assert page.state["last"] is not None  # the one move was played and answered
            # an oversized message closes that connection only; the kiosk carries on
            await page.send(json.dumps({"type": "touch", "pad": "x" * 5000}))
            while (msg := await page.ws.receive(timeout=5)).type == msg.type.TEXT:
                pass  # what the kiosk sent before it read the message (the console lights, a state)
            assert msg.type in (msg.type.CLOSE, msg.type.CLOSED, msg.type.CLOSING, msg.type.ERROR)
        async with Page(server) as again:
            assert again.your_turn() and again.state["board"] == page.state["board"]

    asyncio.run(scenario())


def test_a_game_survives_a_server_restart(server) -> None:
    async def play_two_moves() -> dict:
        async with Page(server) as page:
            await _start_visitor_game(page)
            for _ in range(2):
                await page.move(page.state["legal"][-1])
                await page.until(lambda: page.state["phase"] != "your_turn")
                await page.until(page.your_turn)
            return {"state": page.state, "paper": page.paper}

    before = asyncio.run(play_two_moves())
    old_pid = server.health()["pdp1_pid"]
    server.stop(signal.SIGKILL)  # the server dies at once: no chance to tidy up
    server.start()
    assert server.health()["pdp1_pid"] != old_pid and not pid_alive(old_pid)

    async def look_again() -> None:
        async with Page(server) as page:
            await page.until(page.your_turn)
            assert page.state["board"] == before["state"]["board"]
            assert page.state["game"] == before["state"]["game"]
            assert page.paper.startswith(before["paper"])  # the same sheet, and the board drawn again
            await page.move(page.state["legal"][0])  # and the game goes on
            await page.until(lambda: page.state["phase"] != "your_turn")
            await page.until(lambda: page.your_turn() or page.state["phase"] == "game_over")

    asyncio.run(look_again())
    health = server.health()
    assert health["restored_after_server_restart"] == 1 and health["mismatches"] == 0
    log = (server.config.parent / "state" / "kiosk.log").read_text()
    assert "server restarted: restoring game" in log and log.count("kiosk started") == 2
