"""Many seeded Kalah games on SIMH as WebAssembly beside Debian's pdp1 (make test-web; not in make test):
every rule variant, who moves first, levels 1 to 3 and the program's own, the visitor's pits drawn from
the seed.  Each game's typewriter output and instruction counts must be the same on both machines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from python_bridge.machine.front_panel import SW_DIAGNOSTIC
from python_bridge.machine.simh import Simh
from python_bridge.machine.wasm_simh import WasmSimh
from tests.programs import need
from tests.web.kalah_by_keys import play

GAMES = 48


@pytest.mark.webgames
@pytest.mark.parametrize("seed", range(1, GAMES + 1))
def test_a_seeded_game_is_the_same_on_both(kalah_tape: Path, seed: int) -> None:
    need("node")
    rng = random.Random(seed)
    switches = rng.randrange(0o100) & ~SW_DIAGNOSTIC
    test_word = rng.randrange(4) << 6  # depth 0 (the program's own level) to 3
    moves = "".join(rng.sample("123456", 6))  # tried in turn: one of them is a pit that is not empty
    gc1 = json.loads(kalah_tape.with_suffix(".sym.json").read_text())["gc1"]
    with Simh() as native, WasmSimh() as wasm:
        expected = play(native, kalah_tape.read_bytes(), gc1, switches, test_word, moves)
        got = play(wasm, kalah_tape.read_bytes(), gc1, switches, test_word, moves)
    assert "game over." in got.typed
    assert got.typed == expected.typed
    assert got.stretches == expected.stretches
