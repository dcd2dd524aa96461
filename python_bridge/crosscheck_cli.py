"""``python -m python_bridge crosscheck``: the PDP-1 plays N games against a reference player, every move checked.

Each game's settings (pits, seeds, variants, who starts, the player's seed)
are drawn from the seed alone, so the same seed gives the same games
whatever the number of jobs; games are dealt out to the emulators by index.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from dataclasses import dataclass

from .cli_support import UsageError, add_variant_flags, build_parser, run_guarded, variants_from
from .crosscheck import CrossCheckMismatch
from .front_panel import PanelSettings
from .kalah_machine import KalahMachine
from .kalah_rules import Variants
from .parallel import deal, resolve_jobs
from .play_session import PlaySession, RandomVisitor, SearchVisitor
from .simh import SimhError

ALL_VARIANTS = [Variants(*flags) for flags in itertools.product((False, True), repeat=4)]


@dataclass(frozen=True)
class GameSpec:
    index: int
    panel: PanelSettings
    player: str  # "random" or "search"
    player_depth: int
    player_seed: int

    def visitor(self):
        if self.player == "search":
            return SearchVisitor(self.player_depth)
        return RandomVisitor(random.Random(self.player_seed))


def game_specs(seed: int, games: int, variants: list[Variants], player: str, player_depth: int,
               level: int, pits: int | None, seeds: int | None) -> list[GameSpec]:
    rng = random.Random(seed)
    specs = []
    for index in range(games):
        panel = PanelSettings(
            pits=pits or rng.randint(3, 6),
            seeds=seeds or rng.randint(2, 6),
            depth=level,
            variants=variants[index % len(variants)],
            pdp1_first=bool(rng.getrandbits(1)),
        )
        specs.append(GameSpec(index, panel, player, player_depth, rng.getrandbits(32)))
    return specs


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    mismatches: int = 0
    errors: int = 0


def run_specs(specs: list[GameSpec]) -> tuple[Tally, list[str]]:
    tally = Tally()
    reports: list[str] = []
    for spec in specs:
        try:
            with KalahMachine(spec.panel) as machine:
                outcome = PlaySession(machine, spec.visitor()).play_game()
            tally.games += 1
            tally.moves += outcome.moves_checked
        except CrossCheckMismatch as mismatch:
            tally.mismatches += 1
            reports.append(f"game {spec.index}: {mismatch}")
        except SimhError as failure:
            tally.errors += 1
            reports.append(f"game {spec.index}: emulator failure: {failure}")
    return tally, reports


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
        began = time.perf_counter()
        tally, reports = Tally(), []
        for part, part_reports in deal(specs, jobs, run_specs):
            tally.games += part.games
            tally.moves += part.moves
            tally.mismatches += part.mismatches
            tally.errors += part.errors
            reports += part_reports
        seconds = time.perf_counter() - began
        for report in reports:
            print(report)
        print(f"games {tally.games}  moves checked {tally.moves}  mismatches {tally.mismatches}  "
              f"errors {tally.errors}  jobs {jobs}  seconds {seconds:.1f}  moves/s {tally.moves / seconds:.0f}")
        return 1 if tally.mismatches or tally.errors else 0

    return run_guarded(body, (UsageError,))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
