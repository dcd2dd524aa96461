"""``make bench-contract``'s searcher: with the kept rules it is the contract, and every change runs."""

from __future__ import annotations

import pytest

from python_bridge.bench.contract_study import CHANGES, KEPT, StudySearcher, study
from python_bridge.reference.samples import varied_positions
from python_bridge.reference.search import BestMoveTable, level_move

POSITIONS = varied_positions(12, seed=5)


def test_the_kept_rules_are_the_default_level() -> None:
    for pos in POSITIONS:
        depth, nodes = StudySearcher(KEPT, 1500).level(pos)
        reference = level_move(pos, budget=1500)
        assert (depth, nodes) == (reference.depth, reference.nodes)


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_studies_every_position(change: str) -> None:
    depths = study(KEPT | {change}, POSITIONS, 1500)
    assert len(depths) == len(POSITIONS) and all(1 <= d <= 20 for d in depths)


def test_the_old_contract_differs_from_the_new_somewhere() -> None:
    # the kept rules change node counts (and so depths) on some of these positions
    old = [StudySearcher(frozenset(), 1500).level(pos) for pos in POSITIONS]
    new = [StudySearcher(KEPT, 1500).level(pos) for pos in POSITIONS]
    assert old != new


def test_the_half_table_has_256_entries_where_the_kept_one_has_512() -> None:
    """Two keys whose entries differ only in the index's top bit share an entry in the half table: the
    second written replaces the first there, while the kept table keeps both."""
    first, second = 0o000000, 0o000400  # index (key ^ key >> 9) & 511: 0 and 256
    assert (BestMoveTable().index(first), BestMoveTable().index(second)) == (0, 256)
    for table, kept_first in ((BestMoveTable(), 3), (BestMoveTable(256), 0)):
        table.remember(first, 3)
        table.remember(second, 5)
        assert (table.hint(first), table.hint(second)) == (kept_first, 5)
    assert len(BestMoveTable(256).words) == 256
