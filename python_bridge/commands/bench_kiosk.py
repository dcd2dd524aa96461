"""``python -m python_bridge bench-kiosk``: a visitor's waits at the kiosk's shipped settings, in Debian's
Chromium against the real emulator (argument parsing only; the bench is in bench.kiosk_visit)."""

from __future__ import annotations

import argparse

from .validators import UsageError, bounded_int, new_parser, run_guarded

SPEEDS = ("authentic", "fast")
SIZES = ("quick", "classic")


def _choices(allowed: tuple[str, ...]):
    def parse(text: str) -> list[str]:
        chosen = [part.strip() for part in text.split(",") if part.strip()]
        wrong = [part for part in chosen if part not in allowed]
        if wrong or not chosen:
            raise argparse.ArgumentTypeError(f"{text!r}: a comma-separated list of {', '.join(allowed)}")
        return list(dict.fromkeys(chosen))
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench-kiosk",
                        "A visitor's waits at the kiosk's shipped settings: PDP-1 replies and whole games in "
                        "Debian's Chromium, with a busy neighbour; figures printed against the exhibit's targets.")
    parser.add_argument("--speeds", type=_choices(SPEEDS), default=list(SPEEDS),
                        help="authentic, fast or both (both, the default)")
    parser.add_argument("--sizes", type=_choices(SIZES), default=list(SIZES),
                        help="quick, classic or both (both, the default)")
    parser.add_argument("--games", type=bounded_int(1, 50), default=1, help="games of each size at each speed (1-50)")
    parser.add_argument("--seed", type=bounded_int(0, 2**31 - 1), default=1, help="the visitor's random touches")
    parser.add_argument("--no-neighbour", action="store_true", help="no process spinning a core beside the kiosk")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        from ..bench.kiosk_visit import run_bench

        run_bench(args.speeds, args.sizes, args.games, not args.no_neighbour, args.seed)
        return 0

    return run_guarded(body, (UsageError,), needs_tape=True)
