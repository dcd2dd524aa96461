"""OpenSpiel's ``mancala`` plays our Kalah(6,4) with the standard rules: checked before its bots are trusted.

The strength benchmark (``make bench-strength``) plays the default level against
OpenSpiel's bots on OpenSpiel's own game, so the two games must be one.  Seeded random
games are played in both engines side by side; at every ply the legal moves, the board
(pits and stores, through ``bench.openspiel_layout``) and the side to move must agree,
and both games must end at the same ply.  Two differences are known and looked for:
OpenSpiel's capture rule is our standard one (no capture opposite an empty pit), which
random games meet often, and OpenSpiel leaves the end-of-game sweep off its board (its
result counts each side's pits and store), so its last board plus the sweep must be ours.

open_spiel is an optional package (``make bench-strength`` installs it, ``make test`` does
not): without it the OpenSpiel tests are skipped, the layout's own tests still run.
"""

from __future__ import annotations

import random

import pytest

from python_bridge.bench.openspiel_layout import PITS, SIDE_OF, STORE_OF, action_of, our_board, pit_of, their_board
from python_bridge.reference.rules import (
    NORTH,
    SOUTH,
    STANDARD,
    Variants,
    pit_index,
    play,
    start_position,
    store_index,
    winner,
)

GAMES = 400
SEED = 13


@pytest.fixture(scope="module")
def mancala():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (make bench-strength installs it)")
    return pyspiel.load_game("mancala")


def test_the_layout_maps_every_pit_and_count_one_to_one() -> None:
    actions = {action_of(side, pit): (side, pit) for side in (SOUTH, NORTH) for pit in range(1, PITS + 1)}
    assert sorted(actions) == [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]
    assert all(pit_of(action) == where for action, where in actions.items())
    numbered = tuple(range(100, 114))
    assert their_board(our_board(numbered)) == numbered and our_board(their_board(numbered)) == numbered
    ours = our_board(numbered)
    assert (ours[store_index(PITS, SOUTH)] == numbered[STORE_OF[0]]
            and ours[store_index(PITS, NORTH)] == numbered[STORE_OF[1]])
    for side in (SOUTH, NORTH):
        for pit in range(1, PITS + 1):
            assert ours[pit_index(PITS, side, pit)] == numbered[action_of(side, pit)]
    for bad in (0, 7, 14, -1):
        with pytest.raises(ValueError):
            pit_of(bad)


def test_the_start_and_the_first_player_are_ours(mancala) -> None:
    state = mancala.new_initial_state()
    assert our_board(state.observation_tensor(0)) == start_position(PITS, 4).board
    assert SIDE_OF[state.current_player()] == SOUTH


def test_seeded_random_games_agree_at_every_ply(mancala) -> None:
    rng = random.Random(SEED)
    plies = empty_opposite = swept = 0
    for _ in range(GAMES):
        ours, theirs = start_position(PITS, 4), mancala.new_initial_state()
        while not ours.over:
            where = f"after {plies} plies"
            assert not theirs.is_terminal(), where
            assert SIDE_OF[theirs.current_player()] == ours.to_move, where
            assert theirs.legal_actions() == sorted(action_of(ours.to_move, p) for p in ours.legal_pits()), where
            assert our_board(theirs.observation_tensor(0)) == ours.board, where
            pit = rng.choice(ours.legal_pits())
            standard = play(ours, pit, STANDARD).position
            if standard != play(ours, pit, Variants(empty_capture=True)).position:
                empty_opposite += 1          # the rules differ here: OpenSpiel must follow the standard one
            theirs.apply_action(action_of(ours.to_move, pit))
            ours, plies = standard, plies + 1
        assert theirs.is_terminal()
        last = our_board(theirs.observation_tensor(0))
        for side in (SOUTH, NORTH):
            left = sum(last[pit_index(PITS, side, 1):pit_index(PITS, side, 1) + PITS])
            swept += left > 0
            assert last[store_index(PITS, side)] + left == ours.store(side)
        result = theirs.returns()
        assert result[0] == -result[1] == {SOUTH: 1.0, NORTH: -1.0, None: 0.0}[winner(ours)]
    assert plies > 20 * GAMES
    assert empty_opposite > 100, "the random games hardly met a capture opposite an empty pit"
    assert swept > GAMES // 2, "OpenSpiel's last boards were swept: the sweep check saw nothing"
