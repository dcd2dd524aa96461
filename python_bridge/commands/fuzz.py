"""``python -m python_bridge fuzz``: the diagnostic-mode differential fuzz (argument parsing only)."""

from __future__ import annotations

from ..checking.fuzz import run_fuzz
from .validators import UsageError, build_parser, resolve_jobs, run_guarded


def main(argv: list[str]) -> int:
    parser = build_parser("python -m python_bridge fuzz", "Diagnostic-mode differential fuzz: the PDP-1 against the reference.")
    parser.add_argument("--cases", type=int, default=2000, help="command lines to type (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed that fixes every case (default 1)")
    parser.add_argument("--jobs", type=int, default=0, help="emulators in parallel (default: one per core)")
    parser.add_argument("--group", type=int, default=None, help="run only this group of the seed's cases")
    args = parser.parse_args(argv)

    def body() -> int:
        if args.cases < 1:
            raise UsageError("--cases must be at least 1")
        jobs = resolve_jobs(args.jobs)
        outcome, seconds = run_fuzz(args.seed, args.cases, jobs, args.group)
        for mismatch in outcome.mismatches:
            print(mismatch.report(args.seed))
        for error in outcome.errors:
            print(f"EMULATOR ERROR: {error}")
        rate = outcome.cases / seconds if seconds else 0.0
        print(f"cases {outcome.cases}  mismatches {len(outcome.mismatches)}  errors {len(outcome.errors)}  "
              f"jobs {jobs}  seconds {seconds:.1f}  cases/s {rate:.0f}")
        return 1 if outcome.mismatches or outcome.errors else 0

    return run_guarded(body, (UsageError,))

