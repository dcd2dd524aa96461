"""``python -m python_bridge fuzz``: the diagnostic-mode differential fuzz (argument parsing only)."""

from __future__ import annotations

import argparse

from ..checking.fuzz import GROUP_SIZE, run_fuzz
from .validators import (
    EXIT_FAILURE,
    EXIT_OK,
    UsageError,
    add_jobs,
    add_seed,
    bounded_int,
    new_parser,
    resolve_jobs,
    run_guarded,
    warn_if_long,
)

# About 1,500 cases a second: ten million is a couple of hours, the most a run may ask for.
MAX_CASES = 10_000_000
CASES = bounded_int(1, MAX_CASES)
GROUP = bounded_int(0, (MAX_CASES - 1) // GROUP_SIZE)
CASES_PER_SECOND = 1500   # docs/figures.md, bench: about 1,550 with one emulator, no faster with two


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge fuzz",
                        "Diagnostic-mode differential fuzz: the PDP-1 against the reference.")
    parser.add_argument("--cases", type=CASES, default=2000, help="command lines to type (default 2000)")
    add_seed(parser, 1)
    add_jobs(parser)
    parser.add_argument("--group", type=GROUP, default=None,
                        help=f"run only this group of the seed's cases (groups of {GROUP_SIZE}, from 0)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        groups = -(-args.cases // GROUP_SIZE)
        if args.group is not None and args.group >= groups:
            raise UsageError(f"--group {args.group}: {args.cases} cases make groups 0 to {groups - 1}")
        jobs = resolve_jobs(args.jobs, 1 if args.group is not None else groups)
        if args.group is None:
            warn_if_long(args.cases, CASES_PER_SECOND, "fuzz cases")
        outcome, seconds = run_fuzz(args.seed, args.cases, jobs, args.group)
        for mismatch in outcome.mismatches:
            print(mismatch.report(args.seed))
        for error in outcome.errors:
            print(f"EMULATOR ERROR: {error}")
        rate = outcome.cases / seconds if seconds else 0.0
        print(f"cases {outcome.cases}  mismatches {len(outcome.mismatches)}  errors {len(outcome.errors)}  "
              f"jobs {jobs}  seconds {seconds:.1f}  cases/s {rate:.0f}")
        return EXIT_FAILURE if outcome.mismatches or outcome.errors else EXIT_OK

    return run_guarded(body, (UsageError,), needs_tape=True)
