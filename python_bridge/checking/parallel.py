"""Dealing work out to several emulators: the same items whatever the number of jobs.

``fuzz`` and ``crosscheck`` draw every case from the seed first, then deal
them by index to J worker processes (one emulator each); the results come
back in job order.  The same seed therefore checks the same cases for any J.
"""

from __future__ import annotations

import multiprocessing
from typing import Callable, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def deal(items: Sequence[Item], jobs: int, work: Callable[[list[Item]], Result]) -> list[Result]:
    """Run ``work`` on items j, j+J, j+2J... in job j; one job runs here, in this process.

    Never more jobs than items: a job with nothing to do would still fork a process.
    """
    jobs = max(1, min(jobs, len(items)))
    shares = [list(items[j::jobs]) for j in range(jobs)]
    if jobs == 1:
        return [work(shares[0])]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return pool.map(work, shares)
