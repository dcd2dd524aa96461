"""The browser edition's server benchmark: its records are whole games the reference's check passes, in
every shipped size and strength and with either side first; a short run against a real server prints its row."""

from __future__ import annotations

import random
import re

from python_bridge.bench.records_intake import browser_record, measure_intake
from python_bridge.checking.records import check_record
from python_bridge.exhibit.settings import GAME_CHOICES, STRENGTH_CHOICES


def test_the_records_are_finished_games_of_every_shipped_kind() -> None:
    rng = random.Random(3)
    kinds = set()
    for number in range(2 * len(GAME_CHOICES) * len(STRENGTH_CHOICES)):
        checked = check_record(browser_record(number, rng), frozenset(STRENGTH_CHOICES.values()))
        saved = checked.saved
        kinds.add((saved.pits, saved.seeds, saved.level, saved.first))
        assert checked.choices_checked > 0 and saved.transcript.count("\n") == len(saved.moves) - 1
    assert len(kinds) == 2 * len(GAME_CHOICES) * len(STRENGTH_CHOICES)


def test_a_short_run_prints_its_row() -> None:
    intake = measure_intake(4, seed=2)
    assert len(intake.seconds) == 4 and all(0 < s < 30 for s in intake.seconds) and intake.cpu > 0
    assert re.fullmatch(r"4 records: median [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms; the server's CPU [\d.]+ ms a "
                        r"record \(target p95 <= 50 ms, one core: (met|NOT met)\)", intake.row())
