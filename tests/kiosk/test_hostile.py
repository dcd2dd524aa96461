"""A kiosk left alone with hostile or clumsy visitors, on the real server and SIMH: double taps and
stale moves, a second screen trying to play, other sites' pages, too many connections, an overlong
path, a silent half-request, a pdp1 stopped while the visitor thinks, and a state_dir that is
unusable at start or breaks while the kiosk runs.  The protocol is in python_bridge/exhibit/messages.py.
"""

from __future__ import annotations

import asyncio
import socket
import time
import urllib.error
import urllib.request

import aiohttp
import pytest

from tests.kiosk.kiosk_support import KioskServer, Page, write_config
from tests.processes import kept_hung

pytestmark = pytest.mark.simh

STALE = "that tap was for an earlier turn"
TOKEN = "gallery-screen-0123456789"


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


async def _visitor_game(page: Page) -> None:
    await page.send({"type": "play"})
    await page.until(page.your_turn)


def _played(page: Page) -> list[str]:
    """The visitor's moves as the page was told of them, each once."""
    seen: list[str] = []
    for msg in page.messages:
        last = msg.get("last") if msg["type"] == "state" and msg["mode"] == "visitor" else None
        if last and last["player"] == "you" and not last["swap"]:
            said = f"move {last['number']}: pit {last['pit']}" + (", moves again" if last["extra_turn"] else "")
            if not seen or seen[-1] != said:
                seen.append(said)
    return seen


def test_a_double_tap_plays_one_move_and_stale_taps_are_refused(server) -> None:
    async def scenario() -> None:
        async with Page(server) as page:
            await _visitor_game(page)
            turn = page.state["turn"]
            assert page.state["legal"] == [1, 2, 3, 4]
            await page.move(2)  # an extra turn: the PDP-1 asks the visitor again at once...
            await asyncio.sleep(0.04)
            await page.move(1, turn=turn)  # ...and the second finger of a double tap, 40 ms later
            await page.until(lambda: page.your_turn() and page.state["turn"] > turn)
            await page.settle(0.5)
            assert _played(page) == ["move 1: pit 2, moves again"], page.messages[-5:]
            assert STALE in page.rejected or "not your turn" in page.rejected, page.rejected
            board = page.state["board"]
            assert board["bottom"] == [3, 0, 4, 4] and board["bottom_store"] == 1  # pit 1 was never played
            # a tap answering a question long gone changes nothing either
            rejected = len(page.rejected)
            await page.move(1, turn=turn)
            await page.until(lambda: len(page.rejected) > rejected)
            assert page.rejected[-1] == STALE and page.state["board"] == board and page.your_turn()
            # two taps sent at once (both queued before the first is played): still one move
            turn, played = page.state["turn"], len(_played(page))
            legal = page.state["legal"]
            await page.move(legal[0])
            await page.move(legal[-1])
            await page.until(lambda: len(_played(page)) > played)
            await page.until(lambda: page.your_turn() or page.state["phase"] == "game_over")
            await page.settle(0.5)
            assert _played(page)[played:] == [_played(page)[played]] and len(_played(page)) == played + 1
            # every state carries the turn; it only ever grows
            turns = [m["turn"] for m in page.messages if m["type"] == "state"]
            assert turns == sorted(turns)
        health = server.health()
        assert health["mismatches"] == 0 and health["errors"] == 0

    asyncio.run(scenario())


def test_only_the_controlling_page_plays_the_others_watch(server) -> None:
    async def scenario() -> None:
        async with Page(server) as kiosk, Page(server) as gallery:
            assert kiosk.controls is True and gallery.controls is False  # no token: the oldest page controls
            for message in ({"type": "play"}, {"type": "touch"}, {"type": "new_game"}):
                await gallery.send(message)
                await asyncio.sleep(0.25)
            await gallery.until(lambda: len(gallery.rejected) == 3)
            assert set(gallery.rejected) == {"this screen only watches"}
            assert gallery.state["mode"] == "attract"
            await _visitor_game(kiosk)
            await gallery.until(gallery.your_turn)  # the watcher sees the game
            await gallery.move(kiosk.state["legal"][0], turn=kiosk.state["turn"])
            await gallery.until(lambda: len(gallery.rejected) == 4)
            assert gallery.rejected[-1] == "this screen only watches"
            await kiosk.settle(0.3)
            assert kiosk.your_turn() and not _played(kiosk)
            await kiosk.ws.close()  # the controlling page leaves: the watcher takes over
            await gallery.until(lambda: gallery.controls is True)
            await gallery.move(gallery.state["legal"][0])
            await gallery.until(lambda: bool(_played(gallery)))

    asyncio.run(scenario())


def test_with_a_token_only_the_kiosks_own_page_controls(tmp_path, kalah_tape) -> None:
    config = write_config(tmp_path / "kiosk")
    config.write_text(config.read_text() + f'control_token = "{TOKEN}"\n')

    async def scenario(server: KioskServer) -> None:
        async with Page(server) as first, Page(server, control="wrong-token-0123456789") as guess:
            assert first.controls is False and guess.controls is False
            await first.send({"type": "play"})
            await first.until(lambda: first.rejected == ["this screen only watches"])
            async with Page(server, control=TOKEN) as kiosk:
                assert kiosk.controls is True
                await _visitor_game(kiosk)
            # the kiosk's page gone, nobody controls until it is back
            await first.until(lambda: first.state["phase"] == "your_turn")
            assert first.controls is False

    with KioskServer(config) as server:
        asyncio.run(scenario(server))
        log = (config.parent / "state" / "kiosk.log").read_text()
    assert TOKEN not in log and "control_token=(set)" in log  # the log never shows the token


def test_other_sites_wrong_hosts_and_too_many_connections_are_refused(tmp_path, kalah_tape) -> None:
    config = write_config(tmp_path / "kiosk")
    config.write_text(config.read_text() + "max_connections = 3\nheader_timeout = 1.0\n")
    with KioskServer(config) as server:
        status, headers, _ = _get(server.url + "/")
        assert status == 200 and headers["Server"] == "kalah-kiosk"  # no Python or aiohttp version
        assert _get(server.url + "/", {"Host": f"localhost:{server.port}"})[0] == 200
        for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1", "127.0.0.1:80"):
            status, headers, _ = _get(server.url + "/health", {"Host": host})
            assert status == 403 and headers["Server"] == "kalah-kiosk", host
        assert _get(server.url + "/", {"Origin": "http://evil.example"})[0] == 403
        # a path far too long for any file name: 404, not 500, and no traceback anywhere
        assert _get(server.url + "/static/" + "a" * 4000)[0] == 404
        assert _get(server.url + "/static/" + "a" * 200)[0] == 404
        assert _get(server.url + "/" + "x" * 300)[0] == 404

        async def websockets() -> None:
            async with aiohttp.ClientSession() as session:
                for origin in ("http://evil.example", None, f"http://127.0.0.1:{server.port + 1}"):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await session.ws_connect(server.url + "/ws", origin=origin)
                    assert refused.value.status == 403, origin
            pages = [Page(server) for _ in range(3)]
            for page in pages:
                await page.__aenter__()
            async with aiohttp.ClientSession() as session:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(server.url + "/ws", origin=server.url)
                assert refused.value.status == 503
            await pages[0].__aexit__()
            await asyncio.sleep(0.3)
            async with Page(server) as again:  # a place is free again
                assert again.state
            for page in pages[1:]:
                await page.__aexit__()

        asyncio.run(websockets())
        # a silent half-request is closed after header_timeout, not held for minutes
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as half:
            half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            began = time.monotonic()
            assert half.recv(100) == b""
            held = time.monotonic() - began
        assert held < 10, held
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as garbage:  # not HTTP at all
            garbage.sendall(b"GARBAGE LINE\r\n\r\n")
            answer = garbage.recv(4096).decode(errors="replace")
        assert answer.startswith("HTTP/1.0 400") and "Server: kalah-kiosk\r\n" in answer, answer
        health = server.health()
        assert health["status"] == "ok" and health["clients"] == 0
        log = (config.parent / "state" / "kiosk.log").read_text()
        output = server.output()
    assert "Traceback" not in log and "Traceback" not in output
    assert '"GET /static/' in log and " 404 " in log and " 403 " in log  # aiohttp's access log, one line each


def test_a_pdp1_hung_while_the_visitor_thinks_is_found_and_replaced(server) -> None:
    """A pdp1 hung (stopped, and stopped again) while its visitor thinks: asleep it costs nothing and says
    nothing; woken for the visitor's move, it does not answer.  Health says so, the emulator is replaced,
    the game restored, and each of the visitor's moves played once."""
    async def scenario() -> None:
        async with Page(server) as page:
            await _visitor_game(page)
            await page.settle(1.0)  # (asleep by now: the look at its keyboard loop done, the machine suspended)
            pid = server.health()["pdp1_pid"]
            assert server.health()["status"] == "ok"  # a machine asleep on purpose is no problem
            with kept_hung(pid):  # hung, not dead: only the machine's silence once woken can tell
                # (woken for a key, it may answer inside the 20 ms before it is stopped again, and be asleep
                # after its next question's look: the visitor's next move finds it then)
                moves, moved, deadline = 0, None, time.monotonic() + 10
                while (report := server.health())["status"] == "ok":
                    assert time.monotonic() < deadline, "health never said the pdp1 was hung"
                    if page.your_turn() and page.state.get("notice") is None and page.state["turn"] != moved:
                        await page.move(page.state["legal"][0])
                        moves, moved = moves + 1, page.state["turn"]
                    await page.settle(0.05)
                assert any("pdp1" in p or "keyboard loop" in p or "silent" in p for p in report["problems"]), report
                server.wait_for(lambda h: h["restarts"] == 1, timeout=30, what="the emulator replaced")
            server.wait_for(lambda h: h["status"] == "ok" and h["phase"] in ("your_turn", "game_over"), timeout=30,
                            what="the game going on")
            await page.until(lambda: bool(_played(page)))
            assert len(_played(page)) == moves and server.health()["pdp1_pid"] != pid  # each move played once
        assert server.health()["mismatches"] == 0

    asyncio.run(scenario())


def test_an_unusable_state_dir_at_start_runs_degraded_not_dark(tmp_path, kalah_tape) -> None:
    config = write_config(tmp_path / "kiosk")
    (config.parent / "state").write_text("not a folder\n")  # state_dir is a file
    server = KioskServer(config)
    server.start(ready=lambda h: h["pdp1_alive"] and h["phase"] != "starting")
    try:
        report = server.health()
        assert report["status"] == "failing"
        problems = " | ".join(report["problems"])
        assert "cannot be saved" in problems and "not writable" in problems, problems

        async def play() -> None:
            async with Page(server) as page:
                await _visitor_game(page)
                await page.move(page.state["legal"][0])
                await page.until(lambda: bool(_played(page)))

        asyncio.run(play())  # the screen still plays
    finally:
        server.stop()
    output = server.log.read_text(errors="replace")  # all of it: output() is the last 4,000 characters
    assert "running degraded" in output and "Traceback" not in output


def test_a_state_dir_broken_while_running_turns_health_to_503_and_back(server) -> None:
    state = server.config.parent / "state"
    moved = server.config.parent / "state-moved"
    assert server.health()["status"] == "ok"
    state.rename(moved)
    state.write_text("replaced by a file\n")
    report = server.wait_for(lambda h: any("cannot be saved" in p for p in h["problems"]), timeout=20,
                             what="the failing saves seen")
    status, _, _ = _get(server.url + "/health")
    assert status == 503 and any("not writable" in p for p in report["problems"])
    state.unlink()
    moved.rename(state)
    server.wait_for(lambda h: h["status"] == "ok", timeout=20, what="health ok again")
    output = server.output()
    assert "Traceback" not in output and "Logging error" not in output
    assert output.count("cannot be saved") <= 2  # said once when it starts failing, not at every move


def test_counters_persist_across_restarts(server) -> None:
    server.wait_for(lambda h: h["attract_games"] >= 1, timeout=60, what="a game")
    before = server.health()
    server.stop()
    server.start()
    after = server.health()
    assert after["server_starts"] == before["server_starts"] + 1 == 2
    assert after["attract_games"] >= before["attract_games"] and after["games_played"] >= before["games_played"]
    assert after["total_uptime_seconds"] >= before["total_uptime_seconds"] > after["uptime_seconds"]
