"""Shared command-line plumbing: the options every command spells alike, their ranges, one-line errors.

Every command of the bridge reports bad input as one clear line on stderr and
exit status 2, never a traceback, and refuses before any work starts what it
cannot do (a folder it could not write its records in, more emulators than
the machine can run, a game count that would run for years).  The same option
has the same name, range and values in every command: ``--pits``, ``--seeds``,
``--level``, ``--seed``, ``--jobs``, ``--first visitor|pdp-1``, ``--records``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Callable

from tools.cli_args import (
    EXIT_FAILURE,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_STATUSES,
    EXIT_USAGE,
    OneLineParser,
    bounded_float,
    bounded_int,
    short_line,
    shown,
)
from tools.user_files import UserFileError, name_problem, user_file

from ..reference.rules import MAX_PITS, MAX_SEEDS, MIN_PITS, MIN_SEEDS, Variants
from ..reference.search import MAX_DEPTH, MIN_DEPTH

__all__ = ["EXIT_OK", "EXIT_FAILURE", "EXIT_USAGE", "EXIT_LIMIT", "EXIT_INTERRUPTED", "EXIT_STATUSES",
           "UsageError", "FriendlyParser", "new_parser", "bounded_int",
           "bounded_float", "shown"]

EXIT_INTERRUPTED = 130                 # Ctrl-C: the shell's status for SIGINT (128 + 2)
JOBS_PER_CORE = 4                      # emulators a core may be given (they mostly wait on each other)
CORES = os.cpu_count() or 1
MAX_JOBS = CORES * JOBS_PER_CORE
MAX_SEED = 999_999_999

PITS = bounded_int(MIN_PITS, MAX_PITS)
SEEDS = bounded_int(MIN_SEEDS, MAX_SEEDS)
LEVEL = bounded_int(0, MAX_DEPTH)      # 0: the program's default level
DEPTH = bounded_int(MIN_DEPTH, MAX_DEPTH)
SEED = bounded_int(0, MAX_SEED)
JOBS = bounded_int(0, MAX_JOBS)

FIRST_CHOICES = ("visitor", "pdp-1")
FIRST_ALIASES = {"you": "visitor"}     # play's old spelling


class UsageError(ValueError):
    """Command-line input that makes no sense (reported on one line, exit 2)."""


class FriendlyParser(OneLineParser):
    """The bridge's parser: one-line errors naming the program, exit 2, ranges in --help."""


def new_parser(prog: str, description: str) -> FriendlyParser:
    """A command's parser; its description is the command's line in ``python -m python_bridge --help``."""
    return FriendlyParser(prog=prog, description=description)




# ------------------------------------------------------------------------ the shared options

def add_board_options(parser: argparse.ArgumentParser, *, pits: int, seeds: int, level: int,
                      level_help: str = "plies the PDP-1 searches; 0: its default level") -> None:
    """``--pits``, ``--seeds`` and ``--level`` with the program's own ranges."""
    parser.add_argument("--pits", type=PITS, default=pits, help=f"pits a side (default {pits})")
    parser.add_argument("--seeds", type=SEEDS, default=seeds, help=f"seeds a pit (default {seeds})")
    parser.add_argument("--level", type=LEVEL, default=level, help=f"{level_help} (default {level})")


def add_seed(parser: argparse.ArgumentParser, default: int, what: str = "the seed that fixes every case") -> None:
    parser.add_argument("--seed", type=SEED, default=default, help=f"{what} (default {default})")


def add_jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=JOBS, default=0,
                        help=f"emulators in parallel (default 0: one per core; at most {JOBS_PER_CORE} "
                             f"per core, and never more than there is work)")


def first_mover(text: str) -> str:
    """``--first``: ``visitor`` or ``pdp-1`` (``you`` is accepted for ``visitor``)."""
    return FIRST_ALIASES.get(text, text)


def add_first(parser: argparse.ArgumentParser, default: str | None, what: str) -> None:
    parser.add_argument("--first", type=first_mover, choices=FIRST_CHOICES, default=default,
                        help=f"who moves first: {what} ('you' means visitor)")


def add_brief(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--brief", action="store_true",
                        help="the brief form (test word bit 1): the PDP-1 types its moves, and the board only "
                             "at the end or when b is typed for it (every board still checked, from core)")


def folder_name(text: str) -> Path:
    """``type=`` for an output folder's name: only the name is checked here, nothing is made.

    Reading the options creates nothing (``--records X --help`` leaves no X, and of
    ``--records A --records B`` only B is used): ``ready_folder`` makes and tries the
    folder once, before the work starts."""
    problem = name_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(f"{problem} (a folder name)")
    return Path(text)


def ready_folder(path: Path, option: str = "--records") -> Path:
    """Make ``path`` (given as ``option``) if it is missing and write a file in it, before any work: a visitor
    never plays a whole game whose record then cannot be saved.  UsageError (one line, exit 2) when it cannot be."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        why = exc.strerror or exc
        raise UsageError(f"{option}: cannot write in the folder {shown(str(path), 160)}: {why}") from None
    return path


def readable_file(text: str) -> Path:
    """``type=`` for an input file (a caption script, a configuration, a record): a regular file of sane size.

    ``tools.user_files`` refuses a FIFO, a device, a folder, a missing file or a NUL in the name in one line."""
    try:
        return user_file(text)
    except UserFileError as bad:
        raise argparse.ArgumentTypeError(str(bad)) from None


def add_records(parser: argparse.ArgumentParser, default: Path, what: str) -> None:
    """``--records DIR``: where what the command writes goes (checked, and made, when the work starts)."""
    parser.add_argument("--records", dest="records", type=folder_name, default=default,
                        metavar="DIR", help=f"the folder {what} go in (made if missing, when the work starts; "
                                            f"default records/)")


def add_variant_flags(parser: argparse.ArgumentParser) -> None:
    """The four rule variants, as every command spells them."""
    parser.add_argument("--empty-capture", action="store_true",
                        help="capture into the store even opposite an empty pit")
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


def given_options(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """The options ``argv`` gives (each by its first name), in the parser's order.

    Parsed again with every default suppressed, so an option given its default value
    counts as given, and an abbreviation (``--no-cap``) as the option it stands for."""
    saved = [(action, action.default) for action in parser._actions]
    try:
        for action, _ in saved:
            action.default = argparse.SUPPRESS
        present = vars(parser.parse_args(argv))
    finally:
        for action, default in saved:
            action.default = default
    return [action.option_strings[0] for action, _ in saved if action.option_strings and action.dest in present]


def refuse_with(parser: argparse.ArgumentParser, given: list[str], stray: tuple[str, ...], reason: str) -> None:
    """Exit 2 with one line when any of the options ``stray`` was given: ``reason`` says why they do not apply."""
    found = [option for option in given if option in stray]
    if found:
        parser.error(f"{reason}: {', '.join(found)} {'does' if len(found) == 1 else 'do'} not apply")


# ------------------------------------------------------------------------ running a command

def fail(message: str, status: int = EXIT_USAGE) -> int:
    """Print ``message`` as a one-line error on stderr and return ``status`` (the usage status unless told)."""
    print(f"error: {short_line(str(message))}", file=sys.stderr)
    return status


def run_guarded(body: Callable[[], int], input_errors: tuple[type[BaseException], ...], *,
                limit_errors: tuple[type[BaseException], ...] = (), needs_tape: bool = False) -> int:
    """Run a command body, turning bad-input exceptions into a one-line error and exit 2.

    ``limit_errors``: a legal input that reached a limit of the machine or the reference (a proof
    deeper than the PDP-1's frames): one line and ``EXIT_LIMIT`` (3), not the usage status.
    ``needs_tape``: first make sure the tapes (``build/kalah.rim``, ``build/prove.rim``) are sound
    (punched again from the sources when damaged); a tape that cannot be had is one line and exit 1."""
    try:
        if needs_tape:
            from ..machine.kalah_program import TapeDamaged, ensure_tapes  # not for ref: no emulator there

            try:
                ensure_tapes()
            except TapeDamaged as exc:
                return fail(str(exc), EXIT_FAILURE)
        return body()
    except limit_errors as exc:
        return fail(f"{exc} (a limit, not a mistake in the input)", EXIT_LIMIT)
    except input_errors as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def warn_if_long(count: int, per_second: float, what: str, basis: str = "at the rate docs/figures.md measured") -> None:
    """``count`` items at about ``per_second`` announced before the work starts, when they take long
    (``progress.announce``: the one long-run warning)."""
    from .progress import announce

    announce(f"{count:,} {what}", count / per_second, basis)


def resolve_jobs(jobs: int, work: int | None = None) -> int:
    """``--jobs``: 0 means one per core; never more than ``MAX_JOBS``, nor than ``work`` items."""
    if not 0 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs must be 0 (one per core) to {MAX_JOBS}, not {jobs}")
    jobs = jobs or CORES
    return max(1, min(jobs, work)) if work is not None else jobs


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type``: seconds, or a number with s, m, h or d (``90``, ``30m``, ``2h``), from ``low`` to
    ``high`` s."""

    def parse(text: str) -> float:
        number, scale = text, 1
        if number and number[-1].lower() in DURATION_UNITS:
            number, scale = number[:-1], DURATION_UNITS[number[-1].lower()]
        try:
            if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,6})?", number):  # plain ASCII decimals only
                raise ValueError(number)
            value = float(number) * scale
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a duration such as 90, 90s, 30m, 2h or 1d, not {shown(text)}") from None
        if not low <= value <= high:  # NaN fails this too
            raise argparse.ArgumentTypeError(
                f"must be from {low:.0f} s to {high:.0f} s ({high / 86400:g} days), not {shown(text)}")
        return value

    return parse
