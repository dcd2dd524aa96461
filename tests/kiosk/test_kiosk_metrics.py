"""The kiosk's ``/metrics``: the same names as the online exhibit's (Prometheus' text format), every series
there from the start, counting a visitor's game and its replies on a real kiosk; and the Host rule holds for it."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.kiosk.kiosk_support import Page
from tests.online.test_metrics import first_scrape, metrics

pytestmark = pytest.mark.simh


def test_the_kiosk_counts_a_visitors_replies_in_prometheus_text(server) -> None:
    status, text = server.get("/metrics")
    assert status == 200
    families = {family.name for family in text_string_to_metric_families(text)}
    assert {"kalah_games_running", "kalah_games_played", "kalah_reply_seconds", "kalah_emulator_restarts",
            "kalah_emulators", "kalah_healthy"} <= families
    assert "kalah_database_up" not in families  # the kiosk keeps no database
    first_scrape(text)  # (its screen plays the demo meanwhile: no visitor's reply is timed before a visitor's move)

    async def move() -> None:
        async with Page(server) as page:
            await page.send({"type": "play"})
            await page.until(page.your_turn)
            turn = page.state["turn"]
            await page.move(page.state["legal"][-1])
            await page.until(lambda: page.state["turn"] != turn and (page.your_turn()
                                                                      or page.state["phase"] == "game_over"))

    asyncio.run(move())
    after = metrics(server.get("/metrics")[1])
    assert after["kalah_reply_seconds_count{pace=fast}"] >= 1 and after["kalah_emulators"] == 1
    assert after["kalah_healthy"] == 1, server.health()  # (what /health says now, should it flap)
    request = urllib.request.Request(server.url + "/metrics", headers={"Host": "elsewhere.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
