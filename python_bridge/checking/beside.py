"""Reference work done beside the emulator, in a process of its own, its answers received one at a time.

Why: a long proof's or deepening's reference takes minutes (Kalah(6,3)'s proof
about two and a half, the emulator's run seventeen); on two cores the two can
run at once, and the answer waits only for the emulator.  The process is a fresh
interpreter (``spawn``), so it holds none of this one's emulators, signal
handlers or pty descriptors; it is a daemon and ``close`` kills it, so a run
given up leaves nothing behind.  The terminal's Ctrl-C reaches the whole
process group: the process beside is born with it held and then ignores it
(this one stops it, and a traceback from it would reach the user's terminal),
and Linux kills it if this process dies without closing it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import signal
from typing import Any, Callable

from ..reference.prove import ProofError

_HELD = {signal.SIGINT, signal.SIGQUIT}  # the terminal's keys: held while the process beside is born


def _work(target: Callable[..., None], sender: Any, *args: Any) -> None:
    """In the process beside: the terminal's keys ignored, killed with its parent, then the work."""
    for held in _HELD:
        signal.signal(held, signal.SIG_IGN)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    target(sender, *args)


class Beside:
    """``target(sender, *args)`` in a fresh interpreter; what it sends comes back through ``receive``."""

    def __init__(self, target: Callable[..., None], *args: Any, name: str) -> None:
        context = multiprocessing.get_context("spawn")
        self._answers, sender = context.Pipe(duplex=False)
        self._process: Any = context.Process(target=_work, args=(target, sender, *args), daemon=True, name=name)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)  # inherited through fork and exec
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        sender.close()

    def receive(self) -> Any:
        """The next answer (waits for it); a ProofError sent is raised here, and so is the process's end
        without an answer."""
        try:
            answer = self._answers.recv()
        except EOFError:
            raise ProofError(f"the reference's process ended without an answer "
                             f"(exit status {self._process.exitcode})") from None
        if isinstance(answer, ProofError):
            raise answer
        return answer

    def close(self) -> None:
        """Stop the process, finished or not."""
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
            self._answers.close()
            self._process = None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid
