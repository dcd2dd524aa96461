"""Shared command-line plumbing: variant flags, friendly errors, exit codes.

Every command of the bridge reports bad input as one clear line on stderr and
exit status 2, never a traceback; these helpers make that uniform.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from typing import Callable, NoReturn

from ..reference.rules import Variants

EXIT_USAGE = 2


class UsageError(ValueError):
    """Command-line input that makes no sense (reported on one line, exit 2)."""


class FriendlyParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line naming the program, then exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def build_parser(prog: str, description: str) -> FriendlyParser:
    return FriendlyParser(prog=prog, description=description)


def add_variant_flags(parser: argparse.ArgumentParser) -> None:
    """The four rule variants, as every command spells them."""
    parser.add_argument("--empty-capture", action="store_true", help="capture into the store even opposite an empty pit")
    parser.add_argument("--deferred-end", action="store_true", help="end only when the player to move has no seeds")
    parser.add_argument("--remainder-void", action="store_true", help="seeds left at the end go to nobody")
    parser.add_argument("--pie-rule", action="store_true", help="North may swap sides after South's first turn")


def variants_from(args: argparse.Namespace) -> Variants:
    return Variants(
        empty_capture=args.empty_capture,
        deferred_end=args.deferred_end,
        remainder_void=args.remainder_void,
        pie_rule=args.pie_rule,
    )


def fail(message: str) -> int:
    """Print ``message`` as a one-line error on stderr and return the usage exit status."""
    print(f"error: {message}", file=sys.stderr)
    return EXIT_USAGE


def run_guarded(body: Callable[[], int], input_errors: tuple[type[BaseException], ...]) -> int:
    """Run a command body, turning bad-input exceptions into a one-line error and exit 2."""
    try:
        return body()
    except input_errors as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def resolve_jobs(jobs: int) -> int:
    """``--jobs``: 0 means one per core."""
    if jobs == 0:
        return multiprocessing.cpu_count()
    if jobs < 0:
        raise UsageError("--jobs must be 0 (one per core) or more")
    return jobs


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``, else one line naming the range."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not {value}")
        return value

    return parse


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type``: seconds, or a number with s, m, h or d (``90``, ``30m``, ``2h``), from ``low`` to ``high`` s."""

    def parse(text: str) -> float:
        number, scale = text.strip(), 1
        if number and number[-1].lower() in DURATION_UNITS:
            number, scale = number[:-1], DURATION_UNITS[number[-1].lower()]
        try:
            value = float(number) * scale
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a duration such as 90, 90s, 30m, 2h or 1d, not {text!r}") from None
        if not low <= value <= high:  # NaN fails this too
            raise argparse.ArgumentTypeError(f"must be from {low:.0f} s to {high:.0f} s ({high / 86400:g} days), not {text!r}")
        return value

    return parse
