"""``python -m python_bridge crosscheck``: the PDP-1 plays N games against a reference player, every move checked
(argument parsing only; the games are in checking.games)."""

from __future__ import annotations

import argparse
import sys

from ..checking.games import ALL_VARIANTS, game_specs, run_crosscheck
from .validators import (
    DEPTH,
    EXIT_FAILURE,
    EXIT_OK,
    LEVEL,
    PITS,
    SEEDS,
    UsageError,
    add_jobs,
    add_seed,
    add_variant_flags,
    bounded_int,
    given_options,
    new_parser,
    refuse_with,
    resolve_jobs,
    run_guarded,
    variants_from,
    warn_if_long,
)

# 100,000 games is an afternoon, not a lifetime.
GAMES = bounded_int(1, 100_000)
GAMES_PER_SECOND = 10     # docs/figures.md, bench: about 700 moves a second, a few dozen moves a game


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge crosscheck",
                        "The PDP-1 plays games against a reference player; every move is cross-checked.")
    parser.add_argument("--games", type=GAMES, default=10, help="games to play (default 10)")
    add_seed(parser, 1, "the seed that fixes every game")
    add_jobs(parser)
    parser.add_argument("--player", choices=("random", "search"), default="random",
                        help="the PDP-1's opponent (random)")
    parser.add_argument("--player-depth", type=DEPTH, default=3, help="depth of the search player (default 3)")
    parser.add_argument("--level", type=LEVEL, default=3, help="the PDP-1's level (default 3; 0: its default level)")
    parser.add_argument("--pits", type=PITS, help="fixed pits a side (default: 3 to 6 at random)")
    parser.add_argument("--seeds", type=SEEDS, help="fixed seeds a pit (default: 2 to 6 at random)")
    parser.add_argument("--all-variants", action="store_true", help="cycle the games through all 16 variant sets")
    add_variant_flags(parser)
    return parser


VARIANT_OPTIONS = ("--empty-capture", "--deferred-end", "--remainder-void", "--pie-rule")


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    given = given_options(parser, argv)
    if args.player != "search":
        refuse_with(parser, given, ("--player-depth",), "the random player does not search (--player search does)")
    if args.all_variants:
        refuse_with(parser, given, VARIANT_OPTIONS, "--all-variants plays every set of rules in turn")

    def body() -> int:
        jobs = resolve_jobs(args.jobs, args.games)
        warn_if_long(args.games, GAMES_PER_SECOND, "games")
        variants = ALL_VARIANTS if args.all_variants else [variants_from(args)]
        specs = game_specs(args.seed, args.games, variants, args.player, args.player_depth,
                           args.level, args.pits, args.seeds)
        tally, reports, seconds = run_crosscheck(specs, jobs)
        for report in reports:
            print(report)
        print(f"games {tally.games}  moves checked {tally.moves}  mismatches {tally.mismatches}  "
              f"errors {tally.errors}  jobs {jobs}  seconds {seconds:.1f}  moves/s {tally.moves / seconds:.0f}")
        return EXIT_FAILURE if tally.mismatches or tally.errors else EXIT_OK

    return run_guarded(body, (UsageError,), needs_tape=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
