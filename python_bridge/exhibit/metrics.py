"""``/metrics``: what a museum's monitoring scrapes, in Prometheus' text format (``prometheus_client``).

Why Prometheus' format: it is what Prometheus, VictoriaMetrics, Grafana Agent and most hosted monitoring
read, so a museum's IT adds the exhibit to what it already watches.  The names follow Prometheus'
conventions: a ``kalah_`` prefix, ``_total`` on counters, base units (seconds, bytes).  Both front ends
serve it: the figures come from the server as it is at the scrape (``Figures``); replies and waits in line
are observed as they happen into histograms.  The server's own process figures (``process_*``) come with
them.  ``deploy/online/`` has a sample scrape configuration and alert rules.  Every label value known in
advance (both paces) is exported at zero from the start, as Prometheus' instrumentation guidance asks: a
series that appeared only at the first reply would leave rules on it (a rate, a quantile) with nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from .procinfo import cpu_seconds, descendants, rss_kb

REPLY_BUCKETS = (0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0)  # the targets: 1.5 s, 15 s
WAIT_BUCKETS = (0.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0)
PACES = {"authentic": "1960", "fast": "fast"}  # a game's speed, as the pace label names it


@dataclass
class Figures:
    """The server's figures at a scrape: its games, what went wrong, and whether it is healthy."""

    running: int
    waiting: int
    played: int
    mismatches: int
    restarts: int
    errors: int
    healthy: bool
    database_up: bool | None = None  # None: the front end keeps no database (the kiosk)


def emulators() -> tuple[int, float, int]:
    """This server's pdp1 processes now: how many, the CPU seconds they and every pdp1 before them used
    (the reaped children's, counted by the kernel, and the running ones'), and the memory they hold, bytes."""
    running = [pid for pid in descendants() if _command(pid) == "pdp1"]
    times = os.times()
    used = times.children_user + times.children_system
    memory = 0
    for pid in running:
        try:
            used += cpu_seconds(pid)
        except OSError:  # gone meanwhile: reaped, it is in the children's times from now on
            continue
        memory += rss_kb(pid) * 1024
    return len(running), used, memory


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


class _Scraped(Collector):
    """The figures read at each scrape."""

    def __init__(self, figures: Callable[[], Figures]) -> None:
        self.figures = figures

    def collect(self) -> Iterator:
        f = self.figures()
        yield GaugeMetricFamily("kalah_games_running", "Games on a PDP-1 now.", value=f.running)
        yield GaugeMetricFamily("kalah_games_waiting", "Games waiting in line for a PDP-1.", value=f.waiting)
        yield CounterMetricFamily("kalah_games_played", "Games played to their end.", value=f.played)
        yield CounterMetricFamily("kalah_mismatches", "Moves the PDP-1 chose that the reference did not.",
                                  value=f.mismatches)
        yield CounterMetricFamily("kalah_emulator_restarts", "Emulators replaced (dead or hung), games restored.",
                                  value=f.restarts)
        yield CounterMetricFamily("kalah_errors", "Games ended by an error of the emulator or the server.",
                                  value=f.errors)
        yield GaugeMetricFamily("kalah_healthy", "1 while /health says ok, else 0.", value=int(f.healthy))
        if f.database_up is not None:
            yield GaugeMetricFamily("kalah_database_up", "1 while the games' database answers, else 0.",
                                    value=int(f.database_up))
        count, cpu, memory = emulators()
        yield GaugeMetricFamily("kalah_emulators", "pdp1 processes running now.", value=count)
        yield CounterMetricFamily("kalah_emulator_cpu_seconds", "CPU the emulators used, running or ended.",
                                  value=cpu)
        yield GaugeMetricFamily("kalah_emulator_memory_bytes", "Resident memory of the running emulators.",
                                value=memory)


class ExhibitMetrics:
    """One server's metrics: the figures it reads at a scrape, the replies and waits it observes."""

    def __init__(self, figures: Callable[[], Figures]) -> None:
        self.registry = CollectorRegistry()
        self.replies = Histogram("kalah_reply_seconds", "From a visitor's move to the PDP-1's next question.",
                                 ["pace"], buckets=REPLY_BUCKETS, registry=self.registry)
        for pace in PACES.values():  # every pace's series, at zero until its first reply
            self.replies.labels(pace=pace)
        self.waits = Histogram("kalah_queue_wait_seconds", "From joining the line to a PDP-1 of one's own.",
                               buckets=WAIT_BUCKETS, registry=self.registry)
        self.registry.register(_Scraped(figures))
        ProcessCollector(registry=self.registry)

    def replied(self, seconds: float, speed: str) -> None:
        self.replies.labels(pace=PACES.get(speed, speed)).observe(seconds)

    def waited(self, seconds: float) -> None:
        self.waits.observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)

    async def handler(self, request: web.Request) -> web.Response:
        """``GET /metrics``: the text format, never cached."""
        return web.Response(body=self.text(), headers={"Content-Type": CONTENT_TYPE_LATEST,
                                                       "Cache-Control": "no-store"})
