"""Paper-tape punching as macro1 does it: leader, the block loader, blocks, RIM words.

A PDP-1 binary tape frame carries six bits of a word when its 0200 hole is
punched; three such frames make an 18-bit word.  READ IN mode executes the
tape's ``dio addr`` / word pairs directly (RIM format) until a ``jmp``.
macro1's default tape first punches, in RIM form, a 21-word block loader at
7751-7775, then the program as checksummed blocks of at most 64 words that the
loader reads:  ``dio first``, ``dio last+1``, the words, their ones'-complement
sum; then ``jmp start``.  With ``-r`` every word is punched in RIM form.
"""

from __future__ import annotations

MASK18 = 0o777777
DIO = 0o320000
JMP = 0o600000

LOADER_ORIGIN = 0o7751
_A = LOADER_ORIGIN + 0o7          # the loader's word buffer / executed dio
_B = LOADER_ORIGIN + 0o6
_CHECKSUM = LOADER_ORIGIN + 0o25
_END = LOADER_ORIGIN + 0o26

#: The block loader macro1 punches at 7751 (its checksum and end words follow it).
BLOCK_LOADER: tuple[int, ...] = (
    0o730002,                 # in,  rpb
    0o320000 + _A,            #      dio a
    0o100000 + _A,            #      xct a        (the block's "dio first")
    0o320000 + _CHECKSUM,     #      dio ck
    0o730002,                 #      rpb
    0o320000 + _END,          #      dio en       (the block's "dio last+1")
    0o730002,                 # b,   rpb
    0o000000,                 # a,   (dio word, patched by xct)
    0o210000 + _A,            #      lac i a
    0o400000 + _CHECKSUM,     #      add ck
    0o240000 + _CHECKSUM,     #      dac ck
    0o440000 + _A,            #      idx a
    0o520000 + _END,          #      sas en
    0o600000 + _B,            #      jmp b
    0o200000 + _CHECKSUM,     #      lac ck
    0o400000 + _END,          #      add en
    0o730002,                 #      rpb          (the checksum)
    0o320000 + _CHECKSUM,     #      dio ck
    0o520000 + _CHECKSUM,     #      sas ck
    0o760400,                 #      hlt          (checksum error)
    0o600000 + LOADER_ORIGIN,  #     jmp in       (next block)
)

BLOCK_SIZE = 0o100            #: words per block; blocks also break at multiples of it
DEFAULT_LEADER = 240          #: two feet of blank tape


class TapePunch:
    """Accumulates tape bytes; ``enabled`` is False during pass 1 (nothing is punched
    then, but the block buffer is still filled and emptied, which matters)."""

    def __init__(self, rim_mode: bool) -> None:
        self.rim_mode = rim_mode
        self.enabled = False
        self.data = bytearray()
        self.block: list[int] = []
        self.block_start = 0

    def leader(self, count: int = 0) -> None:
        if self.enabled:
            self.data += bytes(count or DEFAULT_LEADER)

    def triplet(self, word: int) -> None:
        """Punch a word as three frames, high six bits first."""
        if self.enabled:
            self.data += bytes((((word >> 12) & 0o77) | 0o200,
                                ((word >> 6) & 0o77) | 0o200,
                                (word & 0o77) | 0o200))

    def rim_word(self, address: int, word: int) -> None:
        self.triplet(DIO | address)
        self.triplet(word)

    def loader(self) -> None:
        """Punch the block loader in RIM form and the jump into it."""
        for offset, word in enumerate(BLOCK_LOADER):
            self.rim_word(LOADER_ORIGIN + offset, word)
        self.triplet(JMP | LOADER_ORIGIN)

    def flush(self) -> None:
        """Punch the buffered block (if any) with its checksum and a little leader."""
        if not self.block:
            return
        words = [DIO | self.block_start, DIO | (self.block_start + len(self.block)), *self.block]
        total = sum(words)
        if total & ~MASK18:
            total = (total & MASK18) + (total >> 18)
        if total & 0o1000000:
            total += 1
        for word in words:
            self.triplet(word)
        self.triplet(total)
        self.leader(5)
        self.block = []

    def word(self, address: int, word: int) -> None:
        """Punch one assembled word at ``address`` (block or RIM form)."""
        if self.rim_mode:
            self.rim_word(address, word)
            return
        if address & (BLOCK_SIZE - 1) == 0 or (
                self.block and address != self.block_start + len(self.block)):
            self.flush()
        if not self.block:
            self.block_start = address
        self.block.append(word)
