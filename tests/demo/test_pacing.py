"""The demonstration's pacer (``demo.pacing``) without an emulator: the typewriter's pace, 1960 time."""

from __future__ import annotations

import pytest

from python_bridge.demo.pacing import Pacer


def test_the_typewriter_types_ten_characters_a_second(fake_clock) -> None:
    clock = fake_clock
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
