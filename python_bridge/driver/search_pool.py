"""The reference's decisions in worker processes: every core of a host for the cross-checks.

Why: every move the PDP-1 chooses is searched again by the reference before the visitor sees it.  In one
server process the many games' threads take turns at Python's one interpreter lock, so one core does all
the searching while the emulators use the others.  A pool of worker processes (``workers``, one a core by
default) searches beside the server: a game's thread sends the position and waits, the lock released, and
the answer is the same as in the server's own interpreter (the same function, ``reference_decision``).
A worker that dies is replaced: the pool is made again and the question asked once more; should that fail
too, the server answers it itself.  Nothing is left running: the pool is shut down with the server, and a
worker whose server is gone (``kill -9``) sees its parent change and ends within ``ORPHAN_LOOK_S``.  The
workers are spawned (a fresh interpreter each), not forked from a server full of threads and sockets.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, TypeVar

from ..reference.rules import Position, Variants
from ..reference.search import best_move, level_move, level_pie_swap

Decision = tuple[bool, int, int, int]  # (swap?, pit, depth searched, positions visited)
ORPHAN_LOOK_S = 1.0
T = TypeVar("T")
log = logging.getLogger("kalah.search")


def reference_decision(position: Position, variants: Variants, level: int, swap_offered: bool) -> Decision:
    """The reference's decision for the side to move: the level's move (the default level when 0) and, where
    the pie rule offers it, whether to swap."""
    if level == 0:
        swap, chosen = (level_pie_swap(position, variants) if swap_offered else (False, level_move(position, variants)))
        return swap, chosen.pit, chosen.depth, chosen.nodes
    result = best_move(position, level, variants)
    return bool(swap_offered and result.value < 0), result.pit, level, result.nodes


def _end_with_the_server() -> None:
    """In each worker, as it starts: a thread that ends the worker once its server is gone (its parent
    changes), so that a server killed leaves no worker behind."""
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(ORPHAN_LOOK_S)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


class SearchPool:
    """``workers`` processes answering ``decide`` (safe from every game's thread)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._pool = self._made()

    def _made(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_end_with_the_server)

    def decide(self, position: Position, variants: Variants, level: int, swap_offered: bool) -> Decision:
        return self.run(reference_decision, position, variants, level, swap_offered)

    def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in a worker (a module-level function, its arguments and answer picklable): a
        cross-check's search, or a whole record checked (``checking.records``)."""
        for attempt in (1, 2):
            with self._lock:
                pool = self._pool
            try:
                return pool.submit(work, *args).result()
            except BrokenProcessPool:  # a worker died: a new pool, and the question again
                log.warning("a search worker died; its pool is made again (attempt %d)", attempt)
                with self._lock:
                    if self._pool is pool:
                        pool.shutdown(wait=False, cancel_futures=True)
                        self._pool = self._made()
        return work(*args)  # answered here all the same

    def alive(self) -> int:
        """The worker processes running now (started as the first questions come)."""
        return len(self.pids())

    def pids(self) -> list[int]:
        with self._lock:
            processes = dict(getattr(self._pool, "_processes", None) or {})
        return [pid for pid, process in processes.items() if process.is_alive()]

    def close(self) -> None:
        with self._lock:
            self._pool.shutdown(wait=True, cancel_futures=True)
