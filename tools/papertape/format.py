"""The PDP-1 paper tape as macro1 punches it: frames and words, the block loader, and what goes wrong.

The constants and the one table of macro1's block loader that punching (``punch``) and reading
(``reader``) share; every error a tape can have is a ``TapeError`` with the frame offset of the
problem.
"""

from __future__ import annotations

from collections.abc import Iterable

WORD_MASK = 0o777777
ADDRESS_MASK = 0o7777
DATA_HOLE = 0o200
DIO = 0o320000
JMP = 0o600000
OPCODE_MASK = 0o760000      # opcode bits 0-4

LEADER_FRAMES = 240         # macro1's "2 feet of leader"
GAP_FRAMES = 5              # after the loader and after every block
TRAILER_FRAMES = 1
MAX_BLOCK_WORDS = 0o100
BLOCK_ALIGNMENT_MASK = 0o77

LOADER_ORIGIN = 0o7751
LOADER_REGION = range(0o7751, 0o10000)  # the loader plus its two variables ck, en1
# The block loader macro1 punches in RIM form at 7751-7775 (its variables ck and en1
# live at 7776 and 7777). It reads a block, sums it and halts on a bad checksum.
MACRO1_LOADER: tuple[int, ...] = (
    0o730002,   # in,  rpb
    0o327760,   #      dio a
    0o107760,   #      xct a        (a block's "dio first", or the final "jmp start")
    0o327776,   #      dio ck
    0o730002,   #      rpb
    0o327777,   #      dio en1
    0o730002,   # b,   rpb
    0o000000,   # a,   (dio first, then incremented)
    0o217760,   #      lac i a
    0o407776,   #      add ck
    0o247776,   #      dac ck
    0o447760,   #      idx a
    0o527777,   #      sas en1
    0o607757,   #      jmp b
    0o207776,   #      lac ck
    0o407777,   #      add en1
    0o730002,   #      rpb
    0o327776,   #      dio ck
    0o527776,   #      sas ck
    0o760400,   #      hlt
    0o607751,   #      jmp in
)

# the words read-in takes, and the loader's layout (for recognising it, moved or patched)
DAC = 0o240000
READ_IN_OPCODES = (DIO, DAC)
LOADER_WORDS = len(MACRO1_LOADER)           # 21, then its two variables
LOADER_SPAN = LOADER_WORDS + 2
_LOADER_DATA_WORD = 7                       # ``a``: overwritten by the loader before it is used
_RELOCATABLE = {0o10, 0o20, 0o22, 0o24, 0o26, 0o32, 0o40, 0o44, 0o52, 0o60}  # xct lac lio dac dap dio add idx sas jmp


# ----------------------------------------------------------------------------- errors

class TapeError(Exception):
    """A tape that cannot be read as macro1 punches it. ``offset`` is the frame (byte)
    offset from the start of the tape where the problem was found."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(f"frame {offset} (octal {offset:o}): {message}")
        self.offset = offset
        self.detail = message


class ChecksumError(TapeError):
    """A block's punched checksum differs from the sum of its words."""


class TruncatedTapeError(TapeError):
    """The tape ends (or a word is cut by a blank frame) in the middle of a record."""


class MissingStartError(TruncatedTapeError):
    """The tape ends without the final ``jmp start`` transfer word."""


class RecordTypeError(TapeError):
    """A word that is not the record the format expects at that place (e.g. not
    ``dio``/``jmp`` in RIM, a bad block header, a block of impossible length)."""


class LoaderError(TapeError):
    """The RIM-form loader on a block tape differs from macro1's (it has no checksum,
    so this is the only way to see damage in it)."""


def frames_of(word: int) -> bytes:
    """The three data frames of an 18-bit word, high 6 bits first, each with the 0200 hole."""
    return bytes((DATA_HOLE | (word >> shift) & 0o77) for shift in (12, 6, 0))


def ones_complement_sum(words: Iterable[int]) -> int:
    """macro1's block checksum: the 18-bit ones'-complement sum with end-around carry.

    Note that a non-zero sum congruent to 0 comes out as 777777 (minus zero), exactly as
    macro1 punches it; see ``ReadInHazard``.
    """
    total = sum(words)
    while total > WORD_MASK:
        total = (total & WORD_MASK) + (total >> 18)
    return total
