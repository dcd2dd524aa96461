"""``python -m python_bridge bench``: the PDP-1's figures (argument parsing only; the measuring is in checking.figures)."""

from __future__ import annotations

from ..checking.figures import report
from .validators import UsageError, build_parser, run_guarded


def main(argv: list[str]) -> int:
    parser = build_parser("python -m python_bridge bench", "Measure the PDP-1 program and the bridge.")
    parser.add_argument("--positions", type=int, default=60, help="positions for instructions per node (default 60)")
    parser.add_argument("--level-positions", type=int, default=200,
                        help="positions of 6-pit, 4-seed games timed at the default level (default 200)")
    parser.add_argument("--fuzz-cases", type=int, default=3000, help="diagnostic fuzz cases (default 3000)")
    parser.add_argument("--seed", type=int, default=1960)
    args = parser.parse_args(argv)

    return run_guarded(lambda: report(args.positions, args.level_positions, args.fuzz_cases, args.seed), (UsageError,))
