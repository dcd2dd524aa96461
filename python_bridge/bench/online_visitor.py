"""A simulated visitor of the online exhibit, for ``bench-online``: a real WebSocket client that plays one
whole game as a person would, seeded.

It asks to play (with a strength, if told), waits in line if it must, thinks ``think`` seconds (uniform,
from its own generator) before each move and plays a random legal pit; a move refused for coming too fast
is tapped again a second later.  Past one host it follows a full server's ``elsewhere`` to the server with
room, by the load balancer's ``?server=``, and asks again there.  What it saw goes into ``step`` (a
``bench.online_load.Step``): completed or failed, and how long it waited for a machine.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Protocol

GAME_LIMIT_S = 3600.0  # a visitor that has not finished in an hour counts as an error
REFUSED_AGAIN_S = 1.0  # a move refused (too fast) is tapped again after this, as a person would


class Tally(Protocol):
    completed: int
    failed: int
    waits: list[float]


def address_of(number: int) -> str:
    """Visitor ``number``'s own address, as a trusted proxy would say it (``X-Forwarded-For``)."""
    return f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"


async def visit(url: str, number: int, seed: int, strength: str | None, step: Tally,
                think: tuple[float, float]) -> None:
    import aiohttp

    rng = random.Random(f"{seed}:{number}")
    began = asked = time.monotonic()
    state: dict = {}
    waited: float | None = None
    query, game = "", ""
    async with aiohttp.ClientSession() as http:
        while True:  # one connection, or more when a full server sends the visitor elsewhere
            ws = await http.ws_connect(url + "/ws" + query, origin=url,
                                       headers={"X-Forwarded-For": address_of(number)}, heartbeat=30)
            if strength:
                await ws.send_str(json.dumps({"type": "choose", "strength": strength}))
            await ws.send_str(json.dumps({"type": "play"}))
            sent_to = None
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(msg.data)
                kind = data["type"]
                if kind == "hello":
                    state, game = data["state"], data["game"]
                elif kind == "state":
                    state = data
                elif kind == "elsewhere":
                    sent_to = data["server"]
                    break
                elif kind == "full":
                    break
                elif kind == "rejected" and state.get("phase") == "your_turn":  # (too fast for the rate limit)
                    await asyncio.sleep(REFUSED_AGAIN_S)
                    await ws.send_str(json.dumps({"type": "move", "pit": rng.choice(state["legal"]),
                                                  "turn": state["turn"]}))
                if state.get("mode") == "visitor" and waited is None:
                    waited = time.monotonic() - asked
                if state.get("phase") == "game_over":
                    step.completed += 1
                    break
                if kind == "state" and state.get("mode") == "visitor" and state.get("phase") == "your_turn":
                    await asyncio.sleep(rng.uniform(*think))
                    await ws.send_str(json.dumps({"type": "move", "pit": rng.choice(state["legal"]),
                                                  "turn": state["turn"]}))
                if time.monotonic() - began > GAME_LIMIT_S:
                    break
            await ws.close()
            if sent_to is None or not game:
                break
            query = f"?game={game}&server={sent_to}"
    if state.get("phase") != "game_over":
        step.failed += 1
    if waited is not None:
        step.waits.append(waited)
