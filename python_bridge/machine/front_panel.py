"""The front panel as the Kalah program reads it: sense switches and test word.

These encodings are the operating instructions in docs/pdp1-program.md and in the
header of ``pdp1_src/kalah.mac``; keep the three in step.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..reference.rules import Variants

# Sense switch n is bit 6-n of SIMH's SS register: switch 1 = 040 ... switch 6 = 001.
SW_PDP1_FIRST = 0o40  # switch 1: the PDP-1 moves first (plays South)
SW_EMPTY_CAPTURE = 0o20  # switch 2
SW_DEFERRED_END = 0o10  # switch 3
SW_REMAINDER_VOID = 0o04  # switch 4
SW_PIE_RULE = 0o02  # switch 5
SW_DIAGNOSTIC = 0o01  # switch 6: diagnostic mode instead of play

TW_DEMO = 0o400000  # bit 0: the PDP-1 plays both sides
# Bit 1: the brief form.  A test-word bit, not a sense switch: the six switches are the five rules and
# modes the operator sets for every game plus diagnostic mode, and bit 0 beside it already holds the
# other "how the game is shown" choice (docs/pdp1-program.md says why).
TW_BRIEF = 0o200000
DEFAULT_SEEDS, DEFAULT_PITS = 4, 6


@dataclass(frozen=True)
class PanelSettings:
    """Everything the operator sets on the panel before a game."""

    pits: int = DEFAULT_PITS
    seeds: int = DEFAULT_SEEDS
    depth: int = 0  # 0: the program's default level
    variants: Variants = Variants()
    pdp1_first: bool = False
    demo: bool = False  # the PDP-1 plays both sides
    diagnostic: bool = False
    brief: bool = False  # the board typed only when asked for (b) and at the end; read from core otherwise

    def switches(self) -> int:
        v = self.variants
        return (
            (SW_PDP1_FIRST if self.pdp1_first else 0)
            | (SW_EMPTY_CAPTURE if v.empty_capture else 0)
            | (SW_DEFERRED_END if v.deferred_end else 0)
            | (SW_REMAINDER_VOID if v.remainder_void else 0)
            | (SW_PIE_RULE if v.pie_rule else 0)
            | (SW_DIAGNOSTIC if self.diagnostic else 0)
        )

    def test_word(self) -> int:
        """Bits 15-17 seeds (0 = 4), 12-14 pits (0 = 6), 6-11 depth (0 = default), bit 0 demo, bit 1 brief."""
        return (
            (TW_DEMO if self.demo else 0)
            | (TW_BRIEF if self.brief else 0)
            | ((self.depth & 0o77) << 6)
            | ((self.pits & 7) << 3)
            | (self.seeds & 7)
        )


def describe_switches(switches: int) -> str:
    """A row of six switches as a person sees them: ``^`` up (on), ``.`` down."""
    return " ".join("^" if switches & (0o40 >> i) else "." for i in range(6))


def describe_test_word(word: int) -> str:
    """Eighteen test-word switches in groups of three (octal digits), ``^`` for a one."""
    bits = "".join("^" if word & (1 << (17 - i)) else "." for i in range(18))
    return " ".join(bits[i:i + 3] for i in range(0, 18, 3))
