"""Telling a person how long a run will take before it starts, and how far it is while it works.

Why: a run of minutes or days that starts without a word looks hung.  Every
command that can run long says ``note: ... about <time> here`` on stderr before
it starts (``announce``; the estimate comes from a measured rate or a model,
and says which), and shows its progress on stderr while it works (``Ticker``:
one line rewritten on a terminal, otherwise a first line after two seconds and then one
every ten).  stdout
keeps only the command's answer, which scripts read.
"""

from __future__ import annotations

import sys
import time

from ..driver.keyboard import is_terminal

LONG_SECONDS = 10.0   # a run estimated longer than this is announced
EVERY_SECONDS = 10.0  # progress lines when stderr is not a terminal
FIRST_SECONDS = 2.0   # ... the first of them this soon, so a log shows at once that the run is working


def span_text(seconds: float) -> str:
    """A duration as a person says it: ``40 s``, ``12 minutes``, ``3.5 hours``, ``9 days``, ``1,200 years``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} hours"
    if seconds < 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365.25 * 86400):,.0f} years"


def announce(what: str, seconds: float, basis: str, *, always: bool = False) -> None:
    """``note: <what> will take about <time> here (<basis>); Ctrl-C stops it`` on stderr, when it is long."""
    if always or seconds > LONG_SECONDS:
        print(f"note: {what} will take about {span_text(seconds)} here ({basis}); Ctrl-C stops it",
              file=sys.stderr, flush=True)


class Ticker:
    """Progress on stderr: one line rewritten on a terminal, otherwise a line FIRST_SECONDS after the start and
    then every EVERY_SECONDS."""

    def __init__(self) -> None:
        self.tty = is_terminal(sys.stderr)
        self.last = time.monotonic() - (EVERY_SECONDS - FIRST_SECONDS)  # when the last line would have been
        self.shown = False

    def show(self, text: str) -> None:
        if self.tty:
            sys.stderr.write("\r  ... " + text + "\x1b[K")
            sys.stderr.flush()
            self.shown = True
        elif time.monotonic() - self.last >= EVERY_SECONDS:
            self.last = time.monotonic()
            print("  ... " + text, file=sys.stderr, flush=True)

    def done(self) -> None:
        """Clear the rewritten line (on a terminal) before the answer is printed."""
        if self.tty and self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


class CountTicker(Ticker):
    """Progress of a count towards an estimated total: ``nodes so far 1,234,567 of about 9,000,000 (14 %)``.

    An estimate can be low: past it the line says so (``past the estimate of about 9,000,000``) and shows
    no percentage and no time left, never "103 %"."""

    def __init__(self, noun: str, estimate: int | None) -> None:
        super().__init__()
        self.noun, self.estimate = noun, estimate
        self.began = time.monotonic()

    def __call__(self, so_far: int, extra: str = "") -> None:
        elapsed = time.monotonic() - self.began
        text = f"{self.noun} so far {so_far:,}"
        if self.estimate and so_far <= self.estimate:
            text += f" of about {self.estimate:,} ({min(99, int(100 * so_far / self.estimate))} %)"
        elif self.estimate:
            text += f", past the estimate of about {self.estimate:,}"
        text += f"  elapsed {span_text(elapsed)}"
        if self.estimate and 0 < so_far < self.estimate:  # the rate measured so far, applied to what is left
            text += f", about {span_text(elapsed * (self.estimate / so_far - 1))} left"
        self.show(text + extra)
