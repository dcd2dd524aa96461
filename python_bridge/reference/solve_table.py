"""``python -m python_bridge.reference.solve_table``: solve many Kalah(m, n) starts and compare with the literature.

Each configuration runs as its own ``python -m python_bridge ref solve`` process
with a time limit, one at a time (the machine is shared), smallest first; once a
configuration runs out of time the larger seed counts of the same m and rule set
are skipped.  Prints a Markdown table: m, n, rules, value, time, and how the
value compares with the published one (see ``solver_published``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from .arguments import OneLineParser, seconds, whole_number
from .published import check_empty_capture, outcome
from .rules import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS

# Rule sets as ``ref solve`` flags; the name is what the table prints.
RULE_SETS = {
    "empty capture": ["--empty-capture"],
    "standard": [],
    "deferred end": ["--deferred-end"],
    "remainder void": ["--remainder-void"],
    "pie rule": ["--pie-rule"],
    "pie + empty capture": ["--pie-rule", "--empty-capture"],
    "all four": ["--empty-capture", "--deferred-end", "--remainder-void", "--pie-rule"],
}


def solve_one(m: int, n: int, flags: list[str], limit: float) -> tuple[int | None, float]:
    """The value (None on time-out) and the seconds ``ref solve`` took."""
    # --anyway: ref solve refuses the large starts, but here our own time limit stops them
    command = [sys.executable, "-m", "python_bridge", "ref", "solve", "--pits", str(m), "--seeds", str(n),
               "--anyway", *flags]
    began = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit, check=True)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - began
    words = done.stdout.split()  # value V pits m seeds n time Ts
    return int(words[1]), float(words[-1].rstrip("s"))


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m python_bridge.reference.solve_table",
                           description="Solve many Kalah(m, n) starts and compare with the literature.")
    parser.add_argument("--rules", nargs="+", default=list(RULE_SETS), choices=list(RULE_SETS),
                        help="rule sets to solve (default: all)")
    parser.add_argument("--max-pits", type=whole_number(MIN_PITS, MAX_PITS), metavar=f"{MIN_PITS}-{MAX_PITS}",
                        default=6, help="largest pits a side (default 6)")
    parser.add_argument("--max-seeds", type=whole_number(MIN_SEEDS, MAX_SEEDS), metavar=f"{MIN_SEEDS}-{MAX_SEEDS}",
                        default=6, help="largest seeds a pit (default 6)")
    parser.add_argument("--limit", type=seconds(1, 86400), metavar="1-86400", default=300.0,
                        help="seconds allowed per configuration (default 300)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    print("| m | n | rules | value | time | published |")
    print("|---|---|-------|-------|------|-----------|")
    for name in args.rules:
        for m in range(1, args.max_pits + 1):
            for n in range(1, args.max_seeds + 1):
                value, took = solve_one(m, n, RULE_SETS[name], args.limit)
                if value is None:
                    print(f"| {m} | {n} | {name} | not solved | > {args.limit:.0f} s | |", flush=True)
                    break
                if name == "empty capture":
                    verdict = check_empty_capture(m, n, value)
                else:
                    verdict = "no published value"
                print(f"| {m} | {n} | {name} | {value:+d} ({outcome(value)}) | {took:.2f} s | {verdict} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
