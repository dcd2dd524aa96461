"""What is read from a PDP-1 paper tape: its RIM records, blocks, loader and what read-in would do with it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .format import (
    _LOADER_DATA_WORD,
    ADDRESS_MASK,
    LOADER_ORIGIN,
    LOADER_SPAN,
    TapeError,
)


@dataclass(frozen=True)
class RimRecord:
    """One ``dio address`` / word pair of a RIM tape or of a block tape's loader."""
    address: int
    word: int
    offset: int          # frame offset of the dio word


@dataclass(frozen=True)
class Block:
    """One block of a block-loader tape. ``last`` is the last address loaded (inclusive)."""
    first: int
    last: int
    words: tuple[int, ...]
    checksum: int        # as punched
    computed: int        # as summed from the tape
    offset: int          # frame offset of the block's first dio word

    @property
    def ok(self) -> bool:
        return self.checksum == self.computed

    @property
    def addresses(self) -> range:
        return range(self.first, self.first + len(self.words))


@dataclass(frozen=True)
class ReadInHazard:
    """A tape that is intact and loads with SIMH's ``load -b``, but that a real PDP-1's
    read-in (and SIMH's ``boot ptr``, which runs the punched loader) would not load."""
    offset: int
    message: str

    def __str__(self) -> str:
        return f"frame {self.offset} (octal {self.offset:o}): {self.message}"


LOADER_KINDS = {
    "macro1": "macro1's block loader",
    "dec": "the block loader, its working word 7760 punched non-zero (as on many real tapes)",
    "moved": "macro1's block loader, moved",
    "unknown": "code of the tape's own, not a loader recognised here: what it reads is not checked",
}


@dataclass
class Tape:
    """Everything read from a tape. ``errors`` is empty for a sound tape; ``read_tape``
    raises the first one instead of returning.  ``notes`` are things the hardware passes
    over (frames without the 0200 hole, words after the last transfer) that a reader of
    the tape may want to know about."""
    format: str                          # "rim" or "block"
    length: int                          # frames in the file
    leader: int = 0                      # blank frames before the first data frame
    has_loader: bool = False             # block tape with a RIM-form loader in front
    loader: tuple[RimRecord, ...] = ()   # that loader's records
    loader_start: int | None = None      # its jmp (7751 for macro1's)
    loader_kind: str | None = None       # a key of LOADER_KINDS
    records: tuple[RimRecord, ...] = ()  # a RIM tape's data records
    blocks: list[Block] = field(default_factory=list)
    start: int | None = None             # the transfer address (jmp start)
    start_offset: int | None = None
    trailer: int = 0                     # blank frames after the transfer word
    errors: list[TapeError] = field(default_factory=list)
    hazards: list[ReadInHazard] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def loader_is_macro1(self) -> bool:
        return self.loader_kind == "macro1"

    @property
    def loader_region(self) -> range:
        origin = self.loader_start if self.loader_start is not None else LOADER_ORIGIN
        return range(origin, origin + LOADER_SPAN)

    def loader_summary(self) -> str:
        """A few words for ``check``: which loader reads this tape."""
        if self.loader_kind is None:
            return "read in directly (no loader)" if self.format == "rim" else "no loader on the tape"
        return {"macro1": "macro1's loader", "dec": "the block loader, word 7760 punched non-zero",
                "moved": f"macro1's loader moved to {self.loader_region.start:04o}",
                "unknown": f"code of its own at {self.loader_region.start:04o}"}[self.loader_kind]

    def describe_loader(self) -> str:
        text = LOADER_KINDS.get(self.loader_kind or "", "")
        if self.loader_kind in ("dec", "moved"):
            word = {r.address: r.word for r in self.loader}.get(self.loader_region.start + _LOADER_DATA_WORD)
            if self.loader_kind == "moved":
                text += f" to {self.loader_region.start:04o}"
            if word:
                text += f"; word {self.loader_region.start + _LOADER_DATA_WORD:04o} punched {word:06o}"
        return text

    @property
    def memory(self) -> dict[int, int]:
        """The program's memory image {address: word}: RIM records or block words, later
        ones overwriting earlier ones. The loader of a block tape is not included."""
        image: dict[int, int] = {}
        for record in self.records:
            image[record.address] = record.word
        for block in self.blocks:
            for address, word in zip(block.addresses, block.words, strict=True):
                image[address & ADDRESS_MASK] = word
        return image

    def core(self) -> dict[int, int]:
        """Memory as SIMH's ``load -b`` leaves it: the loader's words, then the program."""
        image = {record.address: record.word for record in self.loader}
        image.update(self.memory)
        return image

    def word_count(self) -> int:
        return len(self.records) + sum(len(block.words) for block in self.blocks)
