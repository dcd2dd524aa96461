"""Which sources make which tape: the one list, read by the Python code and by the Makefile.

Why a module with nothing but the standard library in it: ``make build`` asks it for the sources
(``python3 python_bridge/machine/tapes.py kalah``) before the virtual environment exists on a fresh
machine, and ``kalah_program`` builds the same tapes from the same list, so the two can never
disagree.  Each program is a whole program for the 4,096-word machine on a tape of its own; its
sources are assembled together in this order, the first naming the tape.  The game and the analysis
share the panel, rules, diagnostic and typewriter sources.
"""

from __future__ import annotations

import sys

SOURCE_FOLDER = "pdp1_src"
# name -> (sources in assembly order, the diagnostic commands of its own besides p and m)
TAPES: dict[str, tuple[tuple[str, ...], str]] = {
    # The game: play, the diagnostic commands p, m and b, think.
    "kalah": (("kalah.mac", "panel.mac", "rules.mac", "search.mac", "diag.mac", "typewr.mac", "core.mac"), "b"),
    # The analysis: the proof (prove) and the diagnostic commands p, m, w and d.
    "prove": (("prove.mac", "panel.mac", "rules.mac", "proof.mac", "diag.mac", "typewr.mac", "pcore.mac"), "wd"),
}


def main(argv: list[str]) -> int:
    """Print a tape's sources as paths from the checkout's root, on one line (the Makefile's list)."""
    if len(argv) != 1 or argv[0] not in TAPES:
        print(f"usage: python3 python_bridge/machine/tapes.py {{{','.join(TAPES)}}}", file=sys.stderr)
        return 2
    print(" ".join(f"{SOURCE_FOLDER}/{name}" for name in TAPES[argv[0]][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
