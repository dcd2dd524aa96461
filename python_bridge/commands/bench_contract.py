"""``python -m python_bridge bench-contract``: the depth each search-contract change buys at the default level's
budget (argument parsing and printing only; the study is ``bench.contract_study``)."""

from __future__ import annotations

import argparse

from ..bench.contract_study import midgame_indices, study, study_rows, summary
from ..reference.samples import varied_positions
from ..reference.search import NODE_BUDGET
from .validators import EXIT_OK, add_seed, bounded_int, new_parser


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge bench-contract",
                        "The depth each search-contract change buys at the default level's budget.")
    parser.add_argument("--positions", type=bounded_int(1, 2000), default=300,
                        help="positions of seeded 6-pit, 4-seed games (default 300)")
    parser.add_argument("--budget", type=bounded_int(100, 200_000), default=NODE_BUDGET,
                        help=f"positions a move may visit (default {NODE_BUDGET}, the default level's)")
    add_seed(parser, 1960, "the seed that picks the games (the bench's)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    positions = varied_positions(args.positions, args.seed)
    middle = midgame_indices(positions)
    print(f"depth reached at a budget of {args.budget} positions: {len(positions)} positions of seeded games "
          f"(seed {args.seed}), {len(middle)} of them midgame")
    rows = study_rows()
    width = max(len(name) for name, _ in rows)
    for name, changes in rows:
        print(f"  {name:{width}s} {summary(study(changes, positions, args.budget), middle)}", flush=True)
    return EXIT_OK
