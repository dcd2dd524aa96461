"""The reference proof's contract (``reference/prove.py``): verdicts against exact values, node counts, limits.

Verdicts are checked against a plain minimax to the end of the game written
here from the contract (no pruning), and against the solver's exact values of
whole small games; node counts against a hand count and the pinned figures the
PDP-1's ``w`` must reproduce; the transposition table's words against the
contract's layout, and its size and the frames against the analysis tape's.
"""

from __future__ import annotations

import random

import pytest

from python_bridge.commands import ref as ref_cli
from python_bridge.machine.kalah_program import ANALYSIS, program_symbols
from python_bridge.reference import prove as prove_module
from python_bridge.reference.notation import parse_position
from python_bridge.reference.prove import (
    MAX_PLIES,
    PLY_KEY,
    TABLE_ENTRIES,
    ProofError,
    ProofTable,
    captures,
    deepen,
    exact_value,
    margin_step,
    proof_order,
    prove,
    table_key,
    table_slot,
)
from python_bridge.reference.rules import Position, Variants, other, play, start_position
from python_bridge.reference.search import move_order
from python_bridge.reference.solver import solve_start

EMPTY_CAPTURE = Variants(empty_capture=True)


def final_margin(position: Position, view: str, variants: Variants) -> int:
    """The margin ``view`` finishes with under perfect play: plain minimax, no pruning."""
    if position.over:
        return position.margin(view)
    values = []
    for pit in position.legal_pits():
        child = play(position, pit, variants).position
        if child.over or child.to_move == view:
            values.append(final_margin(child, view, variants))
        else:
            values.append(-final_margin(child, other(view), variants))
    return max(values)


def small_positions(count: int, seed: int) -> list[tuple[Position, Variants]]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        position = start_position(rng.randint(1, 3), rng.randint(1, 2))
        for _ in range(rng.randint(0, 10)):
            if position.over:
                break
            position = play(position, rng.choice(position.legal_pits())).position
        if not position.over:
            cases.append((position, Variants(*(rng.random() < 0.4 for _ in range(3)))))
    return cases


@pytest.mark.parametrize("position, variants", small_positions(60, seed=1979))
def test_verdicts_match_plain_minimax(position: Position, variants: Variants) -> None:
    value = final_margin(position, position.to_move, variants)
    for bound in (value - 2, value - 1, value, value + 1):
        assert prove(position, bound, variants).above == (value > bound), bound


def margin_ahead(position: Position, view: str, depth: int, variants: Variants) -> int:
    """The margin ``view`` finishes with looking ``depth`` plies ahead: plain minimax, a position
    ``depth`` plies on valued by its stores, as a finished game is by its margin."""
    if position.over or depth == 0:
        return position.margin(view)
    values = []
    for pit in position.legal_pits():
        child = play(position, pit, variants).position
        if child.over or child.to_move == view:
            values.append(margin_ahead(child, view, depth - 1, variants))
        else:
            values.append(-margin_ahead(child, other(view), depth - 1, variants))
    return max(values)


@pytest.mark.parametrize("position, variants", small_positions(40, seed=1964))
def test_deepening_finds_plain_minimax_at_every_depth(position: Position, variants: Variants) -> None:
    """Each depth's value is the depth-limited minimax value, and each bound test looking that far
    answers as that value says; the table's plies-left key keeps depths apart."""
    found = deepen(position, 6, variants)
    assert [d.depth for d in found] == list(range(1, 7))
    for d in found:
        value = margin_ahead(position, position.to_move, d.depth, variants)
        assert d.value == value, d
        assert d.tests >= 2 and d.nodes >= d.tests
        for bound in (value - 1, value):
            assert prove(position, bound, variants, depth=d.depth).above == (value > bound)


def test_deepening_far_enough_is_the_proof() -> None:
    """Looking past the end of every line, the value is the game's exact value."""
    start = start_position(3, 2)
    assert deepen(start, 40)[-1].value == exact_value(start)[0]


def test_deepening_refuses_what_the_pdp1_refuses() -> None:
    with pytest.raises(ProofError):
        deepen(start_position(6, 1), 0)
    with pytest.raises(ProofError):
        deepen(start_position(6, 1), 100)
    finished = parse_position("0 0 0 0 0 0 6 0 0 0 0 0 0 6 e")
    with pytest.raises(ProofError):
        deepen(finished, 3)


def test_the_plies_left_go_into_the_tables_third_word() -> None:
    position = start_position(6, 1)
    plain = table_key(position)
    assert table_key(position, 5) == (plain[0], plain[1], plain[2] + 5 * PLY_KEY)
    assert PLY_KEY == 0o1000  # the PDP-1's frame offset (8 words a ply) rotated 6 bits


@pytest.mark.parametrize("pits, seeds", [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)])
@pytest.mark.parametrize("variants", [Variants(), EMPTY_CAPTURE, Variants(deferred_end=True, remainder_void=True)])
def test_the_value_of_small_games_is_the_solvers(pits: int, seeds: int, variants: Variants) -> None:
    value, tests = exact_value(start_position(pits, seeds), variants)
    assert value == solve_start(pits, seeds, variants)
    assert all(result.above == (value > bound) for bound, result in tests)


def test_hand_count() -> None:
    """1 pit a side, 1 seed each: South's only move sows into its store (extra turn, counted)
    and South has no seeds left: the game ends 1-1, finished games are not counted."""
    position = parse_position("1 0 1 0 s")
    assert prove(position, 0).line() == "above no nodes 1"  # margin 0 is not above 0
    assert prove(position, -1).line() == "above yes nodes 1"
    # 2 pits: South plays pit 2 (extra turn: a second node), then pit 1
    assert prove(parse_position("1 1 0 1 1 0 s"), -99).nodes == 2


def test_kalah_6_1_pinned() -> None:
    """The 1-seed game: a first-player win (value 2) in 190 positions."""
    start = start_position(6, 1)
    assert prove(start, 0).line() == "above yes nodes 190"
    assert prove(start, 0, EMPTY_CAPTURE).line() == "above yes nodes 119"
    assert exact_value(start)[0] == solve_start(6, 1, Variants())


def test_kalah_6_2_pinned() -> None:
    """The 2-seed game: a first-player win in 24,824 positions (243,261 in the game's move order, which
    does not bring the captures forward)."""
    result = prove(start_position(6, 2), 0)
    assert result.line() == "above yes nodes 24824"
    assert result.deepest == 41 < MAX_PLIES
    assert prove(start_position(6, 2), 0, EMPTY_CAPTURE).line() == "above yes nodes 2632"


def _random_boards(count: int, seed: int) -> list[Position]:
    """Boards of every size with pits from empty to 30 seeds: moves that stop short, end in the store,
    go round once or more."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        m = rng.randint(1, 6)
        cells = [rng.choice((0, 0, 1, 2, 3, rng.randint(0, 2 * m + 3), rng.randint(0, 30))) for _ in range(2 * m + 2)]
        position = Position(tuple(cells), rng.choice("sn"))
        if position.legal_pits():
            boards.append(position)
    return boards


@pytest.mark.parametrize("variants", [Variants(), EMPTY_CAPTURE])
def test_captures_reads_off_the_board_what_the_move_does(variants: Variants) -> None:
    """``captures`` (the PDP-1's reading, without playing) agrees with ``play`` on every pit of 3,000 boards."""
    tried = taking = 0
    for position in _random_boards(3000, seed=1960):
        for pit in position.legal_pits():
            assert captures(position, pit, variants) == (play(position, pit, variants).captured > 0), (position, pit)
            tried += 1
            taking += captures(position, pit, variants)
    assert tried > 7_000 and 0.1 < taking / tried < 0.5


def test_the_proof_tries_the_extra_turns_then_the_captures_then_the_rest() -> None:
    # south: pit 1 (1 seed) ends in empty pit 2 facing north's pit 5: a capture; pit 4 (3 seeds) ends in
    # the store; pit 6 (2 seeds) passes the store; pit 3 (5 seeds) ends in north's row
    position = parse_position("1 0 5 3 0 2 0 1 1 1 1 1 1 0 s")
    assert proof_order(position) == [4, 1, 6, 3]
    assert move_order(position) == [4, 6, 3, 1]


def test_limits() -> None:
    start = start_position(6, 1)
    with pytest.raises(ProofError):
        prove(parse_position("0 0 0 0 0 0 36 0 0 0 0 0 0 36 e"), 0)
    for bound in (-100, 100):
        with pytest.raises(ProofError):
            prove(start, bound)


def test_too_deep_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prove_module, "MAX_PLIES", 10)
    with pytest.raises(ProofError, match="more than 10 plies"):
        prove(start_position(6, 1), 0)


def test_the_pdp1_frames_hold_max_plies_and_the_table_its_entries(kalah_tape) -> None:
    """proof.mac's frames are 8 words a ply, wfrm up to wfend: exactly MAX_PLIES of them; its table is
    TABLE_ENTRIES entries of 3 words, wtab up to wtend, below the read-in loader."""
    symbols = program_symbols(ANALYSIS)
    assert symbols["wfend"] - symbols["wfrm"] == 8 * MAX_PLIES
    assert symbols["wfsz"] == 8
    assert symbols["wtend"] - symbols["wtab"] == 3 * TABLE_ENTRIES
    assert symbols["cend"] >= symbols["wtend"] and symbols["cend"] < 0o7751


def test_the_tables_words_are_the_contracts() -> None:
    """The key: each row's pits 3 bits each, pit 1 highest; 4 x south's store + 2 for north to move."""
    position = parse_position("1 2 3 4 5 6 7 0 1 7 0 0 2 5 n")
    assert table_key(position) == (0o123456, 0o017002, 4 * 7 + 2)
    assert table_key(parse_position("8 0 0 0 0 0 0 1 0 0 0 0 0 0 s")) is None  # a pit above 7: not kept
    assert table_key(parse_position("3 1 0 2 1 3 s")) == (0o310000, 0o210000, 0)  # two pits: the rest 0
    h = 0o123456 ^ 0o017002 ^ 30
    assert table_slot(table_key(position)) == (h ^ ((h >> 9) | (h << 9 & 0o777777))) & 0o377


def test_the_table_keeps_an_answer_and_replaces_it() -> None:
    table = ProofTable()
    key, other_key = (0o123456, 0o017002, 30), (0o123456, 0o017002, 32)
    assert table.probe(key) is None
    table.store(key, True)
    assert table.probe(key) is True and table.probe(other_key) is None
    table.store(key, False)
    assert table.probe(key) is False
    at = 3 * table_slot(key)
    assert table.words[at:at + 3] == [0o123456, 0o017002, 30]
    assert len(table.words) == 3 * TABLE_ENTRIES


def test_a_position_found_in_the_table_is_not_counted() -> None:
    """A position reached twice is searched once and then found: 11 positions searched, not 13."""
    position = parse_position("1 1 0 0 3 0 1 1 1 0 n")
    table, plain = prove(position, 0), _untabled(position, 0)
    assert table.above == plain.above and (table.nodes, plain.nodes) == (11, 13)


def _untabled(position: Position, bound: int):
    """``prove`` with a table that never finds anything: the contract without transpositions (a table of
    another kind than ``ProofTable`` is the readable proof's)."""
    class Empty(ProofTable):
        def probe(self, key):
            return None

    return prove(position, bound, table=Empty())


def test_ref_prove_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert ref_cli.main(["prove", "1 1 1 1 1 1 0 1 1 1 1 1 1 0 s", "0"]) == 0
    assert capsys.readouterr().out == "above yes nodes 190\n"
    assert ref_cli.main(["prove", "1 1 1 1 1 1 0 1 1 1 1 1 1 0 s", "-1", "--empty-capture"]) == 0
    assert capsys.readouterr().out == f"above yes nodes {prove(start_position(6, 1), -1, EMPTY_CAPTURE).nodes}\n"
    for bound in ("x", "100", "1.5"):
        assert ref_cli.main(["prove", "1 1 1 1 1 1 0 1 1 1 1 1 1 0 s", bound]) == 2
        out, err = capsys.readouterr()
        assert not out and len(err.strip().splitlines()) == 1


class _Answer:
    def __init__(self, above: bool) -> None:
        self.above = above


@pytest.mark.parametrize("variants", [Variants(), Variants(remainder_void=True)])
def test_the_value_search_finds_every_margin_in_range(variants: Variants) -> None:
    """Against an oracle of every possible value: the search ends on it, asks ``w 0`` first, and, when
    every seed ends in a store, asks only bounds of the seeds' parity (or 0)."""
    start = start_position(6, 2)
    for value in range(-24, 25):
        if not variants.remainder_void and value % 2:
            continue  # 24 seeds, every one in a store at the end: an odd margin cannot happen
        found, tests = exact_value(start, variants, -24, 24, test=lambda bound, value=value: _Answer(value > bound))
        bounds = [bound for bound, _ in tests]
        assert found == value and bounds[0] == 0 and len(bounds) <= 2 * len(bin(abs(value) + 2))
        if not variants.remainder_void:
            assert all(bound % 2 == 0 for bound in bounds)


def test_an_odd_seed_count_gives_odd_margins() -> None:
    position = parse_position("1 0 2 0 1 0 0 0 s")  # 4 seeds: even margins; the next board, 5: odd ones
    odd = parse_position("1 0 2 0 1 1 0 0 s")
    assert margin_step(Variants()) == 2 and margin_step(Variants(remainder_void=True)) == 1
    for pos in (position, odd):
        value, tests = exact_value(pos, Variants(), -8, 8)
        assert value == final_margin(pos, pos.to_move, Variants())
        assert all(bound == 0 or (bound - sum(pos.board)) % 2 == 0 for bound, _ in tests)
