"""``bench-online --servers N --kills K``: how long a visitor waits when their server is killed.

One visitor plays through HAProxy on a cluster of N servers (``online.cluster``).  Each time the PDP-1
asks it a question, its server -- the one holding the game's lease -- is killed (``kill -9``), and the
time is taken from the kill to the next question shown on the visitor's page: the page noticing, coming
back through HAProxy to another server, that server taking the game over from the database and restoring
it on a PDP-1 of its own.  The killed server is started again meanwhile, so that there is always
somewhere to go.  Then K times the same with ``kill -STOP``: a stopped server is alive to the others (as
one on another host would be), so its lease is waited for; HAProxy finds it down and cuts its pages'
connections; it is woken after, and finds its game taken.  A finished game is followed by a new one.
Printed: each time, then the median and the worst of each kind.  (The visitor's page does as the real
one, ``static/js``: it comes back with its game's ID, first after 0.25 s.)
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import statistics
import time

from ..exhibit.web_guard import free_port
from ..online.cluster import Cluster
from ..online.database import open_store

RECONNECT_FIRST_S = 0.25
HOW = {signal.SIGKILL: "kill -9", signal.SIGSTOP: "kill -STOP"}
QUESTION_TIMEOUT_S = 60.0


class Visitor:
    """A page of one browser (its cookie, so its server) that reconnects as the real page does."""

    def __init__(self, url: str, rng: random.Random) -> None:
        self.url = url
        self.rng = rng
        self.state: dict = {}
        self.game = ""
        self.hellos = 0

    async def open(self) -> None:
        import aiohttp

        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with self.http.get(self.url + "/") as page:
            await page.read()
        self.ws = await self.http.ws_connect(self.url + "/ws", origin=self.url)

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()

    async def send(self, message: dict) -> None:
        try:
            await self.ws.send_str(json.dumps(message))
        except (ConnectionError, OSError, RuntimeError):
            pass  # closing: the page comes back by itself

    async def question(self, after_hellos: int = 0) -> None:
        """Read until the PDP-1 asks a question (on a connection past ``after_hellos``) or the game ends."""
        await self.until(lambda: self.hellos > after_hellos and (self.asked() or self.over()))

    def over(self) -> bool:
        return self.state.get("phase") == "game_over"

    async def until(self, condition) -> None:
        """Read (coming back after a drop) until ``condition()``."""
        import aiohttp

        deadline = time.monotonic() + QUESTION_TIMEOUT_S
        while True:
            if condition():
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"no question in {QUESTION_TIMEOUT_S:.0f} s: {self.state.get('phase')}")
            try:
                msg = await self.ws.receive(timeout=deadline - time.monotonic())
            except asyncio.TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                await self._reconnect(deadline)
                continue
            data = json.loads(msg.data)
            if data["type"] == "hello":
                self.hellos += 1
                self.state, self.game = data["state"], data["game"]
            elif data["type"] == "state":
                self.state = data

    def asked(self) -> bool:
        return self.state.get("mode") == "visitor" and self.state.get("phase") == "your_turn"

    async def _reconnect(self, deadline: float) -> None:
        import aiohttp

        wait = RECONNECT_FIRST_S
        while True:
            await asyncio.sleep(wait)
            try:
                self.ws = await self.http.ws_connect(f"{self.url}/ws?game={self.game}", origin=self.url)
                return
            except (aiohttp.ClientError, OSError):
                if time.monotonic() > deadline:
                    raise
                wait = min(2 * wait, 2.0)

    async def move(self) -> None:
        await self.send({"type": "move", "pit": self.rng.choice(self.state["legal"]), "turn": self.state["turn"]})


async def _kills(cluster: Cluster, kills: int, seed: int, sig: int) -> list[float]:
    visitor = Visitor(cluster.url, random.Random(seed))
    await visitor.open()
    times: list[float] = []
    store = open_store(cluster.postgres.url, cluster.folder)
    loop = asyncio.get_running_loop()
    try:
        await visitor.send({"type": "play"})
        await visitor.question()
        while len(times) < kills:
            if visitor.over():
                game = visitor.game
                await visitor.send({"type": "new_game"})
                await visitor.until(lambda game=game: visitor.game != game)
                await visitor.send({"type": "play"})
                await visitor.until(lambda: visitor.asked() or visitor.over())
                continue
            owner = store.owner_of(visitor.game)
            (server,) = [s for s in cluster.servers if s.name == owner]
            hellos = visitor.hellos
            killed = time.monotonic()
            cluster.signal(server, sig)
            await visitor.question(hellos)
            times.append(time.monotonic() - killed)
            print(f"{HOW[sig]} {len(times):2d}: server {server.label}, the next question shown after "
                  f"{times[-1]:.2f} s", flush=True)
            if sig == signal.SIGKILL:  # somewhere to go next time
                await loop.run_in_executor(None, cluster.start_server, server)
            else:  # woken, it finds the game taken and drives it no more
                cluster.signal(server, signal.SIGCONT)
            turn = visitor.state.get("turn")
            if visitor.asked():
                await visitor.move()
                await visitor.until(lambda turn=turn: visitor.over() or (visitor.asked()
                                                                         and visitor.state["turn"] != turn))
    finally:
        store.close()
        await visitor.close()
    return times


def run_failover(servers: int, kills: int, seed: int) -> int:
    """Kill a visitor's server ``kills`` times on a cluster of ``servers``; print the times; the status."""
    print(f"bench-online failover: {servers} servers on PostgreSQL behind HAProxy, pace fast; each kill "
          f"(kill -9) of the visitor's server timed to the next question on its page", flush=True)
    with Cluster(servers, free_port(), pace="fast") as cluster:
        lease = cluster.wait_healthy(cluster.servers[0])["lease_s"]
        killed = asyncio.run(_kills(cluster, kills, seed, signal.SIGKILL))
        stopped = asyncio.run(_kills(cluster, kills, seed + 1, signal.SIGSTOP))
    print(f"failover, killed (kill -9; a server of this host found dead is taken over at once): {len(killed)} kills, "
          f"median {statistics.median(killed):.2f} s, worst {max(killed):.2f} s")
    print(f"failover, stopped (kill -STOP: alive to the others, so its lease of {lease:g} s is waited for, as for a "
          f"server on another host): {len(stopped)} stops, median {statistics.median(stopped):.2f} s, "
          f"worst {max(stopped):.2f} s")
    return 0
