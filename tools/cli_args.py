"""Command-line values for every entry point of the project: one-line errors and bounded numbers.

A user who types a bad value must get one clear line and exit status 2, never a traceback
and never hours of work nobody asked for.  ``OneLineParser`` is an ``argparse`` parser whose
errors are one line; ``bounded_int`` and ``bounded_float`` make ``type=`` callables that
accept only plain decimal numbers in a range (no ``1_000``, no full-width digits, no
5,000-digit numbers that Python's ``int`` would refuse with a ValueError of its own) and
that show their range in ``--help``.  Standard library only: the assembler, the tape reader
and the bridge's commands all use it.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import NoReturn

# The exit statuses of every command of the project (the docs' table is made from these).
EXIT_OK = 0          # done: the work ran and everything agreed
EXIT_FAILURE = 1     # a failure: a disagreement, a lost emulator, a file that could not be written
EXIT_USAGE = 2       # a usage error: a bad option or input, one line on stderr
EXIT_LIMIT = 3       # a legal input that passes a limit of the machine or the reference (a proof too deep)
EXIT_STATUSES = {EXIT_OK: "done", EXIT_FAILURE: "failure", EXIT_USAGE: "usage error (bad option or input)",
                 EXIT_LIMIT: "a limit of the machine or the reference reached on a legal input"}
MAX_DIGITS = 24      # more digits than any range here allows: refused before int() sees them


def shown(text: str, limit: int = 24) -> str:
    """``text`` as a message quotes it: repr, cut short when it is long (a 5,000-digit number)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def short_line(message: str, word_limit: int = 160) -> str:
    """``message`` on one line with no word longer than ``word_limit`` (argparse quotes whatever was typed)."""
    words = [word if len(word) <= word_limit else f"{word[:40]}...({len(word):,} characters)"
             for word in message.split()]
    return " ".join(words)


def _grouped(number: int | float) -> str:
    return f"{number:,}" if isinstance(number, int) else f"{number:g}"


class BoundedInt:
    """``type=`` for a whole number ``lo..hi``: ``BoundedInt(1, 6)("7")`` raises ArgumentTypeError."""

    def __init__(self, lo: int, hi: int, unit: str = "") -> None:
        self.lo, self.hi, self.unit = lo, hi, unit
        self.__name__ = "whole number"        # argparse names the type in some messages

    @property
    def range_text(self) -> str:
        """The metavar ``--help`` shows, e.g. ``1-6``."""
        return f"{self.lo}-{self.hi}" if self.lo >= 0 else f"{self.lo}..{self.hi}"

    def parse(self, text: str) -> int:
        """The number, or ValueError with the one-line reason (batch lines use this too)."""
        digits = text[1:] if text[:1] in ("-", "+") else text
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"{shown(text)} is not a whole number ({self.describe()})")
        if len(digits) > MAX_DIGITS:
            raise ValueError(f"a number of {len(digits):,} digits is out of range ({self.describe()})")
        value = int(text)
        if not self.lo <= value <= self.hi:
            raise ValueError(f"{value:,} is out of range ({self.describe()})")
        return value

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{_grouped(self.lo)} to {_grouped(self.hi)}{unit}"

    def __call__(self, text: str) -> int:
        try:
            return self.parse(text)
        except ValueError as bad:
            raise argparse.ArgumentTypeError(str(bad)) from None

    def __repr__(self) -> str:
        return f"BoundedInt({self.lo}, {self.hi})"


class BoundedFloat(BoundedInt):
    """``type=`` for a decimal number ``lo..hi`` (seconds and the like); no nan, no inf."""

    floating = True

    def __init__(self, lo: float, hi: float, unit: str = "") -> None:
        super().__init__(lo, hi, unit)  # type: ignore[arg-type]
        self.__name__ = "number"

    @property
    def range_text(self) -> str:
        return f"{_grouped(self.lo)}-{_grouped(self.hi)}"

    def parse(self, text: str) -> float:  # type: ignore[override]
        body = text.lstrip("+-")
        if not (body.isascii() and body.replace(".", "", 1).isdigit()) or len(body) > MAX_DIGITS:
            raise ValueError(f"{shown(text)} is not a number ({self.describe()})")
        value = float(text)
        if not (math.isfinite(value) and self.lo <= value <= self.hi):
            raise ValueError(f"{value:g} is out of range ({self.describe()})")
        return value


def bounded_int(lo: int, hi: int, unit: str = "") -> BoundedInt:
    return BoundedInt(lo, hi, unit)


def bounded_float(lo: float, hi: float, unit: str = "") -> BoundedFloat:
    return BoundedFloat(lo, hi, unit)


class RangeHelpFormatter(argparse.HelpFormatter):
    """Shows a bounded option's range as its metavar: ``--games 1-100,000``."""

    def _get_default_metavar_for_optional(self, action: argparse.Action) -> str:
        return getattr(action.type, "range_text", None) or super()._get_default_metavar_for_optional(action)

    def _get_default_metavar_for_positional(self, action: argparse.Action) -> str:
        return getattr(action.type, "range_text", None) or super()._get_default_metavar_for_positional(action)


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line naming the program, then exit 2.

    Sub-parsers made with ``add_subparsers`` are of the same class (argparse uses
    ``type(self)``), so ``ref move ...`` errors are one line too.
    """

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", RangeHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {short_line(message)} (see --help)\n")

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        """As argparse's, but ``--duration -5m`` gives ``-5m`` to ``--duration`` (whose check then answers
        it) instead of "expected one argument": argparse takes any word starting with ``-`` that is not a
        plain negative number for an option."""
        words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(self._values_joined(words), namespace)

    def _values_joined(self, words: list[str]) -> list[str]:
        """``--opt -value`` as ``--opt=-value`` where ``--opt`` takes one value and ``-value`` is no option."""
        joined: list[str] = []
        n = 0
        while n < len(words):
            word = words[n]
            action = self._option_string_actions.get(word)
            following = words[n + 1] if n + 1 < len(words) else None
            if (word == "--" or action is None or action.nargs is not None or following is None
                    or not following.startswith("-") or following == "--"
                    or following.split("=", 1)[0] in self._option_string_actions):
                joined.append(word)
                n += 1
                if word == "--":
                    joined += words[n:]
                    break
                continue
            joined.append(f"{word}={following}")
            n += 2
        return joined

