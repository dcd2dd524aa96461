"""Cross-check games: the PDP-1 against a reference player, each game drawn from the seed alone.

Each game's settings (pits, seeds, variants, who starts, the player's seed)
are drawn from the seed alone, so the same seed gives the same games
whatever the number of jobs; games are dealt out to the emulators by index.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.driver import play_games
from ..driver.visitors import RandomVisitor, SearchVisitor
from ..machine.front_panel import PanelSettings
from ..machine.simh import SimhError
from ..reference.rules import Variants
from .parallel import deal

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
            (outcome,) = play_games(spec.panel, spec.visitor(), 1, max_restarts=0)  # a failure is counted, not mended
            tally.games += 1
            tally.moves += outcome.moves_checked
        except CrossCheckMismatch as mismatch:
            tally.mismatches += 1
            reports.append(f"game {spec.index}: {mismatch}")
        except SimhError as failure:
            tally.errors += 1
            reports.append(f"game {spec.index}: emulator failure: {failure}")
    return tally, reports


def run_crosscheck(specs: list[GameSpec], jobs: int) -> tuple[Tally, list[str], float]:
    """Play every game over ``jobs`` emulators: the tally, the mismatch and failure reports, seconds."""
    began = time.perf_counter()
    tally, reports = Tally(), []
    for part, part_reports in deal(specs, jobs, run_specs):
        tally.games += part.games
        tally.moves += part.moves
        tally.mismatches += part.mismatches
        tally.errors += part.errors
        reports += part_reports
    return tally, reports, time.perf_counter() - began
