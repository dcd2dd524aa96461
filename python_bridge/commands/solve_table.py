"""``python -m python_bridge solve-table``: solve many Kalah(m, n) starts, one ``ref solve`` process each with a
time limit, and compare with the literature (argument parsing and printing only; ``reference.solve_table``).

Smallest first; once a configuration runs out of time the larger seed counts of the
same m and rule set are skipped.  Prints a Markdown table.  ``--rules`` names the rule sets as the
rule options are spelled: ``standard``, ``empty-capture``, ``deferred-end``, ``remainder-void``,
``pie-rule``, ``pie+empty-capture`` and ``all-four`` (all four variants at once).
"""

from __future__ import annotations

import argparse

from ..reference.rules import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS
from ..reference.solve_table import RULE_SETS, TABLE_HEAD, solve_one, table_row
from .progress import announce
from .validators import EXIT_OK, bounded_float, bounded_int, new_parser


def option_name(rule_set: str) -> str:
    """A rule set as the command line spells it, as the rule options are spelled: ``empty-capture``,
    ``pie+empty-capture``, ``all-four`` (the table keeps the words)."""
    return rule_set.replace(" + ", "+").replace(" ", "-")


BY_OPTION = {option_name(name): name for name in RULE_SETS}


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge solve-table",
                        "Solve many Kalah(m, n) starts and compare with the literature (a Markdown table).")
    parser.add_argument("--rules", nargs="+", default=list(BY_OPTION), choices=list(BY_OPTION), metavar="RULES",
                        help=f"rule sets to solve, one or more of {', '.join(BY_OPTION)} (default: all)")
    parser.add_argument("--max-pits", type=bounded_int(MIN_PITS, MAX_PITS), default=6,
                        help="largest pits a side (default 6)")
    parser.add_argument("--max-seeds", type=bounded_int(MIN_SEEDS, MAX_SEEDS), default=6,
                        help="largest seeds a pit (default 6)")
    parser.add_argument("--limit", type=bounded_float(1, 86400, "s"), default=300.0,
                        help="seconds allowed per configuration (default 300)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    configurations = len(args.rules) * args.max_pits * args.max_seeds
    announce(f"the table ({configurations} configurations)", configurations * args.limit,
             f"at most, {args.limit:g} s each; the larger seed counts after a time-out are skipped")
    print("\n".join(TABLE_HEAD))
    for name in (BY_OPTION[option] for option in args.rules):
        for m in range(1, args.max_pits + 1):
            for n in range(1, args.max_seeds + 1):
                value, took = solve_one(m, n, RULE_SETS[name], args.limit)
                print(table_row(m, n, name, value, took, args.limit), flush=True)
                if value is None:
                    break
    return EXIT_OK
