"""``python -m python_bridge first-visit``: the kiosk's strengths against a first-time visitor's model
(argument parsing only; the games are in bench.first_visit)."""

from __future__ import annotations

import argparse

from .validators import UsageError, bounded_int, new_parser, run_guarded


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge first-visit",
                        "Which strength is a fair match for a first-time visitor: a novice's games against the "
                        "kiosk's gentle, fair and full strengths, quick and classic, on the reference engine.")
    parser.add_argument("--games", type=bounded_int(1, 10_000), default=100,
                        help="games at each size and strength (1-10000; 100)")
    parser.add_argument("--seed", type=bounded_int(0, 2**31 - 1), default=1, help="the novice's random choices")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        from ..bench.first_visit import measure, report

        print(report(measure(args.games, args.seed), args.seed), flush=True)
        return 0

    return run_guarded(body, (UsageError,))
