"""Command-line values for the reference's own tools (``benchmark``, ``solve_table``): one-line errors, ranges.

The same contract as every entry point of the project (one line on stderr, exit
status 2, the range shown in ``--help``), kept here because the reference
package imports nothing of the rest of the project (``tools.cli_args`` says
the same for the bridge's commands and the tools).
"""

from __future__ import annotations

import argparse
import math
from typing import NoReturn

MAX_DIGITS = 12


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line naming the program, then exit 2."""

    def error(self, message: str) -> NoReturn:
        words = [w if len(w) <= 160 else f"{w[:40]}...({len(w):,} characters)" for w in message.split()]
        self.exit(2, f"{self.prog}: error: {' '.join(words)} (see --help)\n")


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 16 else f"{text[:16]!r}... ({len(text):,} characters)"


def whole_number(lo: int, hi: int):
    """``type=`` for a plain decimal number lo..hi (no full-width digits, no 5,000-digit numbers)."""

    def parse(text: str) -> int:
        digits = text[1:] if text[:1] == "-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number from {lo} to {hi}")
        if not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"{int(text)} is out of range ({lo} to {hi})")
        return int(text)

    parse.__name__ = f"{lo}-{hi}"
    parse.lo, parse.hi = lo, hi  # type: ignore[attr-defined]  # read by tests/commands/test_bad_arguments.py
    return parse


def seconds(lo: float, hi: float):
    """``type=`` for a number of seconds lo..hi."""

    def parse(text: str) -> float:
        body = text.lstrip("-")
        if not (body.isascii() and body.replace(".", "", 1).isdigit()) or len(body) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number of seconds from {lo:g} to {hi:g}")
        value = float(text)
        if not (math.isfinite(value) and lo <= value <= hi):
            raise argparse.ArgumentTypeError(f"{value:g} s is out of range ({lo:g} to {hi:g})")
        return value

    parse.__name__ = f"{lo:g}-{hi:g}"
    parse.lo, parse.hi, parse.floating = lo, hi, True  # type: ignore[attr-defined]
    return parse
