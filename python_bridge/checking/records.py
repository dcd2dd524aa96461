"""A finished game's record checked by the reference alone: every move legal, every PDP-1 choice the one the
reference makes, the result the end the moves reach.

Why: the browser edition plays the game on a PDP-1 in the visitor's own browser, and what reaches the server
is the record the page sends.  A page can be edited, so the server believes nothing in it: it plays the moves
again by the reference's rules (``driver.game_records.replay_steps``, the one replayer), asks the reference's
decision wherever the PDP-1 was to choose (``driver.search_pool.reference_decision``, the one the
cross-checker asks), and compares.  A record that differs anywhere is refused with one line saying where,
and nothing of it is kept.  The cost is the searches: at the levels a site offers a few milliseconds each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from ..driver.game_records import (
    SIDE_NAMES,
    RecordError,
    SavedGame,
    check_complete,
    read_game_record,
    replay_steps,
    states_an_end,
)
from ..driver.search_pool import Decision, reference_decision
from ..machine.transcript import FIRST_PLAYERS
from ..reference.game import Game
from ..reference.rules import NORTH, SOUTH, Position, Variants

PDP1 = "pdp-1"
SWAP = "swap"
REMEMBERED = 20_000  # decisions kept (a few MB): the openings every visitor's games share are searched once

# The reference's decision, remembered: the same position, rules and level always get the same decision (the
# search is deterministic), and a site's records share their first moves (the PDP-1's opening, the visitors'
# favourite replies); a server checking records checks those once a process.
remembered_decision = lru_cache(maxsize=REMEMBERED)(reference_decision)


class RecordRefused(RecordError):
    """A record that is not the whole, true game of a PDP-1 that plays as the reference does: one line."""


@dataclass(frozen=True)
class CheckedRecord:
    """A record that passed: the game, and how many of its moves were the PDP-1's choices, each checked."""

    saved: SavedGame
    choices_checked: int


def check_record(text: str, levels: frozenset[int] | None = None,
                 decide: Callable[[Position, Variants, int, bool], Decision] = remembered_decision) -> CheckedRecord:
    """``text``'s game, checked; ``RecordRefused`` (one line) for anything the reference would not have played.

    ``levels``: the levels (0: the default level) a record may name, those the site offers, so that a record
    cannot make the server search deeper than its own games do; None takes any."""
    try:
        saved = read_game_record(text)
    except RecordError as unreadable:
        raise RecordRefused(str(unreadable)) from None
    level = 0 if saved.level == "auto" else int(saved.level)
    if levels is not None and level not in levels:
        offered = ", ".join("auto" if n == 0 else str(n) for n in sorted(levels))
        raise RecordRefused(f"the record's level {saved.level} is not one this site plays (it plays {offered})")
    if saved.first not in FIRST_PLAYERS:
        raise RecordRefused("the record does not say who moved first (first: you, pdp-1 or both)")
    if not states_an_end(saved.result):
        raise RecordRefused(f"the record is of no finished game (result: {saved.result})")
    before = Game.new(saved.pits, saved.seeds, saved.variants)  # a move behind the replay: where each was chosen
    checked = 0
    seats = (saved.player(NORTH, before), saved.player(SOUTH, before))
    try:
        for step in replay_steps(saved):
            if step.player in (PDP1, *SIDE_NAMES.values()):  # the PDP-1's choice ("both": the sides' names)
                _check_choice(step.number, step.move, before, level, decide)
                checked += 1
            before.apply(step.move)
            seats = (step.north, step.south)
        check_complete(saved, before.position, *seats)
    except RecordRefused:
        raise
    except RecordError as wrong:
        raise RecordRefused(str(wrong)) from None
    return CheckedRecord(saved, checked)


def _check_choice(number: int, move: int | str, game: Game, level: int,
                  decide: Callable[[Position, Variants, int, bool], Decision]) -> None:
    """The PDP-1's move ``number`` must be the reference's decision in ``game``'s position (before the move)."""
    swap, pit, _depth, _nodes = decide(game.position, game.variants, level, game.swap_offered)
    wanted: int | str = SWAP if swap else pit
    if move != wanted:
        raise RecordRefused(f"move {number}: the PDP-1 would have played {wanted}, not {move} "
                            "(the reference's choice at the record's level)")
