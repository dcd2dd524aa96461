"""The driver's pacer (``driver.pacing``) without an emulator: the typewriter's pace, 1960 time."""

from __future__ import annotations

import pytest

from python_bridge.driver.pacing import Pacer
from python_bridge.machine.cycles import CYCLES_PER_SECOND


def test_the_typewriter_types_ten_characters_a_second(fake_clock) -> None:
    clock = fake_clock
    pacer = Pacer.at_1960_speed(clock=lambda: clock.now, sleep=clock.sleep)
    times = []
    for _ in range(5):
        pacer.character()
        times.append(clock.now)
    assert times == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    clock.now = 10.0  # the machine was busy: the next character comes when it is typed
    pacer.character()
    assert clock.now == 10.0
    pacer.run_for(clock.now, 400_000, pacer.thinking_rate)  # two seconds of 1960 time
    assert pacer.thinking_rate == CYCLES_PER_SECOND and pacer.think_slice() == 10_000
    assert clock.now == pytest.approx(12.0)
    fast = Pacer(clock=lambda: clock.now, sleep=clock.sleep)
    fast.character()
    fast.run_for(0.0, 10**9, fast.thinking_rate)
    assert not fast.counted and fast.think_slice() == 65_536
    assert clock.now == pytest.approx(12.0)
