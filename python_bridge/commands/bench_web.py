"""``python -m python_bridge bench-web``: the browser edition's figures (argument parsing and printing only; the
measuring is ``bench.web_visit``, in Chromium, and ``bench.records_intake``, the server's part)."""

from __future__ import annotations

import signal

from ..bench.online_load import ServerDidNotStart
from ..bench.records_intake import measure_intake
from .validators import EXIT_FAILURE, EXIT_OK, UsageError, add_seed, bounded_int, fail, new_parser, run_guarded

ROWS = ("all", "browser", "server")


def build_parser():
    parser = new_parser("python -m python_bridge bench-web",
                        "The browser edition's figures: in Chromium, the first question (empty cache and cached), "
                        "the bytes fetched, the browser's CPU while the visitor thinks, the replies and the 1960 "
                        "pace; and a server of the browser edition receiving finished games' records, on one core.")
    parser.add_argument("--rows", choices=ROWS, default="all", help="which figures: all (the default), browser or "
                                                                    "server")
    parser.add_argument("--games", type=bounded_int(1, 100_000), default=1000,
                        help="finished games whose records the server receives, one after another (default 1000)")
    add_seed(parser, 1, "the seed of the visitors' moves in the records' games")
    return parser


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)  # through every ``with``: no server or browser left behind

    def body() -> int:
        if args.rows in ("all", "browser"):
            from ..bench.kiosk_visit import browser_ready
            from ..bench.web_visit import measure_browser

            browser_ready("bench-web")
            try:
                figures = measure_browser()
            except FileNotFoundError as missing:
                return fail(f"bench-web: {missing}", EXIT_FAILURE)
            print("\n".join(f"browser edition: {row}" for row in figures.rows()))
        if args.rows in ("all", "server"):
            try:
                intake = measure_intake(args.games, args.seed)
            except ServerDidNotStart as exc:
                return fail(f"bench-web: {exc}", EXIT_FAILURE)
            print(f"server, browser edition: {intake.row()}")
        return EXIT_OK

    return run_guarded(body, (UsageError,))
