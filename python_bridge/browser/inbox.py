"""A game session's inbox in a browser's Worker: the page's messages fetched while the session waits for them.

Why: a session on a server has a thread of its own, and the server's event loop puts the page's messages
into its inbox (``queue.Queue``) meanwhile.  In a Worker there is one thread, and the page's messages
arrive only while the JavaScript event loop runs.  So the session's own wait for its next command is where
they are fetched: ``get`` asks the page for its next message (``receive``: at most so many seconds, the
Worker's JavaScript suspending Python meanwhile, so nothing spins) and hands each to ``deliver`` (the
owner, which checks it as the server would and submits it to the session, into this same queue).
"""

from __future__ import annotations

import queue
import time
from typing import Callable


class PageInbox(queue.Queue):
    """``GameSession.inbox`` for a session whose page's messages must be fetched."""

    def __init__(self, receive: Callable[[float], str | None], deliver: Callable[[str], None],
                 maxsize: int = 32) -> None:
        super().__init__(maxsize)
        self._receive = receive  # the page's next message (its JSON), waiting at most so many seconds
        self._deliver = deliver

    def get(self, block: bool = True, timeout: float | None = None):  # type: ignore[override]
        """The next command, fetching the page's messages until one is queued or the time is up (one wait for
        the page a call when nothing comes: every wake of a waiting Worker costs the visitor's machine)."""
        forever = block and timeout is None
        deadline = time.monotonic() + (timeout if block and timeout is not None else 0.0)
        while True:
            try:
                return super().get(block=False)
            except queue.Empty:
                pass
            left = 3600.0 if forever else max(0.0, deadline - time.monotonic())
            heard = self.hear(left)  # (a look, at least, even when not waiting: the page is always heard)
            if not heard and not forever and time.monotonic() >= deadline:
                raise queue.Empty

    def hear(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for the page's next message and deliver it; whether one came.  (Between
        games the owner answers the page itself and queues nothing: it looks at what changed after each
        message, not only when a wait is over -- a "play" must start the game at once.)"""
        raw = self._receive(seconds)
        if raw is not None:
            self._deliver(raw)
        return raw is not None

    def get_nowait(self):  # type: ignore[override]
        return self.get(block=False)
