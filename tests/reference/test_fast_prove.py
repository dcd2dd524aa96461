"""The fast proof (``fast_prove``) against the readable one it replaces (``prove.spec_prove``, ``spec_deepen``).

The readable proof is the specification of the PDP-1's ``w`` and ``d``: every caller of ``prove``,
``deepen`` and ``exact_value`` now gets the fast one, so it must answer exactly as the readable one
does -- the answer, the node count (the PDP-1's contract) and the deepest ply, for every position,
bound, horizon and variant set -- and leave every word of the table as the readable one leaves it.
The positions are seeded random games' and seeded random boards' (the same every run): boards whose
pits pass the table's 7 seeds (not kept), games that end under each variant's end, horizons; the
sizes are kept small enough that the readable proofs take a few seconds in all.
"""

from __future__ import annotations

import itertools
import random

import pytest

from python_bridge.reference import prove as prove_module
from python_bridge.reference.fast_prove import orders_for
from python_bridge.reference.prove import (
    TABLE_PIT_MAX,
    ProofError,
    ProofTable,
    ProofTooDeep,
    deepen,
    proof_order,
    prove,
    spec_deepen,
    spec_prove,
)
from python_bridge.reference.rules import SOUTH, Position, Variants, play, start_position

EVERY_VARIANT_SET = [Variants(*flags) for flags in itertools.product((False, True), repeat=4)]
MOST_SEEDS = 20  # the seeds of a case at most: its readable proof takes well under a second

Case = tuple[Position, int, Variants]


def game_position(rng: random.Random, variants: Variants) -> Position:
    """A position of a random game under ``variants`` (not over), of at most MOST_SEEDS seeds."""
    while True:
        m = rng.randint(1, 6)
        position = start_position(m, rng.randint(1, min(6, MOST_SEEDS // (2 * m))))
        for _ in range(rng.randint(0, 30)):
            if position.over:
                break
            position = play(position, rng.choice(position.legal_pits()), variants).position
        if not position.over:
            return position


def heaped_board(rng: random.Random) -> Position:
    """A board of 1 to 4 pits a side with seeds heaped in a few pits, often more than the table keeps."""
    while True:
        m = rng.randint(1, 4)
        cells = [rng.choice((0, 0, 1, 2, rng.randint(3, 12))) for _ in range(2 * m + 2)]
        position = Position(tuple(cells), rng.choice("sn"))
        if position.legal_pits() and sum(cells) <= MOST_SEEDS:
            return position


def cases(count: int, seed: int, board: bool = False) -> list[Case]:
    """(position, bound, variants): every variant set in turn, bounds about the stores' margin."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        variants = EVERY_VARIANT_SET[n % len(EVERY_VARIANT_SET)]
        position = heaped_board(rng) if board else game_position(rng, variants)
        found.append((position, position.margin(position.to_move) + rng.randint(-6, 6), variants))
    return found


def both(position: Position, bound: int, variants: Variants, depth: int = 0) -> None:
    """The fast and the readable proof agree: answer, nodes, deepest ply, and every word of the table."""
    fast, readable = ProofTable(), ProofTable()
    expected = spec_prove(position, bound, variants, depth=depth, table=readable)
    assert prove(position, bound, variants, depth=depth, table=fast) == expected
    assert fast.words == readable.words
    assert prove(position, bound, variants, depth=depth) == expected  # with no table asked for


@pytest.mark.parametrize("position, bound, variants", cases(192, seed=19620101))
def test_the_same_answer_nodes_deepest_ply_and_table_as_the_readable_proof(position: Position, bound: int,
                                                                           variants: Variants) -> None:
    both(position, bound, variants)


@pytest.mark.parametrize("position, bound, variants", cases(96, seed=19621231, board=True))
def test_the_same_on_boards_whose_pits_pass_what_the_table_keeps(position: Position, bound: int,
                                                                 variants: Variants) -> None:
    both(position, bound, variants)


def larger_cases(count: int, seed: int) -> list[Case]:
    """Longer proofs (thousands to tens of thousands of positions, the table's entries replaced again and
    again): games of 24 seeds or so, a few moves in, every variant set in turn."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        variants = EVERY_VARIANT_SET[n % len(EVERY_VARIANT_SET)]
        position = start_position(*rng.choice(((6, 2), (4, 3), (5, 2), (3, 4))))
        for _ in range(rng.randint(0, 8)):
            if position.over:
                break
            position = play(position, rng.choice(position.legal_pits()), variants).position
        if not position.over:
            found.append((position, position.margin(position.to_move) + rng.randint(-4, 4), variants))
    return found


@pytest.mark.parametrize("position, bound, variants", larger_cases(16, seed=1964))
def test_the_same_on_longer_proofs(position: Position, bound: int, variants: Variants) -> None:
    both(position, bound, variants)


@pytest.mark.parametrize("position, bound, variants", cases(64, seed=1963))
def test_the_same_looking_ahead(position: Position, bound: int, variants: Variants) -> None:
    """Deepening's tests: the horizon's leaves, and the plies left in the table's key."""
    for depth in (1, 2, 5, 9):
        both(position, bound, variants, depth)


def test_the_cases_reach_what_they_are_there_for() -> None:
    """Both answers; roots the table keeps and roots it does not; positions found in the table."""
    games, boards = cases(192, seed=19620101), cases(96, seed=19621231, board=True)
    answers = [spec_prove(*case).above for case in games[:48] + boards[:48]]
    assert 20 < sum(answers) < 76
    heaped = sum(max(p.board[:p.pits] + p.board[p.pits + 1:-1]) > TABLE_PIT_MAX for p, _, _ in boards)
    assert 20 < heaped < 80
    tables = [_Counting() for _ in games[:32]]
    for case, table in zip(games, tables, strict=False):
        spec_prove(*case, table=table)
    assert sum(table.hits > 0 for table in tables) >= 8


class _Counting(ProofTable):
    """A table that counts the positions found in it (a table of another kind: the readable proof's)."""

    def __init__(self) -> None:
        super().__init__()
        self.hits = 0

    def probe(self, key: tuple[int, int, int]) -> bool | None:
        answer = super().probe(key)
        self.hits += answer is not None
        return answer


@pytest.mark.parametrize("seed", range(4))
def test_deepening_finds_the_same_values_and_counts(seed: int) -> None:
    rng = random.Random(seed)
    for variants in EVERY_VARIANT_SET[seed::4]:
        position = game_position(rng, variants)
        assert deepen(position, 7, variants) == spec_deepen(position, 7, variants)


@pytest.mark.parametrize("variants", EVERY_VARIANT_SET)
def test_the_move_order_is_the_proofs(variants: Variants) -> None:
    """``ProofOrders``' order, chosen by the facing pits that have seeds, is ``proof_order`` on 600 boards."""
    rng = random.Random(hash(variants) & 0xFFFF)
    for _ in range(600):
        m = rng.randint(1, 6)
        cells = [rng.choice((0, 0, 1, 2, 3, rng.randint(0, 2 * m + 3), rng.randint(0, 30))) for _ in range(2 * m + 2)]
        position = Position(tuple(cells), SOUTH)
        if not position.legal_pits():
            continue
        orders = orders_for(m, variants)
        board, _ = orders.tables.encode(position)
        checks, moves = orders.order(board & orders.tables.low)
        mask = sum(bit for bit, at in checks if board >> at & 0xFF)
        assert [move[0] for move in moves[mask]] == proof_order(position, variants), position


def test_progress_is_told_as_the_readable_proof_tells_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prove_module, "PROGRESS_MASK", 0xFF)
    heard: tuple[list[int], list[int]] = ([], [])
    start = start_position(6, 2)
    assert prove(start, 0, progress=heard[0].append) == spec_prove(start, 0, progress=heard[1].append)
    assert heard[0] == heard[1] == list(range(256, 24_824, 256))


def test_too_deep_is_refused_at_the_same_ply(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof as deep as the frames passes; one ply fewer frames and both refuse it alike."""
    start = start_position(6, 2)
    deepest = spec_prove(start, 0).deepest
    monkeypatch.setattr(prove_module, "MAX_PLIES", deepest + 1)
    assert prove(start, 0) == spec_prove(start, 0)
    monkeypatch.setattr(prove_module, "MAX_PLIES", deepest)
    for proof in (prove, spec_prove):
        with pytest.raises(ProofTooDeep, match=f"more than {deepest} plies"):
            proof(start, 0)


def test_a_board_past_the_fast_one_goes_to_the_readable_proof() -> None:
    """More seeds than a byte holds, or more pits than the PDP-1's board; a table already used."""
    big = Position((200, 0, 57, 0), SOUTH)
    wide = Position((1,) * 7 + (0,) + (1,) * 7 + (0,), SOUTH)
    for position in (big, wide):
        for bound in (-1, 0, 1):
            assert prove(position, bound) == spec_prove(position, bound)
    start = start_position(4, 2)
    used, readable = ProofTable(), ProofTable()
    prove(start, 2, table=used)
    spec_prove(start, 2, table=readable)
    assert prove(start, 0, table=used) == spec_prove(start, 0, table=readable) != spec_prove(start, 0)


def test_the_errors_are_the_readable_proofs() -> None:
    for proof in (prove, spec_prove):
        with pytest.raises(ProofError, match="over"):
            proof(Position((0, 5, 0, 3), "e"), 0)
        with pytest.raises(ProofError, match="bound"):
            proof(start_position(6, 1), 100)
