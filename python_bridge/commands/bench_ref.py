"""``python -m python_bridge bench-ref``: the reference's speed, version 0.2.0's readable search and the fast one, then
the readable proof and the fast one, side by side (argument parsing and printing only; the timing is
``bench.reference_speed``)."""

from __future__ import annotations

import argparse

from ..bench.reference_speed import (
    DEFAULT_DEPTHS,
    DEFAULT_PROOFS,
    PITS,
    PROOF_GAMES,
    SEEDS,
    Timing,
    cases,
    measure,
    midgame_positions,
    proof_bounds,
    proof_case,
)
from ..reference.rules import start_position
from ..reference.search import MAX_DEPTH, MIN_DEPTH
from .validators import EXIT_FAILURE, EXIT_OK, add_seed, bounded_int, new_parser

DEPTH = bounded_int(MIN_DEPTH, MAX_DEPTH)
HEADER = f"{'case':<12} {'nodes':>9} {'readable':>10} {'fast':>9} {'ratio':>7}"
GAMES = [f"{pits},{seeds}" for pits, seeds in PROOF_GAMES]


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench-ref",
                        "The reference's speed: version 0.2.0's readable search against the fast one, on seeded "
                        "midgame positions, at the default level and fixed depths; then the readable proof "
                        "against the fast one, on starts at the bounds either side of their value.")
    parser.add_argument("--positions", type=bounded_int(1, 500), default=20,
                        help=f"midgame positions of {PITS} pits and {SEEDS} seeds searched (default 20)")
    add_seed(parser, 1960, "the seed of their games")
    parser.add_argument("--depth", type=DEPTH, action="append",
                        help=f"a fixed depth timed after the default level, {MIN_DEPTH}-{MAX_DEPTH} (repeatable; "
                             f"default {' and '.join(map(str, DEFAULT_DEPTHS))}; past 10 the readable search "
                             "takes minutes a position)")
    parser.add_argument("--start", choices=GAMES, action="append",
                        help="a start of Kalah(pits, seeds) proved, as pits,seeds (repeatable; default "
                             f"{' '.join(f'{p},{s}' for p, s in DEFAULT_PROOFS)}: the readable proof takes "
                             "about 15 s a run for them)")
    parser.add_argument("--repeats", type=bounded_int(1, 100), default=3,
                        help="runs of each search over the positions, the fastest counts (default 3)")
    return parser


def row(name: str, nodes: int, readable: float, fast: float) -> str:
    ratio = readable / fast if fast > 0 else float("inf")
    return f"{name:<12} {nodes:>9} {readable:>10.4f} {fast:>9.4f} {ratio:>6.1f}x"


def table(timings: list[Timing]) -> str:
    """The rows of ``timings`` and the row of them all."""
    lines = [row(t.case, t.nodes, t.readable, t.fast) for t in timings]
    lines.append(row("all", sum(t.nodes for t in timings), sum(t.readable for t in timings),
                     sum(t.fast for t in timings)))
    return "\n".join(lines)


def searches(args: argparse.Namespace) -> bool:
    """The search's table; whether every answer matched."""
    depths = tuple(args.depth) if args.depth else DEFAULT_DEPTHS
    positions = midgame_positions(args.positions, args.seed)
    print(f"reference search, 0.2.0's readable against the fast: {len(positions)} midgame positions of {PITS} pits "
          f"and {SEEDS} seeds (seed {args.seed}), standard rules")
    print(f"CPU seconds for all the positions, the fastest of {args.repeats} runs")
    print(HEADER)
    timings = [measure(case, positions, args.repeats) for case in cases(depths)]
    print(table(timings), flush=True)
    if all(t.same for t in timings):
        print(f"same pit, value and node count in all {len(positions) * len(timings)} searches")
        return True
    print("DIFFERENT answers in: " + ", ".join(t.case for t in timings if not t.same))
    return False


def proofs(args: argparse.Namespace) -> bool:
    """The proof's table, and the fast proof's positions a second; whether every answer matched."""
    games = [tuple(map(int, game.split(","))) for game in args.start] if args.start else list(DEFAULT_PROOFS)
    bounds = {game: proof_bounds(*game) for game in games}
    print("reference proof, the readable against the fast: each start at the bounds either side of its value, "
          "standard rules")
    print(", ".join(f"Kalah({p},{s}) w {low} and w {high}" for (p, s), (low, high) in bounds.items()))
    print(f"CPU seconds for both bounds, the fastest of {args.repeats} runs")
    print(HEADER)
    timings = [measure(proof_case(*game, bounds[game]), [start_position(*game)], args.repeats) for game in games]
    print(table(timings))
    fast = sum(t.fast for t in timings)
    print(f"the fast proof: {sum(t.nodes for t in timings) / fast if fast > 0 else float('inf'):,.0f} positions "
          "a CPU second")
    if all(t.same for t in timings):
        print(f"same answer, node count and deepest ply in all {2 * len(timings)} proofs")
        return True
    print("DIFFERENT answers in: " + ", ".join(t.case for t in timings if not t.same))
    return False


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    same = searches(args)
    print()
    same = proofs(args) and same
    return EXIT_OK if same else EXIT_FAILURE
