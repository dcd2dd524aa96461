"""The console lights in every phase, and the visitor's choices, on the kiosk's runner and the real
SIMH: the keyboard loop is looked at too (stopped, examined, continued) without a key ever being lost,
and a choice made in attract mode sets the next visitor game's panel."""

from __future__ import annotations

import pytest

from python_bridge.exhibit.messages import ClientMessage
from python_bridge.machine.kalah_program import program_symbols
from tests.kiosk.test_runner import Harness

pytestmark = pytest.mark.simh


def test_the_keyboard_loop_is_lit_and_no_key_is_lost(tmp_path, kalah_tape) -> None:
    """Attract games with a 1 s pause before each demonstration move: the lamps are sampled at the
    keyboard loop (the switches as set), and every answer typed after a look still reaches the PDP-1."""
    with Harness(tmp_path, attract_pause=1.0, level=1, attract_level=1) as h:
        h.wait(lambda: sum(m["type"] == "lights" and m["phase"] == "waiting" for m in list(h.messages)) >= 6,
               timeout=60, what="lights at the keyboard loop")
        h.wait(lambda: h.runner.stats.attract_games >= 1, timeout=90, what="a whole attract game")
        health = h.runner.health()
        waiting = [m for m in list(h.messages) if m["type"] == "lights" and m["phase"] == "waiting"]
    top = max(program_symbols().values())
    assert all(0o100 <= m["pc"] <= top for m in waiting)
    panel = h.runner.panel
    assert {(m["ss"], m["tw"]) for m in waiting} <= {(h.config.panel(f).switches(), h.config.panel(f).test_word())
                                                     for f in (True, False)}
    assert panel.test_word() & 0o77 == 0o43  # 4 pits, 3 seeds: the test word the lamps show
    assert health["restarts"] == 0 and health["errors"] == 0 and health["mismatches"] == 0


def test_a_choice_in_attract_mode_sets_the_next_visitor_game(tmp_path, kalah_tape) -> None:
    with Harness(tmp_path, pits=6, seeds=4, level=0) as h:
        h.wait(lambda: h.state()["phase"] in ("demo_turn", "thinking", "typing"), what="attract mode")
        assert h.state()["choices"] == {"games": ["quick", "classic"], "strengths": ["gentle", "fair", "full"],
                                        "game": "classic", "strength": "full"}
        answers: list[dict] = []
        for choice in (("game", "quick"), ("strength", "gentle")):
            assert h.runner.submit(ClientMessage("choose", choice=choice), answers.append) is None
        h.wait(lambda: len(answers) == 2, what="the choices taken")
        assert h.state()["choices"]["game"] == "quick" and h.state()["choices"]["strength"] == "gentle"
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        settings = h.state()["board"]["settings"]
        assert (settings["pits"], settings["seeds"], settings["level"]) == (4, 3, 1)
        # during a game no choice is taken
        assert h.runner.submit(ClientMessage("choose", choice=("game", "classic")), answers.append) is not None
