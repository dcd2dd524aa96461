"""``python -m python_bridge bench-web``: the browser edition's figures (argument parsing and printing only; the
measuring is ``bench.records_intake``).  Today its one row is the server's: finished games' records received
and checked, on one core."""

from __future__ import annotations

import signal

from ..bench.online_load import ServerDidNotStart
from ..bench.records_intake import measure_intake
from .validators import EXIT_FAILURE, EXIT_OK, UsageError, add_seed, bounded_int, fail, new_parser, run_guarded


def build_parser():
    parser = new_parser("python -m python_bridge bench-web",
                        "The browser edition's figures: a server of the browser edition receiving finished games' "
                        "records, each checked by the reference, on one core.")
    parser.add_argument("--games", type=bounded_int(1, 100_000), default=1000,
                        help="finished games whose records are sent, one after another (default 1000)")
    add_seed(parser, 1, "the seed of the visitors' moves in the records' games")
    return parser


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)  # through every ``with``: no server left behind

    def body() -> int:
        try:
            intake = measure_intake(args.games, args.seed)
        except ServerDidNotStart as exc:
            return fail(f"bench-web: {exc}", EXIT_FAILURE)
        print(f"server, browser edition: {intake.row()}")
        return EXIT_OK

    return run_guarded(body, (UsageError,))
