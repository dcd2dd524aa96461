"""The exhibit's session tells the driver when its paper takes the typewriter's time: at the 1960 pace, and
whenever ``typewriter_cps`` is set; then the PDP-1 sleeps while a line is typed (tests/driver/test_paced_echo.py)."""

from __future__ import annotations

import logging

import pytest

from python_bridge.exhibit.game_session import GameSession
from python_bridge.exhibit.settings import GameSettings


@pytest.mark.parametrize("settings, paced", [
    (GameSettings(speed="authentic"), True),
    (GameSettings(speed="fast"), False),
    (GameSettings(speed="fast", typewriter_cps=10.0), True),
    (GameSettings(speed="authentic", typewriter_cps=0.0), False),
], ids=["1960", "fast", "fast-paper-paced", "1960-paper-at-once"])
def test_the_session_paces_its_echo_when_its_paper_is_paced(settings: GameSettings, paced: bool) -> None:
    session = GameSession(settings, lambda _message: None, object(), logging.getLogger("test"))  # type: ignore[arg-type]
    assert session.paces_echo is paced
