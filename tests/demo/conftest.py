"""The demonstration's fixtures: a wall clock that sleeping moves on, so paced shows run without waiting."""

from __future__ import annotations

import pytest


class FakeClock:
    """Wall time for a paced show without waiting for it: sleeping moves the clock on, and is counted."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()
