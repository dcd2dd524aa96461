"""``make bench-online ARGS="--servers N"``: the online exhibit past one host, measured on this machine.

The same simulated visitors and the same table as ``bench.online_load``, run twice in one run so that
the two are compared on the same host and load: first one server on SQLite (the embedded default), then
N servers sharing a scratch PostgreSQL behind HAProxy (``online.cluster``, the machinery of ``make
online-cluster``), the visitors coming through HAProxy.  Past one server each row is followed by the
servers' shares of the games and what HAProxy and PostgreSQL cost, as shares of the host, from /proc.
"""

from __future__ import annotations

from ..exhibit.web_guard import free_port
from ..online.cluster import Cluster
from .online_load import THINK_S, Measured, _health, ramp, run_bench


def run_cluster_bench(steps: list[int], pace: str, strength: str | None, seed: int, max_games: int | None,
                      think: tuple[float, float] = THINK_S, servers: int = 3) -> int:
    """One server on SQLite, then ``servers`` on PostgreSQL behind HAProxy; the exit status."""
    status = run_bench(steps, pace, strength, seed, max_games, think)
    if status:
        return status
    print(flush=True)
    with Cluster(servers, free_port(), pace=pace, max_games=max_games,
                 extra_settings="max_waiting = 100000\nper_ip_games = 1000\n") as cluster:
        parts = {"haproxy": cluster.haproxy.pid if cluster.haproxy else 0,
                 "postgresql": cluster.postgres.postmaster_pid() or 0}
        site = Measured(cluster.url, [(s.url, s.pid) for s in cluster.servers], parts)
        ramp(site, steps, pace, strength, seed, think, _health(cluster.servers[0].url)["max_games"],
             title=f"bench-online, {servers} servers on PostgreSQL behind HAProxy")
    return 0
