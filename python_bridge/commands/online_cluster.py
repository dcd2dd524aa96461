"""``python -m python_bridge online-cluster``: the online exhibit past one host, tried on one machine
(argument parsing only; the cluster is ``online.cluster``): a scratch PostgreSQL cluster, N servers
sharing it, HAProxy in front.  Ctrl-C or SIGTERM stops everything it started, however often it comes."""

from __future__ import annotations

import argparse
import signal
import sys
import time

from ..online.cluster import DEFAULT_PORT, Cluster, ClusterError
from ..online.scratch_postgres import ScratchError
from ..online.settings import GAMES_PER_CORE, PACES, RANGES
from .validators import EXIT_FAILURE, UsageError, bounded_int, fail, new_parser, run_guarded

SERVERS = bounded_int(1, 16)
PORT = bounded_int(*(int(n) for n in RANGES["port"]))
MAX_GAMES = bounded_int(*(int(n) for n in RANGES["max_games"]))
HEAR_EVERY_S = 0.1  # how soon a stop asked for is acted on
LOOK_EVERY_S = 1.0  # how often the servers' processes are looked at (their pdp1s noted, to be sure none is left)


class StopAsked:
    """The handler of SIGTERM and SIGINT: it notes the signal, and the main loop stops the cluster.

    Why a plain attribute, and no ``threading.Event``: a handler runs in the main thread between any two of
    its steps, even while that thread holds a lock.  ``make`` passes its SIGTERM on to the command, which had
    the process group's already: a second handler that came while the first was inside the Event's lock (or
    while ``Event.wait`` held it) waited for it forever, and nothing was stopped."""

    def __init__(self) -> None:
        self.by: int | None = None

    def __call__(self, signum: int, _frame: object) -> None:
        self.by = signum


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge online-cluster",
                        "Try the online exhibit past one host on this machine: PostgreSQL, N servers, HAProxy.")
    parser.add_argument("--servers", type=SERVERS, default=3, help="online servers, 1-16 (default 3)")
    parser.add_argument("--port", type=PORT, default=DEFAULT_PORT, help=f"HAProxy's port (default {DEFAULT_PORT})")
    parser.add_argument("--pace", choices=PACES, default="1960", help="1960 (the shipped pace, the default) or fast")
    parser.add_argument("--max-games", type=MAX_GAMES,
                        help=f"machines at once on each server (default: {GAMES_PER_CORE} a core)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    stop = StopAsked()

    def body() -> int:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, stop)
        cluster = Cluster(args.servers, args.port, pace=args.pace, max_games=args.max_games)
        try:
            cluster.start()
        except (ClusterError, ScratchError) as failure:
            return fail(str(failure), EXIT_FAILURE)
        try:
            print(f"online-cluster: {cluster.url}/ (HAProxy, pid {cluster.haproxy.pid if cluster.haproxy else '?'}); "
                  f"PostgreSQL on port {cluster.postgres.port}, pid {cluster.postgres.postmaster_pid()}")
            for server in cluster.servers:
                print(f"  server {server.label}: {server.name}, pid {server.pid}, {server.url}/")
            print("Ctrl-C stops them all.", flush=True)
            looked = 0.0
            while stop.by is None:
                if time.monotonic() - looked >= LOOK_EVERY_S:
                    looked = time.monotonic()
                    for server in cluster.servers:
                        server.look_below()
                time.sleep(HEAR_EVERY_S)
        finally:
            cluster.stop()
            print("online-cluster: stopped", file=sys.stderr)
        return 0

    return run_guarded(body, (UsageError,), needs_tape=True)
