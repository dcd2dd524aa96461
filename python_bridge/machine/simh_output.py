"""Reading what the simulated PDP-1 types: every character once, in order, and its stops as exceptions.

Everything the simulator prints is read into one buffer (and the transcript); every reader --
``expect``, ``read_some``, the console's commands -- takes from there, so no output is ever seen
twice or lost, and output typed before a stop message stays readable after the stop.
"""

from __future__ import annotations

import os
import re
import time

from .simh_errors import STOP_CLASSES, STOP_RE, STOP_WORDS, MachineStopped, SimhDied, SimhError, SimhTimeout
from .simh_process import PROMPT, SimhProcess

TAIL_CHARS = 2000  # transcript tail carried by exceptions
TRANSCRIPT_LIMIT = 256 * 1024  # the transcript kept in memory (the kiosk runs for weeks)

NEVER = re.compile(r"(?!x)x")  # a pattern that never matches: ``expect(NEVER)`` waits for the machine to stop

_ANY = re.compile(r".+", re.DOTALL)  # whatever has arrived


def _ready_length(unread: str) -> int:
    """How much of ``unread`` is surely program output: all but a last line that may be a stop
    message still arriving (SIMH starts those on a line of their own: the start of one, or one
    whose line end has not come yet), or a lone CR."""
    cut = unread.rfind("\n") + 1
    last = unread[cut:]
    # the message may have arrived in part (a prefix of its words) or whole but for its CR LF
    if last and any(word.startswith(last) or last.startswith(word) for word in STOP_WORDS):
        if cut and unread[cut - 1] == "\n":  # the message's own new line goes with it
            cut -= 2 if cut > 1 and unread[cut - 2] == "\r" else 1
        return cut
    if unread.endswith("\r"):
        return len(unread) - 1
    return len(unread)


def _held_line_break(unread: str) -> int:
    """Characters at the end of ``unread`` that are a line break a stop message may still claim.

    SIMH prints a stop message on a line of its own, writing the CR LF that starts it before the
    message: read between the two writes, that CR LF looks like the program's own line break
    (the demonstration's transcript once had stray blank lines before its moves this way).
    """
    if unread.endswith("\r\n"):
        return 2
    return 1 if unread.endswith("\n") or unread.endswith("\r") else 0


# How long a trailing line break is held back while breakpoints are set, waiting for the stop
# message that may follow it.  SIMH writes the two within microseconds; this covers a loaded host.
STOP_MESSAGE_GRACE = 0.15


class ConsoleOutput:
    """A machine whose output is read through one buffer: ``expect``, ``read_some``, ``unread``.

    Whatever brings the output (a ``pdp1`` process on a pty, or the WebAssembly machine run in
    slices: ``wasm_simh``) gives it through ``_read_more``; the reading and the stops are the same.
    """

    running: bool
    timeout: float
    # Whether a stop message can arrive in pieces, after output read already (a pty: yes; a machine run in
    # slices gives each slice's output and its stop message together): read_some then holds back what may
    # be the start of one.
    messages_split = True

    def __init__(self) -> None:
        self.transcript = ""
        self._unread = ""  # read from the simulator, not yet taken by any reader
        self.breakpoints: set[str] = set()  # addresses SIMH would stop at, as given to ``break``

    def _record(self, text: str) -> None:
        self.transcript += text
        if len(self.transcript) > TRANSCRIPT_LIMIT:
            self.transcript = self.transcript[-TRANSCRIPT_LIMIT // 2:]

    def tail(self, chars: int = TAIL_CHARS) -> str:
        return self.transcript[-chars:]

    def _read_more(self, timeout: float) -> bool:
        """Read what the simulator prints next into _unread; False if nothing came in ``timeout``."""
        raise NotImplementedError

    def _after_stop(self) -> None:
        """Whatever the console prints after a stop message (``sim>``), read past."""

    def _until(self, find, timeout: float, what: str):
        """Read until ``find(_unread)`` gives a result; raise SimhTimeout after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            found = find(self._unread)
            if found is not None:
                return found
            if not self._read_more(deadline - time.monotonic()):
                raise SimhTimeout(f"no {what} in time", self.tail())

    def _take_stop(self, stop: re.Match[str]) -> MachineStopped:
        """Remove a stop message (and the prompt after it) from _unread; the exception to raise."""
        self.running = False
        head, rest = self._unread[:stop.start()], self._unread[stop.end():]
        self._unread = rest
        self._after_stop()
        self._unread = head + self._unread  # what the program typed before the stop is still its output
        pc = int(stop.group(2), 8) if stop.group(2) else None
        return STOP_CLASSES[stop.group(1)](stop.group(1), pc, self.tail())

    def expect(self, pattern: str | re.Pattern[str], timeout: float | None = None) -> re.Match[str]:
        """Wait while the machine runs until its output matches ``pattern``; consume through the match.

        Raises MachineStopped (a subclass for each stop reason) if the PDP-1
        stops first, SimhDied if the process ends, SimhTimeout if nothing comes.
        """
        if not self.running and not self._unread:
            raise SimhError("the machine is not running", self.tail())
        compiled = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern)

        def find(unread: str):
            match, stop = compiled.search(unread), STOP_RE.search(unread)
            if stop and (match is None or stop.start() < match.end()):
                return stop
            return match

        found = self._until(find, self.timeout if timeout is None else timeout,
                            repr(compiled.pattern) + " from the PDP-1")
        if found.re is STOP_RE:
            raise self._take_stop(found)
        self._unread = self._unread[found.end():]
        return found

    def expect_output(self, pattern: str | re.Pattern[str], timeout: float | None = None) -> tuple[str, re.Match[str]]:
        """Like ``expect``, also returning the output that came before the match."""
        match = self.expect(pattern, timeout)
        return match.string[:match.start()], match

    def read_some(self, timeout: float) -> str:
        """Return the output that arrives next (waiting up to ``timeout`` for the first of it).

        For live display: output before a stop message is returned first;
        the next call raises MachineStopped for the stop.  SimhDied at end of
        file, SimhTimeout if nothing at all comes.  A line that may be the
        start of a stop message is held back until it is complete.
        """
        deadline = time.monotonic() + timeout
        held_since: float | None = None  # when a trailing line break began to be held back
        while True:
            stop = STOP_RE.search(self._unread)
            if stop:
                if stop.start() > 0:
                    text, self._unread = self._unread[:stop.start()], self._unread[stop.start():]
                    return text
                raise self._take_stop(stop)
            ready = _ready_length(self._unread) if self.messages_split else len(self._unread)
            held = _held_line_break(self._unread[:ready]) if self.breakpoints and self.running and self.messages_split \
                else 0
            if held and held_since is not None and time.monotonic() - held_since >= STOP_MESSAGE_GRACE:
                held = 0  # no stop message came: the line break is the program's
            if ready - held > 0:
                text, self._unread = self._unread[:ready - held], self._unread[ready - held:]
                return text
            if not self.running and not self._unread:
                raise SimhError("the machine is not running", self.tail())
            wait = deadline - time.monotonic()
            if held:
                held_since = time.monotonic() if held_since is None else held_since
                wait = min(wait, held_since + STOP_MESSAGE_GRACE - time.monotonic())
            if not self._read_more(wait) and not held:
                raise SimhTimeout(f"no output from the PDP-1 for {timeout:.0f} s", self.tail())

    def discard_output(self) -> None:
        """Forget output not yet read: what came before is of no interest."""
        self._unread = ""

    def unread(self, text: str) -> None:
        """Give output back: the next ``read_some`` or ``expect`` sees ``text`` first (e.g. a step's output)."""
        self._unread = text + self._unread


class SimhOutput(ConsoleOutput, SimhProcess):
    """A ``pdp1`` process whose output is read through one buffer (``ConsoleOutput``) from its pty."""

    def __init__(self, *, timeout: float, binary: str, cwd: str | os.PathLike[str] | None) -> None:
        ConsoleOutput.__init__(self)
        SimhProcess.__init__(self, timeout=timeout, binary=binary, cwd=cwd)

    def _read_more(self, timeout: float) -> bool:
        import pexpect  # (a process's: see simh_process)

        idx = self.awake().expect([_ANY, pexpect.EOF, pexpect.TIMEOUT], timeout=max(0.0, timeout))
        if idx == 0:
            text = self.child.after
            self._record(text)
            self._unread += text
            return True
        if idx == 1:
            self.running = False
            raise SimhDied("the pdp1 process exited", self.tail())
        return False

    def _expect_prompt(self, timeout: float) -> str:
        """Read up to SIMH's ``sim>`` prompt; return what came before it."""
        index = self._until(lambda u: u.find(PROMPT) if PROMPT in u else None, timeout, "sim> prompt")
        before, self._unread = self._unread[:index], self._unread[index + len(PROMPT):]
        return before

    def _after_stop(self) -> None:
        try:
            self._expect_prompt(2)
        except SimhError:
            pass
