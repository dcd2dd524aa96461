"""Every rule and variant of ``kalah_rules``, on positions worked out by hand from the rule text.

Boards are written in the position notation (South pits 1..m, South store,
North pits 1..m, North store, side to move) so each case reads like the issue.
The property tests at the end check invariants on random games.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from python_bridge.reference.game import Game
from python_bridge.reference.notation import SWAP, format_position, parse_position
from python_bridge.reference.rules import (
    NORTH,
    SOUTH,
    STANDARD,
    Position,
    RulesError,
    Variants,
    pit_index,
    play,
    sowing_indices,
    start_position,
    store_index,
    winner,
)
from python_bridge.reference.search import move_order

EMPTY_CAPTURE = Variants(empty_capture=True)
DEFERRED = Variants(deferred_end=True)
VOID = Variants(remainder_void=True)
PIE = Variants(pie_rule=True)


def after(text: str, pit: int, variants: Variants = STANDARD) -> str:
    """The notation of the position after playing ``pit`` in ``text``."""
    return format_position(play(parse_position(text), pit, variants).position)


# --- the start -------------------------------------------------------------------


def test_start_of_standard_kalah() -> None:
    assert format_position(start_position()) == "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"


def test_start_of_small_board() -> None:
    assert format_position(start_position(2, 3)) == "3 3 0 3 3 0 s"


@pytest.mark.parametrize("m, n", [(0, 4), (7, 4), (6, 0), (6, 7)])
def test_start_out_of_range(m: int, n: int) -> None:
    with pytest.raises(RulesError):
        start_position(m, n)


# --- sowing ----------------------------------------------------------------------


def test_sowing_passes_the_turn() -> None:
    # Pit 1's four seeds go to pits 2, 3, 4, 5; the last lands in a non-empty pit.
    assert after("4 4 4 4 4 4 0 4 4 4 4 4 4 0 s", 1) == "0 5 5 5 5 4 0 4 4 4 4 4 4 0 n"


def test_south_skips_north_store() -> None:
    # Ten seeds from pit 6: South's store, North's six pits, (North's store skipped), South pits 1-3.
    assert after("1 1 1 1 1 10 0 1 1 1 1 1 1 0 s", 6) == "2 2 2 1 1 0 1 2 2 2 2 2 2 0 n"


def test_north_skips_south_store() -> None:
    # Eight seeds from North pit 6: North's store, South's six pits, (South's store skipped), North pit 1.
    assert after("1 1 1 1 1 1 5 2 0 0 0 0 8 3 n", 6) == "2 2 2 2 2 2 5 3 0 0 0 0 0 4 s"


def test_lap_gives_the_emptied_pit_a_seed() -> None:
    # Fourteen seeds from pit 1: one full lap of 13 (pit 1 gets one), the 14th in pit 2 (now 2: no capture).
    assert after("14 0 0 0 0 0 0 1 0 0 0 0 0 0 s", 1) == "1 2 1 1 1 1 1 2 1 1 1 1 1 0 n"


def test_lap_ending_in_the_emptied_pit_captures() -> None:
    # Thirteen seeds from pit 1: the last returns to pit 1, emptied by the move, facing North pit 6 (2+1 seeds).
    result = play(parse_position("13 0 0 0 0 0 0 0 0 0 0 0 2 0 s"), 1)
    assert format_position(result.position) == "0 1 1 1 1 1 5 1 1 1 1 1 0 0 n"
    assert result.captured == 4


def test_small_board_sowing_wraps_around() -> None:
    # m = 2: six seeds from South pit 1 -> pit 2, store, North 1, North 2, (skip), pit 1, pit 2 (now 2: no capture).
    assert after("6 0 0 1 1 0 s", 1) == "1 2 1 2 2 0 n"


def test_small_board_lap_captures_in_the_emptied_pit() -> None:
    # m = 2: five seeds from South pit 1 end in pit 1 itself, facing North pit 2 (1+1 seeds).
    result = play(parse_position("5 0 0 1 1 0 s"), 1)
    assert format_position(result.position) == "0 1 4 2 0 0 n"
    assert result.captured == 3


# --- extra turn --------------------------------------------------------------------


def test_last_seed_in_own_store_moves_again() -> None:
    result = play(start_position(), 3)
    assert format_position(result.position) == "4 4 0 5 5 5 1 4 4 4 4 4 4 0 s"
    assert result.extra_turn and result.mover == SOUTH


def test_north_extra_turn() -> None:
    # North pit 4 holds 3 seeds: pits 5, 6, store.
    result = play(parse_position("4 4 4 4 4 4 0 4 4 4 3 4 4 0 n"), 4)
    assert format_position(result.position) == "4 4 4 4 4 4 0 4 4 4 0 5 5 1 n"
    assert result.extra_turn


# --- capture ----------------------------------------------------------------------


def test_capture_takes_the_last_seed_and_the_opposite_pit() -> None:
    # Pit 1 (2 seeds) -> pit 2, pit 3 (empty); pit 3 faces North pit 4 (5 seeds): 6 to the store.
    result = play(parse_position("2 1 0 1 1 1 0 1 1 1 5 1 1 0 s"), 1)
    assert format_position(result.position) == "0 2 0 1 1 1 6 1 1 1 0 1 1 0 n"
    assert result.captured == 6 and not result.extra_turn


def test_north_captures() -> None:
    # North pit 2 (1 seed) -> North pit 3 (empty), facing South pit 4 (3 seeds).
    result = play(parse_position("1 1 1 3 1 1 0 1 1 0 1 1 1 0 n"), 2)
    assert format_position(result.position) == "1 1 1 0 1 1 0 1 0 0 1 1 1 4 s"
    assert result.captured == 4


def test_no_capture_opposite_an_empty_pit() -> None:
    result = play(parse_position("2 1 0 1 1 1 0 1 1 1 0 1 1 0 s"), 1)
    assert format_position(result.position) == "0 2 1 1 1 1 0 1 1 1 0 1 1 0 n"
    assert result.captured == 0


def test_empty_capture_stores_the_landing_seed() -> None:
    result = play(parse_position("2 1 0 1 1 1 0 1 1 1 0 1 1 0 s"), 1, EMPTY_CAPTURE)
    assert format_position(result.position) == "0 2 0 1 1 1 1 1 1 1 0 1 1 0 n"
    assert result.captured == 1


def test_empty_capture_still_takes_the_opposite_seeds() -> None:
    result = play(parse_position("2 1 0 1 1 1 0 1 1 1 5 1 1 0 s"), 1, EMPTY_CAPTURE)
    assert format_position(result.position) == "0 2 0 1 1 1 6 1 1 1 0 1 1 0 n"


def test_no_capture_in_an_empty_pit_of_the_opponent() -> None:
    # Pit 6 (2 seeds) -> store, North pit 1 (empty): never a capture on the other side.
    assert after("1 0 0 0 0 2 0 0 3 0 0 0 0 0 s", 6) == "1 0 0 0 0 0 1 1 3 0 0 0 0 0 n"
    assert after("1 0 0 0 0 2 0 0 3 0 0 0 0 0 s", 6, EMPTY_CAPTURE) == "1 0 0 0 0 0 1 1 3 0 0 0 0 0 n"


def test_no_capture_in_a_pit_that_was_not_empty() -> None:
    # Pit 2 (1 seed) -> pit 3 holding 2: now 3, no capture although North pit 4 is full.
    assert after("0 1 2 1 1 1 0 1 1 1 5 1 1 0 s", 2) == "0 0 3 1 1 1 0 1 1 1 5 1 1 0 n"


# --- end of game --------------------------------------------------------------------


def test_end_when_the_mover_runs_out_sweeps_the_other_side() -> None:
    # South's last seed goes to its store (11); North's 2+3+1 remaining go to North's store (11): a draw.
    result = play(parse_position("0 0 0 0 0 1 10 2 3 0 0 0 1 5 s"), 6)
    assert format_position(result.position) == "0 0 0 0 0 0 11 0 0 0 0 0 0 11 e"
    assert result.ended and not result.extra_turn
    assert result.position.over and result.position.legal_pits() == []
    assert winner(result.position) is None


def test_end_when_the_opponent_runs_out() -> None:
    # South captures North's last seeds (pit 3 -> pit 4, facing North pit 3): North is empty, South sweeps 1.
    result = play(parse_position("0 0 1 0 0 1 20 0 0 2 0 0 0 24 s"), 3)
    assert format_position(result.position) == "0 0 0 0 0 0 24 0 0 0 0 0 0 24 e"


def test_winner_by_larger_store() -> None:
    assert winner(parse_position("0 0 0 0 0 0 25 0 0 0 0 0 0 23 e")) == SOUTH
    assert winner(parse_position("0 0 0 0 0 0 20 0 0 0 0 0 0 28 e")) == NORTH


def test_no_move_after_the_end() -> None:
    with pytest.raises(RulesError):
        play(parse_position("0 0 0 0 0 0 24 0 0 0 0 0 0 24 e"), 1)


# --- deferred end -------------------------------------------------------------------


def test_deferred_end_goes_on_while_the_player_to_move_has_seeds() -> None:
    # South empties its side and the turn passes to North, which still has seeds.
    text = "0 0 0 0 0 2 10 2 3 0 0 0 1 5 s"
    assert after(text, 6) == "0 0 0 0 0 0 11 0 0 0 0 0 0 12 e"
    assert after(text, 6, DEFERRED) == "0 0 0 0 0 0 11 3 3 0 0 0 1 5 n"


def test_deferred_end_ends_when_the_player_to_move_has_none() -> None:
    # North plays pit 1 (3 seeds, last in empty pit 4 facing empty South pit 3: no capture); South has nothing.
    assert after("0 0 0 0 0 0 11 3 3 0 0 0 1 5 n", 1, DEFERRED) == "0 0 0 0 0 0 11 0 0 0 0 0 0 12 e"


def test_deferred_end_extra_turn_with_the_opponent_empty() -> None:
    # North has no seeds; South's extra turn keeps the game going only under deferred end.
    text = "0 0 0 0 1 1 3 0 0 0 0 0 0 4 s"
    assert after(text, 6) == "0 0 0 0 0 0 5 0 0 0 0 0 0 4 e"
    assert after(text, 6, DEFERRED) == "0 0 0 0 1 0 4 0 0 0 0 0 0 4 s"


def test_deferred_end_extra_turn_with_no_seeds_left_ends() -> None:
    assert after("0 0 0 0 0 1 10 2 3 0 0 0 1 5 s", 6, DEFERRED) == "0 0 0 0 0 0 11 0 0 0 0 0 0 11 e"


# --- remainder void -------------------------------------------------------------------


def test_remainder_void_gives_the_rest_to_nobody() -> None:
    result = play(parse_position("0 0 0 0 0 1 10 2 3 0 0 0 1 5 s"), 6, VOID)
    assert format_position(result.position) == "0 0 0 0 0 0 11 0 0 0 0 0 0 5 e"
    assert winner(result.position) == SOUTH


def test_variants_combine() -> None:
    # Deferred end and remainder void together: South's extra turn with North empty goes on...
    both = Variants(deferred_end=True, remainder_void=True)
    assert after("0 0 0 0 1 1 3 0 0 0 0 0 0 4 s", 6, both) == "0 0 0 0 1 0 4 0 0 0 0 0 0 4 s"
    assert after("0 0 0 0 2 0 4 0 0 0 0 0 0 4 s", 5, both) == "0 0 0 0 0 1 5 0 0 0 0 0 0 4 s"
    # ...and when South, to move again, has no seeds, it ends and North's last seed is lost.
    assert after("0 0 0 0 0 1 5 0 0 0 0 0 1 4 s", 6, both) == "0 0 0 0 0 0 6 0 0 0 0 0 0 4 e"
    # Empty capture with remainder void: pit 5 -> empty pit 6 facing empty North pit 1; the landing
    # seed is stored, South's side is empty, the game ends and North's two seeds are lost.
    both = Variants(empty_capture=True, remainder_void=True)
    assert after("0 0 0 0 1 0 3 0 0 0 0 2 0 4 s", 5, both) == "0 0 0 0 0 0 4 0 0 0 0 0 0 4 e"


# --- bad moves -----------------------------------------------------------------------


@pytest.mark.parametrize("pit", [0, 7, -1])
def test_pit_out_of_range(pit: int) -> None:
    with pytest.raises(RulesError):
        play(start_position(), pit)


def test_empty_pit() -> None:
    with pytest.raises(RulesError):
        play(parse_position("0 4 4 4 4 4 0 4 4 4 4 4 4 0 s"), 1)


# --- the pie rule (seats, via Game) ------------------------------------------------------


def test_pie_rule_swap_after_south_first_turn_with_extra_move() -> None:
    game = Game.new(6, 4, PIE)
    game.move(3)  # extra turn: South's first turn goes on
    assert not game.swap_offered
    game.move(6)  # five seeds: store, North 1-4; the turn passes
    before = game.position
    assert game.swap_offered
    game.swap()
    assert game.position == before  # the swap changes no seed
    assert game.position.to_move == NORTH  # the opener, now North, moves next
    assert game.seats_swapped and game.opener_side() == NORTH
    assert game.record == [3, 6, SWAP]
    assert not game.swap_offered
    with pytest.raises(RulesError):
        game.swap()


def test_pie_rule_only_on_north_first_turn() -> None:
    game = Game.new(6, 4, PIE)
    with pytest.raises(RulesError):
        game.swap()  # South to move
    game.move(1)
    game.move(1)  # North answers instead of swapping
    game.move(4)  # five seeds: pits 5, 6, store, North 1, 2; the turn passes
    assert game.position.to_move == NORTH
    assert not game.swap_offered
    with pytest.raises(RulesError):
        game.swap()
    assert game.opener_side() == SOUTH


def test_no_swap_without_the_pie_rule() -> None:
    game = Game.new(6, 4)
    game.move(1)
    assert not game.swap_offered
    with pytest.raises(RulesError):
        game.swap()


def test_replay_restores_a_swapped_game() -> None:
    game = Game.replay(start_position(), PIE, [3, 6, SWAP, 1])
    assert game.seats_swapped and game.record == [3, 6, SWAP, 1]
    assert format_position(game.position) == "4 4 0 5 5 0 2 0 6 6 6 5 5 0 s"


# --- properties on random games --------------------------------------------------------

variants_strategy = st.builds(Variants, st.booleans(), st.booleans(), st.booleans(), st.booleans())


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position the notation accepts: m pits, at most 72 seeds, the side to move has seeds."""
    m = draw(st.integers(1, 6))
    pits = draw(st.lists(st.integers(0, 5), min_size=2 * m, max_size=2 * m))
    side = draw(st.sampled_from([SOUTH, NORTH]))
    own = pits[:m] if side == SOUTH else pits[m:]
    if not any(own):
        own[draw(st.integers(0, m - 1))] = 1
        pits = own + pits[m:] if side == SOUTH else pits[:m] + own
    stores = draw(st.tuples(st.integers(0, 6), st.integers(0, 6)))  # at most 60 + 12 = 72 seeds
    return Position(tuple(pits[:m]) + (stores[0],) + tuple(pits[m:]) + (stores[1],), side)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(positions(), variants_strategy, st.data())
def test_random_play_invariants(position: Position, variants: Variants, data: st.DataObject) -> None:
    for _ in range(40):
        if position.over:
            break
        legal = position.legal_pits()
        assert sorted(move_order(position)) == legal  # move_order is a permutation of the legal pits
        pit = data.draw(st.sampled_from(legal))
        m, mover = position.pits, position.to_move
        seeds = position.board[(pit - 1) if mover == SOUTH else (m + pit)]
        result = play(position, pit, variants)
        new = result.position
        total_before, total_after = sum(position.board), sum(new.board)
        if new.over and variants.remainder_void:
            assert total_after <= total_before
        else:
            assert total_after == total_before  # seeds are conserved
        assert new.store(SOUTH) >= position.store(SOUTH) and new.store(NORTH) >= position.store(NORTH)
        # The last seed reaches the store exactly when seeds = distance (mod one lap of 2m+1 places).
        lands_in_store = seeds % (2 * m + 1) == m - pit + 1
        if new.over:
            assert new.side_seeds(SOUTH) == 0 and new.side_seeds(NORTH) == 0  # a finished game has empty pits
            assert not result.extra_turn
        else:
            assert new.to_move == (mover if lands_in_store else (NORTH if mover == SOUTH else SOUTH))
            assert result.extra_turn == lands_in_store
            assert new.side_seeds(new.to_move) > 0
            if not variants.deferred_end:
                assert new.side_seeds(SOUTH) > 0 and new.side_seeds(NORTH) > 0
        position = new


@settings(max_examples=300, deadline=None, derandomize=True)
@given(positions(), variants_strategy, st.data())
def test_the_sowing_path_is_plays_sowing(position: Position, variants: Variants, data: st.DataObject) -> None:
    """``sowing_indices`` (what the kiosk's page animates) puts the seeds where ``play`` does: with no
    capture and no end, the board after play is the board with one seed added at each index of the
    path; the last index is the mover's store exactly when play gives an extra turn (the game going on)."""
    pit = data.draw(st.sampled_from(position.legal_pits()))
    path = sowing_indices(position, pit)
    m, mover = position.pits, position.to_move
    start = pit_index(m, mover, pit)
    assert len(path) == position.board[start]
    sown = list(position.board)
    sown[start] = 0
    for index in path:
        sown[index] += 1
    result = play(position, pit, variants)
    if not result.captured and not result.ended:
        assert tuple(sown) == result.position.board
    if not result.ended:
        assert (path[-1] == store_index(m, mover)) == result.extra_turn
