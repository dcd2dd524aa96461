"""The game's search at its limits, on the PDP-1 against the reference: 20 plies (every frame and the whole
stack in use), on boards where the mover's pit sows round the board.

Why: the fuzz and the cross-checks meet the search below 20 plies and on boards of ordinary counts every
day, but the last frame (where a node one ply from the leaves keeps the board it plays a move round on),
the deepest push on the stack and the fixed words of the node two plies from the leaves at the bottom of
a full-depth line are only reached at 20 plies, and a move round the board only with a pit of 2m+1 seeds
or more.  The boards are sparse, so that 20 plies take a few tens of thousands of positions; each has
one pit that sows round (found with the reference: ``best_move`` at 20 plies visits 3,000 to 40,000
positions on each; with one or two pits a side, 20 plies of play that keep a pit of 2m+1 seeds to the
bottom).  Giving the frames one ply fewer makes the two-pit boards fail here.
"""

from __future__ import annotations

import pytest

from python_bridge.machine.diagnostic import DiagnosticModel
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import DiagnosticConsole, KalahMachine
from python_bridge.reference.rules import Variants

BOARDS = {
    6: ("1 2 2 0 1 0 0 0 0 1 0 0 14 6 n", "1 1 13 0 0 1 4 1 0 0 0 0 0 5 s", "0 0 1 0 0 0 1 0 15 0 2 2 0 4 n"),
    4: ("0 0 2 0 6 12 0 0 2 0 n",),
    3: ("2 0 2 3 2 2 10 4 n", "2 2 2 5 0 1 10 1 n"),
    # two pits a side and many seeds: lines that go on 20 plies with seeds to sow round at the bottom
    2: ("21 10 2 16 5 3 s", "8 9 0 12 27 0 n", "22 25 2 8 6 1 s", "5 11 2 14 7 1 s"),
    1: ("20 0 25 0 s", "12 0 50 3 n"),
}
DEPTHS = (20, 19, 18, 3, 2, 1)
VARIANTS = {"standard": Variants(), "empty-capture-deferred-end": Variants(empty_capture=True, deferred_end=True)}


@pytest.mark.parametrize("variants", VARIANTS.values(), ids=VARIANTS.keys())
@pytest.mark.parametrize("pits", sorted(BOARDS))
def test_twenty_plies_and_seeds_sown_round_agree_with_the_reference(kalah_tape, pits: int,
                                                                   variants: Variants) -> None:
    panel = PanelSettings(pits=pits, seeds=4, variants=variants, diagnostic=True)
    model = DiagnosticModel.fresh(pits, 4, variants)
    with KalahMachine(panel) as machine:
        console = DiagnosticConsole(machine)
        for board in BOARDS[pits]:
            lines = [f"p {board}"] + [f"b {depth}" for depth in DEPTHS]
            answers = [console.ask(line, timeout=120).text for line in lines]
            assert answers == [model.answer(line) for line in lines], board
            assert answers[0] == "ok" and all(a.startswith("best ") for a in answers[1:]), answers
