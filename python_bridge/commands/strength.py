"""``python -m python_bridge strength``: the default level against OpenSpiel's bots (argument parsing only;
the games are in bench.strength)."""

from __future__ import annotations

import argparse
import sys

from tools.cli_args import BoundedInt, shown

from ..bench.strength import OPPONENTS, OpenSpielMissing, RulesDiverged, require_open_spiel, run
from .validators import (
    EXIT_FAILURE,
    EXIT_OK,
    JOBS,
    UsageError,
    add_seed,
    new_parser,
    resolve_jobs,
    run_guarded,
    warn_if_long,
)

# About the seconds of one core a game takes (measured on this 2-core machine, docs/figures.md: 20 games of
# each opponent with 2 jobs in 300 s, 265 s of them MCTS 10k's): for the note before a long run.
SECONDS_A_GAME = {"ab4": 0.3, "ab6": 0.5, "ab8": 1, "mcts1k": 2.5, "mcts10k": 27}


class EvenCount(BoundedInt):
    """``type=`` for an even whole number ``lo..hi``: every opening is played once with each colour."""

    even = True

    def parse(self, text: str) -> int:
        value = super().parse(text)
        if value % 2:
            raise ValueError(f"{value:,} is odd: each opening is played twice, once with each colour "
                             f"(an even number, {self.describe()})")
        return value


GAMES = EvenCount(2, 1000)


def opponent_list(text: str) -> list[str]:
    """``--opponents``: a comma list of distinct names from ``OPPONENTS``, in the order given."""
    names = text.split(",")
    for name in names:
        if name not in OPPONENTS:
            raise argparse.ArgumentTypeError(f"{shown(name)} is not an opponent; they are {','.join(OPPONENTS)}")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"{shown(text)} names an opponent twice")
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge strength",
                        "Play the default level against OpenSpiel's alpha-beta and MCTS bots (make bench-strength).")
    parser.add_argument("--games", type=GAMES, default=20,
                        help="games against each opponent, even: each opening once with each colour (default 20)")
    add_seed(parser, 1, "the seed that picks the openings and the MCTS bots' random numbers")
    parser.add_argument("--opponents", type=opponent_list, default=list(OPPONENTS),
                        help=f"comma list of opponents from {','.join(OPPONENTS)} (default all): OpenSpiel's "
                             f"alpha-beta to depth 4, 6 or 8, and MCTS with 1,000 or 10,000 simulations")
    parser.add_argument("--jobs", type=JOBS, default=0,
                        help="games played at once in processes of their own (default 0: one per core; "
                             "never more than there are games)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        total = args.games * len(args.opponents)
        jobs = resolve_jobs(args.jobs, total)
        seconds = sum(SECONDS_A_GAME[name] for name in args.opponents) * args.games / jobs
        require_open_spiel()  # refused before a run is announced that cannot start
        warn_if_long(total, total / seconds, "games", "at the seconds a game measured against each opponent")
        try:
            run(args.opponents, args.games, args.seed, jobs)
        except RulesDiverged as diverged:
            print(f"error: {diverged}", file=sys.stderr)
            return EXIT_FAILURE
        return EXIT_OK

    return run_guarded(body, (UsageError, OpenSpielMissing))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
