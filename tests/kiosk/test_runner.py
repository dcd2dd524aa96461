"""The kiosk's runner in-process on the real SIMH: attract games, paced thinking and its lights,
a cross-check mismatch made by damaging the PDP-1's memory, idle visitors, a killed emulator."""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from python_bridge.exhibit.messages import ClientMessage
from python_bridge.kiosk.config import KioskConfig
from python_bridge.kiosk.runner import KioskRunner
from python_bridge.machine.kalah_program import program_symbols
from tests.processes import kept_hung

pytestmark = pytest.mark.simh


class Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record) if record.exc_info else record.getMessage())


class Harness:
    """A runner with everything it publishes and logs kept for the test to look at."""

    def __init__(self, tmp: Path, **settings: object) -> None:
        base = dict(pits=4, seeds=3, level=3, attract_level=3, speed="fast", attract_seed=1960, attract_pause=0.0,
                    end_pause=0.0,
                    idle_seconds=30.0, countdown_seconds=2.0, watchdog_seconds=3.0, state_dir=tmp / "state")
        base.update(settings)
        self.config = KioskConfig(**base)  # type: ignore[arg-type]
        self.messages: list[dict] = []
        self.lock = threading.Lock()
        self.log = logging.getLogger(f"kiosk-test-{id(self)}")
        self.log.propagate = False
        self.log.setLevel(logging.INFO)
        self.recorder = Recorder()
        self.log.addHandler(self.recorder)
        self.runner = KioskRunner(self.config, self.publish, self.log)

    def publish(self, message: dict) -> None:
        with self.lock:
            self.messages.append(message)

    def wait(self, condition, timeout: float = 30, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}; log: {self.recorder.lines[-8:]}"
            assert self.runner.alive, "the runner thread died"
            time.sleep(0.02)

    def state(self) -> dict:
        return self.runner.snapshot()["state"]

    def submit(self, kind: str, pit: int | None = None) -> str | None:
        """A message from the page; a move or swap answers the question on show."""
        answers: list[dict] = []
        turn = self.state()["turn"] if kind in ("move", "swap") else None
        return self.runner.submit(ClientMessage(kind, pit, turn), answers.append)

    def __enter__(self) -> "Harness":
        self.runner.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.runner.stop()
        self.log.removeHandler(self.recorder)


def _records(lines: list[str]) -> list[str]:
    return [m.group(1) for line in lines if (m := re.search(r"over: .*; record (.*?);", line))]


def test_attract_games_differ_and_every_move_is_checked(tmp_path, kalah_tape) -> None:
    with Harness(tmp_path) as h:
        h.wait(lambda: h.runner.stats.attract_games >= 4, what="four attract games")
        stats = h.runner.stats
        records = _records(h.recorder.lines)
    assert stats.mismatches == 0 and stats.errors == 0 and stats.restarts == 0, h.recorder.lines
    assert all(a != b for a, b in zip(records, records[1:], strict=False)), records  # successive games differ
    assert len(set(records[:4])) == 4
    assert all("moves cross-checked" in line for line in h.recorder.lines if "over:" in line)
    # the same seed plays the same series again (tests and operators can rely on it)
    with Harness(tmp_path / "again") as again:
        again.wait(lambda: again.runner.stats.attract_games >= 2, what="two attract games")
        assert _records(again.recorder.lines)[:2] == records[:2]


def test_paced_thinking_shows_the_console_lights_in_1960_time(tmp_path, kalah_tape) -> None:
    """Paced at 50,000 memory cycles a second, the PDP-1's thinking is sampled several times; the
    lights are real registers (PC inside the program), the time grows, and it is 1960 time."""
    with Harness(tmp_path, level=6, attract_level=6, think_rate=50_000) as h:
        h.wait(lambda: any(m.get("done") for m in list(h.messages) if m["type"] == "lights"), what="a thought")
        lights = [m for m in list(h.messages) if m["type"] == "lights"]
    first_thought = lights[:next(i for i, m in enumerate(lights) if m.get("done")) + 1]
    assert len(first_thought) >= 3, first_thought
    top = max(program_symbols().values())
    assert all(0o100 <= m["pc"] <= top and 0 <= m["ac"] < 2**18 and 0 <= m["pf"] < 64 for m in first_thought)
    seconds = [m["seconds"] for m in first_thought]
    assert seconds == sorted(seconds) and seconds[-1] > 0.05  # memory cycles / 200,000
    assert len({(m["ac"], m["pc"]) for m in first_thought}) > 1  # the lamps change as it thinks
    # the log holds the choice's instructions, memory cycles and 1960 seconds, the lamps' last time
    logged = [re.search(r"thought (\d+) instructions, (\d+) memory cycles, ([\d.]+) s", line)
              for line in h.recorder.lines]
    instructions, cycles, secs = next(m for m in logged if m).groups()
    assert int(instructions) < int(cycles) < 3 * int(instructions)
    assert abs(float(secs) - int(cycles) * 5e-6) <= 0.005
    assert abs(first_thought[-1]["seconds"] - int(cycles) * 5e-6) <= 0.005


def test_a_mismatch_is_logged_with_its_reproduction_and_a_clean_game_follows(tmp_path, kalah_tape) -> None:
    board = program_symbols()["bd"]

    def damage(sim) -> None:  # one more seed in the program's pit 1: its board no longer matches
        sim.deposit(board, sim.examine(board) + 1)

    with Harness(tmp_path, think_rate=1_000_000) as h:  # a counted pace: the PDP-1 stops where it thinks
        h.wait(lambda: h.state()["phase"] == "thinking" or h.runner.stats.games_played > 0, what="a game")
        h.runner.inject_at_next_think(damage)
        h.wait(lambda: h.runner.stats.mismatches == 1, what="the mismatch")
        game = h.runner.game_no
        h.wait(lambda: h.runner.stats.attract_games >= 1 and h.runner.game_no > game, what="a clean game after it")
        report = "\n".join(h.recorder.lines)
        health = h.runner.health()
    assert "CROSS-CHECK MISMATCH" in report and "reproduce: python -m python_bridge ref best" in report
    assert health["status"] == "ok" and health["mismatches"] == 1 and health["errors"] == 0
    phases = [m.get("phase") for m in h.messages if m["type"] == "state"]
    assert "one_moment" in phases  # what the visitor saw: a short notice, no crash


def test_a_mismatch_in_a_visitors_game_stops_it_until_a_new_game_is_asked_for(tmp_path, kalah_tape) -> None:
    """The visitor's game stops where it stands and the page is told (phase ``mismatch``: a board, not a choice,
    differed, so no moves are named); nothing can be played; "new game" starts a clean visitor game."""
    board = program_symbols()["bd"]
    with Harness(tmp_path, think_rate=1_000_000) as h:
        h.wait(lambda: h.state()["mode"] == "attract", what="attract mode")
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        h.runner.inject_at_next_think(lambda sim: sim.deposit(board, sim.examine(board) + 1))
        assert h.submit("move", h.state()["legal"][0]) is None
        h.wait(lambda: h.state()["phase"] == "mismatch", what="the game stopped")
        stopped, game = h.state(), h.runner.game_no
        assert h.submit("move", 1) == "not your turn"
        assert h.submit("new_game") is None
        h.wait(lambda: h.runner.game_no > game and h.state()["phase"] == "your_turn", what="a new visitor game")
        new = h.state()
    assert stopped["mode"] == "visitor" and stopped["legal"] == [] and stopped["countdown"] is None
    assert stopped["mismatch"] == {"pdp1": None, "reference": None}
    assert new["mode"] == "visitor" and new["mismatch"] is None
    assert h.runner.stats.mismatches == 1 and h.runner.stats.errors == 0
    assert any("cross-check mismatch" in line and "the game is stopped" in line for line in h.recorder.lines)


def test_an_idle_visitor_sees_the_countdown_then_attract_mode(tmp_path, kalah_tape) -> None:
    with Harness(tmp_path, idle_seconds=1.0, countdown_seconds=2.0) as h:
        h.wait(lambda: h.state()["phase"] in ("thinking", "demo_turn", "typing"), what="attract mode")
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        h.wait(lambda: h.state()["countdown"] == 2, timeout=5, what="the countdown")
        assert h.submit("touch") is None  # still there: the countdown goes away
        h.wait(lambda: h.state()["countdown"] is None, timeout=5, what="the countdown withdrawn")
        h.wait(lambda: h.state()["mode"] == "attract", timeout=10, what="back to attract mode")
        countdowns = [m["countdown"] for m in h.messages if m["type"] == "state" and m["countdown"]]
    assert 2 in countdowns and 1 in countdowns
    assert any("back to attract mode" in line for line in h.recorder.lines)
    # the game left is in the log with everything played in it (here: nothing yet)
    assert any(re.search(r"game \d+ \(visitor\) left after 0 moves \(record -\)", line) for line in h.recorder.lines), \
        h.recorder.lines


def test_a_killed_emulator_is_replaced_and_the_visitor_loses_nothing(tmp_path, kalah_tape) -> None:
    with Harness(tmp_path) as h:
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        assert h.submit("move", h.state()["legal"][0]) is None
        h.wait(lambda: h.state()["phase"] == "your_turn" and h.state()["last"] is not None, what="the reply")
        board, turn = h.state()["board"], h.state()["turn"]
        pid = h.runner.health()["pdp1_pid"]
        os.kill(pid, signal.SIGKILL)  # while the visitor decides
        h.wait(lambda: h.runner.stats.restarts == 1, what="the restart")
        h.wait(lambda: h.state()["phase"] == "your_turn" and h.state()["notice"] is None,
               what="the game back (the PDP-1 asking again)")
        # the same question, with the same turn: a tap sent for it is played
        assert h.state()["board"] == board and h.state()["turn"] == turn and h.runner.health()["pdp1_pid"] != pid
        # a hung one (asleep or not), found when the visitor moves.  (Woken for the key, it may answer inside the
        # 20 ms before it is stopped again, and be put to sleep after its next question's look: then the move after
        # that finds it.)
        with kept_hung(h.runner.health()["pdp1_pid"]):
            deadline, moved = time.monotonic() + 15, None
            while h.runner.stats.restarts < 2:
                assert time.monotonic() < deadline, f"the hung emulator never replaced: {h.recorder.lines[-4:]}"
                state = h.state()
                if state["phase"] == "your_turn" and state["notice"] is None and state["turn"] != moved:
                    assert h.submit("move", state["legal"][0]) is None
                    moved = state["turn"]
                time.sleep(0.02)
        h.wait(lambda: h.state()["phase"] in ("your_turn", "game_over"), what="the game going on")
        assert h.runner.stats.mismatches == 0


def test_a_pdp1_killed_after_its_look_before_it_sleeps_is_replaced(tmp_path, kalah_tape, monkeypatch) -> None:
    """The waiting PDP-1 is looked at as it asks, then put to sleep.  One that dies in between (here: never put
    to sleep, and killed after its look) is found within a second or two and replaced, the game restored."""
    from python_bridge.machine.simh_process import SimhProcess

    monkeypatch.setattr(SimhProcess, "suspend", lambda self: None)  # the window between look and sleep, held open
    with Harness(tmp_path) as h:
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        turn = h.state()["turn"]
        h.wait(lambda: any(m["type"] == "lights" and m["phase"] == "waiting" for m in list(h.messages)),
               what="the look at the waiting PDP-1")
        os.kill(h.runner.health()["pdp1_pid"], signal.SIGKILL)
        h.wait(lambda: h.runner.stats.restarts == 1, timeout=10, what="the restart")
        h.wait(lambda: h.state()["phase"] == "your_turn" and h.state()["notice"] is None,
               what="the game back (the PDP-1 asking again)")
        assert h.state()["turn"] == turn and h.runner.stats.mismatches == 0  # the same question, the same turn


def test_the_swap_button_is_offered_by_the_pie_rule_and_works(tmp_path, kalah_tape) -> None:
    from python_bridge.reference.rules import Variants

    with Harness(tmp_path, variants=Variants(pie_rule=True), first="pdp-1") as h:
        assert h.submit("swap") == "no swap on offer now"
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        state = h.state()
        assert state["swap"] and state["last"]["player"] == "pdp-1" and state["last"]["pit"] is not None
        assert "text" not in state["last"]  # identifiers and numbers only: the page has the words
        before = state["board"]
        assert h.submit("swap") is None
        def swapped() -> list[dict]:
            return [m for m in list(h.messages) if m["type"] == "state" and m["last"]
                    and m["last"]["player"] == "you" and m["last"]["swap"]]

        h.wait(lambda: bool(swapped()), what="the swap")
        after = swapped()[0]["board"]
        # the visitor now owns the PDP-1's opening: the rows change places on the page
        assert after["bottom"] == list(reversed(before["top"])) and after["top_store"] == before["bottom_store"]
        h.wait(lambda: h.state()["phase"] in ("your_turn", "game_over"), what="the game going on")
        assert not h.state()["swap"] and h.submit("swap") == "no swap on offer now"
        assert h.runner.stats.mismatches == 0


def test_health_names_a_stopped_loop_and_a_full_disk(tmp_path, kalah_tape) -> None:
    """The runner's own checks, with no thread running: each problem is one line, and any turns health to failing.
    (An unwritable log and failing saves: test_hostile.py, with state_dir replaced by a file.)"""
    h = Harness(tmp_path, min_free_mb=1_000_000)  # a million MB: no disk here is that empty
    report = h.runner.health()
    problems = " | ".join(report["problems"])
    assert report["status"] == "failing" and "the game loop has stopped" in problems  # never started
    assert "the disk is nearly full" in problems and "min_free_mb = 1000000" in problems
    fine = Harness(tmp_path / "fine")
    with fine:
        fine.wait(lambda: fine.runner.health()["status"] == "ok", what="a healthy runner")
        assert fine.runner.health()["problems"] == []


def test_touch_to_play_while_the_demo_thinks_starts_the_visitor_game_without_a_failure(tmp_path, kalah_tape) -> None:
    """The attract game left while the PDP-1 thinks (stopped between two steps): the program is started
    again at 100 on the same emulator, with no warning and no restart."""
    with Harness(tmp_path, level=6, attract_level=6, think_rate=50_000, idle_seconds=1.0,
                 countdown_seconds=1.0) as h:
        for _ in range(3):
            h.wait(lambda: h.state()["mode"] == "attract" and h.state()["phase"] == "thinking",
                   what="the demo thinking")
            assert h.submit("play") is None
            h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
            h.wait(lambda: h.state()["mode"] == "attract", timeout=60, what="back to attract mode (idle)")
        stats = h.runner.stats
    assert stats.restarts == 0 and stats.errors == 0, h.recorder.lines
    assert not [line for line in h.recorder.lines if "failed" in line], h.recorder.lines


def test_a_finished_game_left_idle_counts_as_played_not_aborted(tmp_path, kalah_tape) -> None:
    """A visitor game played to its end, then nobody touches the screen: back to attract mode, the game
    counted once (played), never as aborted too."""
    with Harness(tmp_path, pits=1, seeds=1, level=1, idle_seconds=1.0, countdown_seconds=1.0) as h:
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game")
        assert h.submit("move", 1) is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "game_over", what="its end")
        h.wait(lambda: h.state()["mode"] == "attract", timeout=30, what="back to attract mode")
        stats = h.runner.stats
    assert stats.visitor_games == 1 and stats.aborted_games == 0, h.recorder.lines


def test_new_game_touched_while_the_last_line_is_typed_starts_the_next_game(tmp_path, kalah_tape) -> None:
    """The result shows (and the new-game button with it) as soon as the winner's line is typed; a touch
    on "new game" while the PDP-1 still types its last line (paced) is kept, not lost."""
    with Harness(tmp_path, pits=1, seeds=1, level=1, typewriter_cps=30.0) as h:
        assert h.submit("play") is None
        h.wait(lambda: h.state()["mode"] == "visitor" and h.state()["phase"] == "your_turn", what="a visitor game",
               timeout=60)
        assert h.submit("move", 1) is None
        h.wait(lambda: h.state()["phase"] == "game_over", what="its end", timeout=60)
        first = h.state()["game"]
        assert h.submit("new_game") is None  # the last line ("type any key...") takes about 1 s to type
        h.wait(lambda: h.state()["game"] > first and h.state()["mode"] == "visitor", timeout=60,
               what="the next visitor game")
        assert not [line for line in h.recorder.lines if "rejected" in line and "new_game" in line]



def test_fast_mode_runs_the_thinking_free_on_a_throttled_emulator(tmp_path, kalah_tape) -> None:
    """Fast: no breakpoints at the thinking (no cycle counting to wait for), which runs flat out; the
    emulator throttled while it waits for a key, so that its keyboard loop idles instead of spinning a
    core; the brief form's board read from core; games still cross-checked."""
    from python_bridge.machine.simh import FULL_SPEED, IDLE_SPEED

    with Harness(tmp_path) as h:
        h.wait(lambda: h.runner.stats.attract_games >= 2, what="two attract games")
        driver = h.runner.driver
        assert driver.config == FULL_SPEED and driver.waiting_config == IDLE_SPEED
        assert not driver.pacer.counted and driver.panel.brief
        assert driver.breakpoints == (program_symbols()["shbd"],)
        assert h.runner.stats.mismatches == 0 and h.runner.stats.errors == 0
