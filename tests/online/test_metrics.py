"""``/metrics`` for a museum's monitoring: Prometheus' text format from a real online server (and the kiosk's,
tests/kiosk/test_kiosk_metrics.py), named by Prometheus' conventions, counting a real game; the Host rule
holds for it; ``metrics_port`` serves it alone on another port; a scrape before any game has every series
(each pace's replies at zero), valid for ``promtool check metrics``; and the shipped scrape configuration and
alert rules pass Debian's ``promtool`` (the rules' own unit test: each alert fires when it should)."""

from __future__ import annotations

import asyncio
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from python_bridge.exhibit.metrics import REPLY_BUCKETS
from python_bridge.exhibit.web_guard import free_port
from tests.online.online_support import OnlinePage, OnlineServer, write_settings
from tests.programs import need

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "online"
NAMES = ("kalah_games_running", "kalah_games_waiting", "kalah_games_played", "kalah_reply_seconds",
         "kalah_mismatches", "kalah_emulator_restarts", "kalah_errors", "kalah_emulators",
         "kalah_emulator_cpu_seconds", "kalah_emulator_memory_bytes", "kalah_database_up",
         "kalah_queue_wait_seconds", "kalah_healthy")


def metrics(text: str) -> dict[str, float]:
    """Every sample of the text format by its name and labels, as Prometheus would read it."""
    return {sample.name + ("{" + ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items())) + "}"
                           if sample.labels else ""): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def first_scrape(text: str) -> dict[str, float]:
    """The samples of a scrape of a server that has played no game, checked: valid for ``promtool check
    metrics``, and every family with its series from the start, a labelled one at zero for each label value
    known in advance (both paces), so that a rule on it (a rate, a quantile) has a series before the first
    reply."""
    done = subprocess.run([need("/usr/bin/promtool"), "check", "metrics"], input=text, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    empty = [family.name for family in text_string_to_metric_families(text) if not family.samples]
    assert not empty, f"families without a series before any game: {empty}"
    first = metrics(text)
    for pace in ("1960", "fast"):
        buckets = {key: value for key, value in first.items()
                   if key.startswith("kalah_reply_seconds_bucket{") and key.endswith(f",pace={pace}}}")}
        assert len(buckets) == len(REPLY_BUCKETS) + 1 and not any(buckets.values()), (pace, buckets)  # and +Inf
        assert first[f"kalah_reply_seconds_count{{pace={pace}}}"] == 0
        assert first[f"kalah_reply_seconds_sum{{pace={pace}}}"] == 0
    return first


def test_the_shipped_configuration_and_alerts_pass_promtool() -> None:
    promtool = need("/usr/bin/promtool")
    for args, cwd in ((["check", "config", "prometheus.yml"], DEPLOY),
                      (["check", "rules", "kalah-alerts.yml"], DEPLOY),
                      (["test", "rules", "kalah-alerts.test.yml"], Path(__file__).parent)):
        done = subprocess.run([promtool, *args], cwd=cwd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "SUCCESS" in done.stdout, (args, done.stdout, done.stderr)


@pytest.mark.simh
def test_an_online_server_counts_a_game_in_prometheus_text(tmp_path, kalah_tape) -> None:
    """(Its cross-checks searched by two worker processes, as the shipped settings do, one a core.)"""
    with OnlineServer(write_settings(tmp_path / "conf", workers=2), tmp_path / "state") as server:
        status, before = server.get("/metrics")
        assert status == 200
        families = {family.name: family.type for family in text_string_to_metric_families(before)}
        assert set(NAMES) <= set(families), set(NAMES) - set(families)
        assert families["kalah_games_played"] == "counter" and families["kalah_reply_seconds"] == "histogram"
        assert all(name.startswith(("kalah_", "process_", "python_")) for name in families)
        first = first_scrape(before)
        assert first["kalah_games_played_total"] == 0 and first["kalah_database_up"] == 1
        assert first["kalah_healthy"] == 1 and first["kalah_games_running"] == 0

        async def play() -> dict[str, float]:
            async with OnlinePage(server) as page:
                await page.send({"type": "play"})
                await page.until(page.your_turn)
                during = metrics(server.get("/metrics")[1])  # (a blocking call: the page waits meanwhile)
                await page.play_out()
                return during

        during = asyncio.run(play())
        assert during["kalah_games_running"] == 1 and during["kalah_emulators"] == 1
        assert during["kalah_emulator_memory_bytes"] > 1_000_000  # a running pdp1's resident memory
        health = server.wait_for(lambda h: h["games_played"] == 1, what="the game counted")
        assert health["workers"] >= 1 and health["mismatches"] == 0  # every move checked in a worker
        # the game over, its machine given back: the pdp1 ends a moment after the game is counted (on a busy host
        # it was still there at the first scrape once)
        deadline = time.monotonic() + 10
        while (after := metrics(server.get("/metrics")[1]))["kalah_emulators"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert after["kalah_games_played_total"] == 1 and after["kalah_mismatches_total"] == 0
        assert after['kalah_reply_seconds_count{pace=fast}'] >= 1  # every reply to a move, timed
        assert after["kalah_queue_wait_seconds_count"] == 1 and after['kalah_queue_wait_seconds_bucket{le=0.0}'] == 1
        assert after["kalah_emulator_cpu_seconds_total"] >= during["kalah_emulator_cpu_seconds_total"] >= 0
        assert after["kalah_emulators"] == 0
        request = urllib.request.Request(server.url + "/metrics", headers={"Host": "elsewhere.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403  # the Host rule holds for /metrics as for every page


@pytest.mark.simh
def test_metrics_port_serves_it_alone_on_another_port(tmp_path, kalah_tape) -> None:
    port = free_port()
    settings = write_settings(tmp_path / "conf")
    settings.write_text(settings.read_text().replace("[online]\n", f"[online]\nmetrics_port = {port}\n"))
    with OnlineServer(settings, tmp_path / "state") as server:
        assert server.get("/metrics")[0] == 404  # not on the visitors' port
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
            assert answer.status == 200 and "kalah_games_running" in answer.read().decode()
        with pytest.raises(urllib.error.HTTPError) as nothing_else:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10)
        assert nothing_else.value.code == 404
