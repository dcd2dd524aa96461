"""Punching a PDP-1 tape as macro1 does: leader, the block loader in RIM form, checksummed blocks, RIM
words, transfer words, trailer.  The one punch: the assembler (``tools.macro``) punches with it word by
word as it assembles, and ``write_rim`` / ``write_block_tape`` punch a tape of given words with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .format import (
    ADDRESS_MASK,
    BLOCK_ALIGNMENT_MASK,
    DIO,
    GAP_FRAMES,
    JMP,
    LEADER_FRAMES,
    LOADER_ORIGIN,
    MACRO1_LOADER,
    TRAILER_FRAMES,
    WORD_MASK,
    frames_of,
    ones_complement_sum,
)

Words = Mapping[int, int] | Iterable[tuple[int, int]]


def _pairs(words: Words) -> Iterable[tuple[int, int]]:
    return words.items() if isinstance(words, Mapping) else words


class TapePunch:
    """Punch a tape word by word, as macro1 does while it assembles.

    Words are punched in the order given (not sorted): macro1's block boundaries depend on that
    order.  A block closes when the next word is not adjacent or its address is a multiple of 0100;
    ``flush`` closes it (its ``dio first``, ``dio last+1``, words, checksum, and a gap).  ``start``
    closes the block and punches ``jmp address`` (``None`` punches nothing, like a bare ``start``);
    ``finish`` closes the last block, adds the trailer and returns the tape.  Several ``start`` calls
    give several programs on one tape, as several ``start`` statements do in macro1.

    ``enabled`` False (the assembler's first pass): nothing is punched, but the block buffer still
    fills and empties as it will in the second pass, which decides where blocks break.
    """

    def __init__(self, rim: bool = False, *, enabled: bool = True) -> None:
        self.rim = rim
        self.enabled = enabled
        self.data = bytearray()
        self.block: list[int] = []
        self.block_start = 0
        self._finished = False

    @classmethod
    def new_tape(cls, *, rim: bool = False, loader: bool = True) -> "TapePunch":
        """A punch that has punched a tape's beginning: leader, and on a block tape the loader (unless
        ``loader`` is False, as macro1's ``noinput``) and the gap after it."""
        punch = cls(rim)
        punch.leader()
        if not rim:
            if loader:
                punch.loader()
            punch.leader(GAP_FRAMES)
        return punch

    def leader(self, count: int = LEADER_FRAMES) -> None:
        """Blank frames: leader, a gap, trailer."""
        if self.enabled:
            self.data += bytes(count)

    def triplet(self, word: int) -> None:
        """Punch a word as three frames, high six bits first."""
        if self.enabled:
            self.data += frames_of(word & WORD_MASK)

    def rim_word(self, address: int, word: int) -> None:
        self.triplet(DIO | address)
        self.triplet(word)

    def loader(self) -> None:
        """Punch the block loader in RIM form and the jump into it."""
        for offset, word in enumerate(MACRO1_LOADER):
            self.rim_word(LOADER_ORIGIN + offset, word)
        self.triplet(JMP | LOADER_ORIGIN)

    def word(self, address: int, value: int) -> None:
        """Punch ``value`` to be loaded at ``address`` (in a block, or in RIM form).

        Taken as given, as macro1 takes its location counter: an address past 7777 (a program run
        off the end of core) goes into the block's ``dio`` words unmasked, and macro1's tape shows it.
        """
        self._check_open()
        if self.rim:
            self.rim_word(address, value)
            return
        if (address & BLOCK_ALIGNMENT_MASK) == 0 or (self.block and address != self.block_start + len(self.block)):
            self.flush()
        if not self.block:
            self.block_start = address
        self.block.append(value)

    def flush(self) -> None:
        """Punch the buffered block (if any) with its checksum and the gap after it."""
        if not self.block:
            return
        # The end address is not masked: a block ending at 7777 says "dio 10000" (330000).
        record = [DIO | self.block_start, DIO | (self.block_start + len(self.block)), *self.block]
        record.append(ones_complement_sum(record))
        for word in record:
            self.triplet(word)
        self.leader(GAP_FRAMES)
        self.block = []

    def start(self, address: int | None) -> None:
        """Close the current block and punch the transfer word ``jmp address``."""
        self._check_open()
        self.flush()
        if address is not None:
            self.triplet(JMP | (address & ADDRESS_MASK))

    def finish(self) -> bytes:
        """Close the last block, punch the trailer and return the whole tape."""
        self._check_open()
        self.flush()
        self.leader(TRAILER_FRAMES)
        self._finished = True
        return bytes(self.data)

    def _check_open(self) -> None:
        if self._finished:
            raise RuntimeError("tape already finished")


def _checked(words: Words) -> Iterable[tuple[int, int]]:
    """The words of a tape to write, each a real address and an 18-bit word."""
    for address, value in _pairs(words):
        if not 0 <= address <= ADDRESS_MASK:
            raise ValueError(f"address out of range: {address!r}")
        if not 0 <= value <= WORD_MASK:
            raise ValueError(f"not an 18-bit word: {value!r}")
        yield address, value


def write_rim(words: Words, start: int | None) -> bytes:
    """A pure RIM tape (``macro1 -r``) of ``words`` ({address: word} or (address, word)
    pairs, punched in the order given) ending with ``jmp start``."""
    punch = TapePunch.new_tape(rim=True)
    for address, value in _checked(words):
        punch.word(address, value)
    punch.start(start)
    return punch.finish()


def write_block_tape(words: Words, start: int | None, *, loader: bool = True) -> bytes:
    """A block-loader tape (macro1's default) of ``words`` ({address: word} or
    (address, word) pairs, punched in the order given) ending with ``jmp start``.
    ``loader=False`` leaves the loader out, as macro1's ``noinput`` does."""
    punch = TapePunch.new_tape(loader=loader)
    for address, value in _checked(words):
        punch.word(address, value)
    punch.start(start)
    return punch.finish()
