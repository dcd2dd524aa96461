"""The demonstration's pacer (``demo.pacing``) without an emulator: the typewriter's pace, 1960 time."""

from __future__ import annotations

import pytest

from python_bridge.demo.pacing import Pacer


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_the_typewriter_types_ten_characters_a_second() -> None:
    clock = Clock()
    pacer = Pacer(True, lambda: clock.now, clock.sleep)
    times = []
    for _ in range(5):
        pacer.character()
        times.append(clock.now)
    assert times == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    clock.now = 10.0  # the machine was busy: the next character comes when it is typed
    pacer.character()
    assert clock.now == 10.0
    pacer.run_for(clock.now, 400_000)  # two seconds of 1960 time
    assert clock.now == pytest.approx(12.0)
    fast = Pacer(False, lambda: clock.now, clock.sleep)
    fast.character()
    fast.run_for(0.0, 10**9)
    assert clock.now == pytest.approx(12.0)
