"""Solve many Kalah(m, n) starts and compare with the literature (``python -m python_bridge solve-table``, whose
command line is ``commands.solve_table``).

Each configuration runs as its own ``python -m python_bridge ref solve`` process
with a time limit, one at a time (the machine is shared), smallest first; once a
configuration runs out of time the larger seed counts of the same m and rule set
are skipped.  Prints a Markdown table: m, n, rules, value, time, and how the
value compares with the published one (see ``solver_published``).
"""

from __future__ import annotations

import subprocess
import sys
import time

from .published import check_empty_capture, outcome

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


def table_row(m: int, n: int, name: str, value: int | None, took: float, limit: float) -> str:
    """One Markdown row: the value and how it compares with the published one, or ``not solved``."""
    if value is None:
        return f"| {m} | {n} | {name} | not solved | > {limit:.0f} s | |"
    verdict = check_empty_capture(m, n, value) if name == "empty capture" else "no published value"
    return f"| {m} | {n} | {name} | {value:+d} ({outcome(value)}) | {took:.2f} s | {verdict} |"


TABLE_HEAD = ["| m | n | rules | value | time | published |", "|---|---|-------|-------|------|-----------|"]
