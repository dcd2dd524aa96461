"""A PDP-1 waiting for its visitor's move costs nothing, at the kiosk as online: at most 1 % of a core,
measured from /proc over seconds of waiting; the move that ends the wait is played as ever (no key lost
as the machine is woken).  One test, run on both front ends of the exhibit."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from python_bridge.exhibit.procinfo import cpu_seconds, descendants
from tests.kiosk.kiosk_support import KioskServer, Page, write_config
from tests.online.online_support import OnlinePage, OnlineServer, write_settings
from tests.server_process import ServerProcess

pytestmark = pytest.mark.simh
MEASURED_S = 3.0
AT_MOST = 0.01  # of a core


def pdp1s(server: ServerProcess) -> list[int]:
    """The server's pdp1 processes."""
    assert server.proc is not None
    return [pid for pid in descendants(server.proc.pid) if Path(f"/proc/{pid}/comm").read_text().strip() == "pdp1"]


def front_end(name: str, folder: Path) -> tuple[ServerProcess, type[Page]]:
    if name == "kiosk":
        return KioskServer(write_config(folder / "conf")), Page
    return OnlineServer(write_settings(folder / "conf"), folder / "state"), OnlinePage


@pytest.mark.parametrize("name", ["kiosk", "online"])
def test_a_waiting_pdp1_uses_at_most_one_percent_of_a_core(name: str, tmp_path, kalah_tape) -> None:
    async def wait_and_play(server: ServerProcess, page_type: type[Page]) -> float:
        async with page_type(server) as page:  # type: ignore[arg-type]
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            await page.settle(1.0)  # the question typed, the machine looked at once and put to sleep
            (pdp1,) = pdp1s(server)
            before, began = cpu_seconds(pdp1), time.monotonic()
            await page.settle(MEASURED_S)
            share = (cpu_seconds(pdp1) - before) / (time.monotonic() - began)
            turn = page.state["turn"]
            await page.move(page.state["legal"][0])
            await page.until(lambda: page.state["turn"] != turn or page.state["phase"] == "game_over")
            assert not page.rejected and "you play" in page.paper
            assert pdp1s(server) == [pdp1]  # woken, not replaced
            return share

    server, page_type = front_end(name, tmp_path)
    with server:
        share = asyncio.run(wait_and_play(server, page_type))
    assert share <= AT_MOST, f"the {name}'s waiting pdp1 used {share:.1%} of a core"
