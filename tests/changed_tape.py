"""A tape of the game with one line of its source changed: a PDP-1 that really chooses otherwise than the reference.

Why a real tape and not a mock: a cross-check mismatch is the one failure the exhibit exists to catch, and a test of
what a visitor sees must see the whole chain make one -- the PDP-1 typing a move, the bridge reading it, the reference
disagreeing.  The change keeps every word where it was (the symbol table is the game's own, checked here), so the
bridge's breakpoints and the restore land where they do on the real tape; only the choice differs.
"""

from __future__ import annotations

import json
from pathlib import Path

from python_bridge.machine.kalah_program import GAME, SOURCE_DIR, program_symbols, symbols_beside
from tools.macro import assemble

# The search's root at one ply (search.mac's leaf loop): a move is kept when it is better than the best so far
# (``sma!sza``: the difference is not above zero, so skip); ``sma`` alone keeps a move as good as the best too,
# so among equal moves the PDP-1 plays the last in its order where the reference plays the first.
TIES_TO_THE_LAST = ("search.mac", "\tsub la\n\tsma!sza\n\tjmp sl3", "\tsub la\n\tsma\n\tjmp sl3")


def changed_game_tape(folder: Path, change: tuple[str, str, str] = TIES_TO_THE_LAST) -> Path:
    """The game's tape assembled from ``pdp1_src/`` with ``change`` (file, text, new text) made once, written with
    its symbol table into ``folder`` (``kalah.rim``, ``kalah.sym.json``); the layout must be the game's own."""
    name, old, new = change
    sources = []
    for path in GAME.source_paths():
        text = path.read_text(encoding="latin-1")
        if path.name == name:
            assert text.count(old) == 1, f"{name} no longer holds the text to change once: update {__name__}"
            text = text.replace(old, new)
        sources.append((str(path.relative_to(SOURCE_DIR.parent)), text.encode("latin-1")))
    punched = assemble(sources)
    assert punched.ok and punched.tape is not None, punched.messages
    assert punched.symbols == program_symbols(), "the change moved the program's words: it must keep them in place"
    folder.mkdir(parents=True, exist_ok=True)
    tape = folder / GAME.tape.name
    tape.write_bytes(punched.tape)
    symbols_beside(tape).write_text(json.dumps(punched.symbols, sort_keys=True), encoding="utf-8")
    return tape
