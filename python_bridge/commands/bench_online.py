"""``python -m python_bridge bench-online``: the online exhibit's load benchmark (argument parsing only;
the measuring is ``bench.online_load``)."""

from __future__ import annotations

import argparse
import signal
from typing import Callable

from ..bench.online_load import STRENGTHS, ServerDidNotStart, run_bench
from ..online.cluster import ClusterError
from ..online.scratch_postgres import ScratchError
from ..online.settings import GAMES_PER_CORE, PACES, RANGES
from .validators import EXIT_FAILURE, UsageError, add_seed, bounded_int, fail, new_parser, run_guarded

VISITORS = bounded_int(1, 1000)
MAX_GAMES = bounded_int(*(int(n) for n in RANGES["max_games"]))
SERVERS = bounded_int(1, 16)
KILLS = bounded_int(1, 100)
MAX_STEPS = 10
MAX_THINK_S = 60.0


def steps(text: str) -> list[int]:
    """An argparse ``type``: visitors at each step, ascending, comma-separated (``10,25,50``)."""
    try:
        values = [VISITORS(part) for part in text.split(",")]
    except argparse.ArgumentTypeError as bad:
        raise argparse.ArgumentTypeError(f"each step {bad}") from None
    if not 1 <= len(values) <= MAX_STEPS or values != sorted(set(values)):
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_STEPS} ascending numbers of visitors, such as 10,25,50")
    return values


def think(text: str) -> tuple[float, float]:
    """An argparse ``type``: the visitors' thinking, ``MIN-MAX`` seconds a move (0 to 60)."""
    low, _, high = text.partition("-")
    try:
        values = (float(low), float(high))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be MIN-MAX seconds, such as 2-8, not {text[:40]!r}") from None
    if not 0 <= values[0] <= values[1] <= MAX_THINK_S:
        raise argparse.ArgumentTypeError(f"must be MIN-MAX seconds from 0 to {MAX_THINK_S:g}, MIN not above MAX")
    return values


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench-online",
                        "Load the online exhibit with simulated visitors and print what one host serves.")
    parser.add_argument("--steps", type=steps, default=[10, 25, 50, 100, 200], metavar="N,N,...",
                        help="visitors at each step of the ramp, 1-1,000 each (default 10,25,50,100,200)")
    parser.add_argument("--pace", choices=PACES, default="1960", help="1960 (the shipped pace, the default) or fast")
    parser.add_argument("--strength", choices=STRENGTHS, help="the visitors' choice (default: the shipped one)")
    parser.add_argument("--max-games", type=MAX_GAMES,
                        help=f"machines at once (default: the shipped, {GAMES_PER_CORE} a core)")
    parser.add_argument("--think", type=think, default=(2.0, 8.0), metavar="MIN-MAX",
                        help="seconds a visitor thinks a move, 0-60 (default 2-8)")
    parser.add_argument("--servers", type=SERVERS, default=0, metavar="N",
                        help="1-16: after one server on SQLite, N on PostgreSQL behind HAProxy, compared "
                             "(default: one server only)")
    parser.add_argument("--kills", type=KILLS, default=0, metavar="K",
                        help="1-100, with --servers 2 or more: instead of the ramp, kill a visitor's server K times "
                             "and time each to the next question on the page")
    parser.add_argument("--targets", action="store_true",
                        help="instead of the ramp, the three target rows (make bench-online's default): 100 visitors "
                             "thinking 2-8 s and 40 thinking 1-3 s at the fast pace and full strength, 200 at the "
                             "1960 pace and the shipped strength; each met or not")
    add_seed(parser, 1, "the seed of every visitor's thinking and moves")
    return parser


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # SIGTERM ends the run as Ctrl-C does: through every ``with``, so that no server, pdp1, HAProxy or
    # PostgreSQL it started is left behind
    signal.signal(signal.SIGTERM, _stop)
    if args.targets and (args.servers or args.kills):
        parser.error("--targets measures one server: not with --servers or --kills")
    if args.kills and args.servers < 2:
        parser.error("--kills needs --servers 2 or more: somewhere for the visitor to go")
    if args.kills:
        from ..bench.failover import run_failover

        return run_guarded(lambda: run_failover(args.servers, args.kills, args.seed),
                           (UsageError, ClusterError, ScratchError), needs_tape=True)
    if args.servers:
        from ..bench.online_cluster_load import run_cluster_bench  # psycopg: only past one host

        return run_guarded(lambda: run_cluster_bench(args.steps, args.pace, args.strength, args.seed, args.max_games,
                                                     args.think, args.servers),
                           (UsageError, ClusterError, ScratchError), needs_tape=True)
    if args.targets:
        from ..bench.online_targets import run_targets

        return run_guarded(lambda: _measured(lambda: run_targets(args.seed, args.max_games)), (UsageError,),
                           needs_tape=True)
    return run_guarded(lambda: _measured(lambda: run_bench(args.steps, args.pace, args.strength, args.seed,
                                                           args.max_games, args.think)),
                       (UsageError,), needs_tape=True)


def _measured(body: Callable[[], int]) -> int:
    """The benchmark's body; a server that never started is one line and exit status 1 (a failure of the host,
    not of the command line)."""
    try:
        return body()
    except ServerDidNotStart as exc:
        return fail(f"bench-online: {exc}", EXIT_FAILURE)
