"""A visitor's page through HAProxy, for the tests of the online exhibit past one host: it keeps the
cookie HAProxy sets (its server), comes back by itself with its game's ID when its connection drops, and
sends an unanswered move again when the same question is asked again, as the page does
(``static/js/main.js``)."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from python_bridge.online.cluster import Cluster, ClusterServer
from python_bridge.online.database import open_store
from tests.online.online_support import OnlinePage

RECONNECT_FIRST_S = 0.25  # the page's first wait before a new try, doubling (connection.js)
STOP_AT_MOST_S = 45.0  # a cluster's stop, whatever state its parts were left in (a service manager's stop
# timeout would otherwise kill PostgreSQL uncleanly)


class ClusterPage(OnlinePage):
    def __init__(self, cluster: Cluster, browser: aiohttp.CookieJar | None = None) -> None:
        super().__init__(cluster)  # type: ignore[arg-type]
        self.cluster = cluster
        self.jar = browser  # tabs of one browser share its cookies (and so their server)
        self.sent_to: str | None = None  # a full server sent the page to this one ("elsewhere")
        self.sent_ever: list[str] = []
        self.drops: list[float] = []  # when each connection was lost
        self.hellos = 0
        self.unanswered: dict | None = None
        self.answered: set[int] = set()  # the turns this page sent a move for (a move sent again is one)
        self.resent = False

    async def __aenter__(self) -> "ClusterPage":
        jar = self.jar if self.jar is not None else aiohttp.CookieJar(unsafe=True)  # (an IP's cookies too)
        self.session = aiohttp.ClientSession(cookie_jar=jar)
        async with self.session.get(self.server.url + "/") as page:  # HAProxy's cookie comes with the page
            assert page.status == 200
        self.ws = await self.session.ws_connect(self.server.url + "/ws", origin=self.origin)
        await self.until(lambda: bool(self.state))
        return self

    def _take(self, msg: dict) -> None:
        super()._take(msg)
        if msg["type"] == "hello":
            self.hellos += 1
            self.resent = False
        elif msg["type"] == "elsewhere":
            self.sent_to = msg["server"]
            self.sent_ever.append(msg["server"])

    async def send(self, message: dict | str) -> None:
        """As the page sends: nothing on a connection that is closing (the page reconnects, and an unanswered
        move goes again when its question is asked again)."""
        try:
            await super().send(message)
        except (aiohttp.ClientError, ConnectionError):
            pass

    async def move(self, pit: int, turn: int | None = None) -> None:
        self.unanswered = {"type": "move", "pit": pit, "turn": self.state["turn"] if turn is None else turn}
        self.answered.add(self.unanswered["turn"])
        self.resent = True  # sent on this connection: sent again only after a new one's hello
        await self.send(self.unanswered)

    async def _answer_again(self) -> None:
        if self.sent_to is not None and self.messages[-1]["type"] == "hello":  # come to a server with room
            self.sent_to = None
            await self.send({"type": "play"})
        if self.unanswered is None or not self.state:
            return
        if self.state.get("phase") == "game_over" or self.state.get("turn", 0) > self.unanswered["turn"]:
            self.unanswered = None
        elif self.your_turn() and self.state["turn"] == self.unanswered["turn"] and not self.resent:
            self.resent = True
            await self.send(self.unanswered)

    async def _reconnect(self, deadline: float) -> None:
        self.drops.append(time.monotonic())
        wait = RECONNECT_FIRST_S
        while True:
            await asyncio.sleep(wait)
            try:
                where = f"&server={self.sent_to}" if self.sent_to else ""
                self.ws = await self.session.ws_connect(f"{self.server.url}/ws?game={self.game}{where}",
                                                        origin=self.origin)
                return
            except (aiohttp.ClientError, OSError):
                if time.monotonic() > deadline:
                    raise AssertionError("the page could not connect again") from None
                wait = min(2 * wait, 2.0)

    async def dropped(self, msg: aiohttp.WSMessage, deadline: float) -> None:
        await self._reconnect(deadline)

    async def taken(self) -> None:
        await self._answer_again()

def server_of(cluster: Cluster, game: str) -> ClusterServer:
    """The server that holds the game's lease now."""
    store = open_store(cluster.postgres.url, cluster.folder)
    try:
        owner = store.owner_of(game)
    finally:
        store.close()
    held = [s for s in cluster.servers if s.name == owner]
    if len(held) != 1:  # (what the servers said, for the one who reads the failure)
        said = "\n".join(f"{s.label}: " + " | ".join(s.log.read_text(errors="replace").splitlines()[-12:])
                         for s in cluster.servers if s.log.exists())
        raise AssertionError(f"game {game} is held by {owner!r}, none of the cluster's servers; their logs:\n{said}")
    return held[0]

