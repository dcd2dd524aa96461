"""``python -m python_bridge crosscheck``: the PDP-1 plays N games against a reference player, every move checked
(argument parsing only; the games are in checking.games)."""

from __future__ import annotations

import sys

from ..checking.games import ALL_VARIANTS, game_specs, run_crosscheck
from .validators import UsageError, add_variant_flags, build_parser, resolve_jobs, run_guarded, variants_from


def main(argv: list[str]) -> int:
    parser = build_parser("python -m python_bridge crosscheck",
                          "The PDP-1 plays games against a reference player; every move is cross-checked.")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="emulators in parallel (default: one per core)")
    parser.add_argument("--player", choices=("random", "search"), default="random", help="the PDP-1's opponent")
    parser.add_argument("--player-depth", type=int, default=3, help="depth of the search player (3)")
    parser.add_argument("--level", type=int, default=3, choices=range(0, 21), metavar="0-20",
                        help="the PDP-1's level (3; 0 = the default level)")
    parser.add_argument("--pits", type=int, choices=range(1, 7), metavar="1-6", help="fixed pits a side")
    parser.add_argument("--seeds", type=int, choices=range(1, 7), metavar="1-6", help="fixed seeds a pit")
    parser.add_argument("--all-variants", action="store_true", help="cycle the games through all 16 variant sets")
    add_variant_flags(parser)
    args = parser.parse_args(argv)

    def body() -> int:
        if args.games < 1:
            raise UsageError("--games must be at least 1")
        jobs = resolve_jobs(args.jobs)
        variants = ALL_VARIANTS if args.all_variants else [variants_from(args)]
        specs = game_specs(args.seed, args.games, variants, args.player, args.player_depth,
                           args.level, args.pits, args.seeds)
        tally, reports, seconds = run_crosscheck(specs, jobs)
        for report in reports:
            print(report)
        print(f"games {tally.games}  moves checked {tally.moves}  mismatches {tally.mismatches}  "
              f"errors {tally.errors}  jobs {jobs}  seconds {seconds:.1f}  moves/s {tally.moves / seconds:.0f}")
        return 1 if tally.mismatches or tally.errors else 0

    return run_guarded(body, (UsageError,))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
