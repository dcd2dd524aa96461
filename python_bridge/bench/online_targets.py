"""``make bench-online``'s target rows: what one host must serve, each row measured on a server of its own.

Why these three: a fast game at full strength is where the reference's cross-check of every PDP-1 move
costs the most (the visitors thinking 2 to 8 s, and a crowd thinking 1 to 3 s that asks more often); the
1960 pace at the shipped strength is what a museum runs, where the host must keep the period's pace for
every game at once.  Each row starts a fresh server with the shipped settings but the pace (and
``max_games``, when given), lets its visitors arrive together and play one whole game each, and prints
``online_load``'s columns, the target and whether it was met: every visitor playing at once (``max_games`` at
least the visitors), reply p95 within the target, the 1960 pace kept within 10 % where paced, every game
finished and checked.  The figures are printed, never asserted.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

from .online_load import HEADER, Step, one_server, visitors_step


@dataclass(frozen=True)
class Target:
    """One row: the pace and the visitors' strength (None: the shipped one), how many visitors arrive
    together, how long each thinks a move (uniform, seconds), and the reply p95 to meet (seconds)."""

    pace: str
    strength: str | None
    visitors: int
    think: tuple[float, float]
    p95_s: float

    def label(self) -> str:
        return (f"{self.pace:>4} {self.strength or 'shipped':>7} {self.visitors:4d} visitors thinking "
                f"{self.think[0]:g}-{self.think[1]:g} s")


TARGETS = (
    Target("fast", "full", 100, (2.0, 8.0), 1.5),
    Target("fast", "full", 40, (1.0, 3.0), 1.5),
    Target("1960", None, 200, (2.0, 8.0), 15.0),
)


def measure(target: Target, seed: int, max_games: int | None) -> tuple[Step, int]:
    """The target's row measured on a server of its own: the step and the server's ``max_games``."""
    with one_server(target.pace, max_games) as (site, games):
        return asyncio.run(visitors_step(site, target.visitors, seed, target.strength, target.think)), games


def run_targets(seed: int, max_games: int | None, targets: tuple[Target, ...] = TARGETS) -> int:
    """Each target measured and printed as a row, then how many were met; the exit status (0: measured,
    whether met or not -- a benchmark reports, it does not judge the host)."""
    print(f"bench-online targets: {len(os.sched_getaffinity(0))} cores, seed {seed}, the shipped settings but "
          f"the pace{f', max_games {max_games}' if max_games else ''}; each row a server of its own", flush=True)
    met = 0
    for target in targets:
        step, games = measure(target, seed, max_games)
        together = games >= target.visitors  # "at once": a visitor waiting in line for a machine is not playing
        ok = step.meets(target.p95_s) and together
        met += ok
        print(f"{target.label()}, max_games {games}: target reply p95 <= {target.p95_s:g} s"
              f"{', pace within 10 %' if target.pace == '1960' else ''}, all playing at once: "
              f"{'met' if ok else 'NOT MET'}{'' if together else f' (only {games} at once)'}", flush=True)
        print("  " + HEADER, flush=True)
        print("  " + step.row(), flush=True)
    print(f"targets met: {met} of {len(targets)}", flush=True)
    return 0
