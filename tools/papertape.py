"""Read and write PDP-1 paper tapes byte for byte as Debian's macro1 (simh 3.8.1) punches them.

A tape is a sequence of 8-bit frames. Only frames with the 0200 hole carry data: their
low 6 bits, three frames to an 18-bit word, high bits first. Blank (000) frames are
leader, gaps and trailer. macro1 punches two formats:

RIM (``macro1 -r``)::

    240 blank frames | dio A, word | dio A, word | ... | jmp start | 1 blank frame

Block-loader tape (the default)::

    240 blank frames
    the 21-word block loader in RIM form: dio 7751, word ... dio 7775, word | jmp 7751
    5 blank frames
    per block: dio first | dio last+1 | up to 64 words | checksum | 5 blank frames
    jmp start | 1 blank frame

The checksum is the ones'-complement (end-around carry) sum of every word of the block
including both ``dio`` words. Blocks never cross a 0100-word boundary: macro1 closes a
block when the next word is not adjacent, or its address is a multiple of 0100. A block
ending at 7777 is announced as ``dio 10000``, i.e. 330000. With ``noinput`` the loader
is left out (but not the 5 blank frames after it). A ``start`` with no address punches
no transfer word.

Writing (``write_rim``, ``write_block_tape``, or ``TapeWriter`` for punching word by
word in assembly order) reproduces macro1's bytes for the same words in the same order.
Reading (``read_tape``, or ``parse_tape`` to get what could be read from a damaged tape)
reads what the hardware's read-in and SIMH's ``boot ptr`` read (see "reading" below:
frames without the 0200 hole are passed over, the loader is recognised by its code) and
checks everything the format allows: checksums, record types, truncation, the loader's
words, and the transfer word. Every error is a ``TapeError`` subclass that carries the
frame offset where the problem is; what read-in passes over is listed in ``Tape.notes``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tools.disasm import disassemble

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

Words = Mapping[int, int] | Iterable[tuple[int, int]]


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


# --------------------------------------------------------------------------- writing

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


def _pairs(words: Words) -> Iterable[tuple[int, int]]:
    return words.items() if isinstance(words, Mapping) else words


class TapeWriter:
    """Punch a tape word by word, as macro1 does while it assembles.

    Words are punched in the order given (not sorted): macro1's block boundaries depend
    on that order. ``start()`` closes the current block and punches ``jmp address``
    (``None`` punches nothing, like a bare ``start``); ``finish()`` closes the last block,
    adds the trailer and returns the bytes. Several ``start()`` calls give several
    programs on one tape, as several ``start`` statements do in macro1.
    """

    def __init__(self, *, rim: bool = False, loader: bool = True) -> None:
        self.rim = rim
        self._out = bytearray(LEADER_FRAMES)
        self._block_first = 0
        self._block: list[int] = []
        self._finished = False
        if not rim:
            if loader:
                for offset, word in enumerate(MACRO1_LOADER):
                    self._punch_rim(LOADER_ORIGIN + offset, word)
                self._out += frames_of(JMP | LOADER_ORIGIN)
            self._out += bytes(GAP_FRAMES)

    def word(self, address: int, value: int) -> None:
        """Punch ``value`` to be loaded at ``address``."""
        self._check_open()
        if not 0 <= address <= ADDRESS_MASK:
            raise ValueError(f"address out of range: {address!r}")
        if not 0 <= value <= WORD_MASK:
            raise ValueError(f"not an 18-bit word: {value!r}")
        if self.rim:
            self._punch_rim(address, value)
            return
        if (address & BLOCK_ALIGNMENT_MASK) == 0 or (
                self._block and address != self._block_first + len(self._block)):
            self._flush()
        if not self._block:
            self._block_first = address
        self._block.append(value)

    def start(self, address: int | None) -> None:
        """Close the current block and punch the transfer word ``jmp address``."""
        self._check_open()
        self._flush()
        if address is not None:
            self._out += frames_of(JMP | (address & ADDRESS_MASK))

    def finish(self) -> bytes:
        """Close the last block, punch the trailer and return the whole tape."""
        self._check_open()
        self._flush()
        self._out += bytes(TRAILER_FRAMES)
        self._finished = True
        return bytes(self._out)

    def _check_open(self) -> None:
        if self._finished:
            raise RuntimeError("tape already finished")

    def _punch_rim(self, address: int, value: int) -> None:
        self._out += frames_of(DIO | address) + frames_of(value)

    def _flush(self) -> None:
        if not self._block:
            return
        # The end address is not masked: a block ending at 7777 says "dio 10000" (330000).
        record = [DIO | self._block_first, DIO | (self._block_first + len(self._block))]
        record += self._block
        record.append(ones_complement_sum(record))
        for word in record:
            self._out += frames_of(word)
        self._out += bytes(GAP_FRAMES)
        self._block = []


def write_rim(words: Words, start: int | None) -> bytes:
    """A pure RIM tape (``macro1 -r``) of ``words`` ({address: word} or (address, word)
    pairs, punched in the order given) ending with ``jmp start``."""
    writer = TapeWriter(rim=True)
    for address, value in _pairs(words):
        writer.word(address, value)
    writer.start(start)
    return writer.finish()


def write_block_tape(words: Words, start: int | None, *, loader: bool = True) -> bytes:
    """A block-loader tape (macro1's default) of ``words`` ({address: word} or
    (address, word) pairs, punched in the order given) ending with ``jmp start``.
    ``loader=False`` leaves the loader out, as macro1's ``noinput`` does."""
    writer = TapeWriter(loader=loader)
    for address, value in _pairs(words):
        writer.word(address, value)
    writer.start(start)
    return writer.finish()


# --------------------------------------------------------------------------- reading
#
# What is read is what the hardware reads.  READ IN (and SIMH's ``boot ptr``, pdp1_stddev.c
# ptr_boot/ptr_getw) and the loader's ``rpb`` both read in binary mode: a frame without the
# 0200 hole is passed over, whatever else is punched in it, and a word is the next three
# frames that have it.  Read-in takes ``dio A`` (SIMH also takes ``dac A``, a hack for an old
# macro1 error; the indirect bit is not looked at) followed by the word for A, until a
# ``jmp S``, and starts at S.  On a block tape S is a loader that has just been read in: it is
# recognised by its code (macro1's, the same with its working word 7760 punched non-zero as
# on many real tapes, or either moved elsewhere in core), and reads blocks
# ``dio first / dio last+1 / words / checksum`` until a ``jmp``.  A jmp into a routine loaded
# just below the loader runs that routine into the loader, which reads on (BLINKY clears
# core that way).  A loader that is not recognised is reported, and what it reads is not.

DAC = 0o240000
READ_IN_OPCODES = (DIO, DAC)
LOADER_WORDS = len(MACRO1_LOADER)           # 21, then its two variables
LOADER_SPAN = LOADER_WORDS + 2
_LOADER_DATA_WORD = 7                       # ``a``: overwritten by the loader before it is used
_RELOCATABLE = {0o10, 0o20, 0o22, 0o24, 0o26, 0o32, 0o40, 0o44, 0o52, 0o60}  # xct lac lio dac dap dio add idx sas jmp


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
            for address, word in zip(block.addresses, block.words):
                image[address & ADDRESS_MASK] = word
        return image

    def core(self) -> dict[int, int]:
        """Memory as SIMH's ``load -b`` leaves it: the loader's words, then the program."""
        image = {record.address: record.word for record in self.loader}
        image.update(self.memory)
        return image

    def word_count(self) -> int:
        return len(self.records) + sum(len(block.words) for block in self.blocks)


@dataclass(frozen=True)
class _Word:
    value: int
    offset: int


class _Frames:
    """The tape's data words as binary mode reads them: frames without the 0200 hole are
    passed over (and noted when punched), a word is the next three frames with it."""

    def __init__(self, data: bytes) -> None:
        self.length = len(data)
        self.words: list[_Word] = []
        self.error: TapeError | None = None
        self.partial: tuple[int, int] | None = None  # (offset, frames) of a word cut by the end
        self.stray: list[tuple[int, int]] = []        # (offset, frame) punched without the hole
        self.split: list[int] = []                    # words with blank frames among their frames
        value = count = first = 0
        for offset, frame in enumerate(data):
            if frame & DATA_HOLE:
                if count == 0:
                    first = offset
                value = (value << 6) | (frame & 0o77)
                count += 1
                if count == 3:
                    self.words.append(_Word(value, first))
                    value = count = 0
            elif frame:
                self.stray.append((offset, frame))
            elif count and (not self.split or self.split[-1] != first):
                self.split.append(first)
        if count:
            self.partial = (first, count)
            self.error = TruncatedTapeError(
                first, f"tape ends inside a word: {count} of its 3 data frames")

    def notes(self) -> list[str]:
        notes = []
        if self.stray:
            offset, frame = self.stray[0]
            more = f" and {len(self.stray) - 1} more" if len(self.stray) > 1 else ""
            notes.append(f"frame {offset} (octal {offset:o}): frame {frame:03o}{more} punched without the "
                         f"0200 hole, passed over as the reader's binary mode does")
        if self.split:
            more = f" and {len(self.split) - 1} more" if len(self.split) > 1 else ""
            notes.append(f"frame {self.split[0]} (octal {self.split[0]:o}): a word{more} with blank frames "
                         f"among its three, read across them as the reader's binary mode does")
        return notes


class _Cursor:
    """Walks the words; running out raises the frame-level error if there was one."""

    def __init__(self, frames: _Frames) -> None:
        self.frames = frames
        self.index = 0

    def more(self) -> bool:
        return self.index < len(self.frames.words)

    def peek(self) -> _Word:
        return self.frames.words[self.index]

    def take(self, error: type[TapeError], message: str) -> _Word:
        if not self.more():
            if self.frames.partial is not None:
                # Cut in the middle of a word: say where, and what the word was for.
                offset, count = self.frames.partial
                raise error(offset, f"{message} (it ends {count} of 3 frames into a word)")
            if self.frames.error is not None:
                raise self.frames.error
            raise error(self.frames.length, message)
        word = self.frames.words[self.index]
        self.index += 1
        return word

    @property
    def offset(self) -> int:
        return self.peek().offset if self.more() else self.frames.length


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _describe(word: int) -> str:
    return f"{word:06o} ({disassemble(word)})"


def _is_dio(word: int) -> bool:
    return word & OPCODE_MASK == DIO


def _is_read_in_store(word: int) -> bool:
    return word & OPCODE_MASK in READ_IN_OPCODES


def _is_jmp(word: int) -> bool:
    return word & OPCODE_MASK == JMP


def _read_rim_records(cursor: _Cursor, what: str) -> tuple[list[RimRecord], _Word]:
    """RIM records up to and including the transfer word."""
    records: list[RimRecord] = []
    while True:
        head = cursor.take(MissingStartError,
                           f"tape ends without the jmp transfer word ending the {what}")
        if _is_jmp(head.value):
            return records, head
        if not _is_read_in_store(head.value):
            raise RecordTypeError(
                head.offset, f"{what}: expected dio A or jmp S, found {_describe(head.value)} "
                             f"(read-in stops here: not a read-in tape, or a damaged one)")
        data = cursor.take(TruncatedTapeError,
                           f"tape ends after dio {head.value & ADDRESS_MASK:04o}, "
                           f"before its data word")
        records.append(RimRecord(head.value & ADDRESS_MASK, data.value, head.offset))


def _falls_into_loader(tape: Tape, target: int) -> bool:
    """Does ``jmp target`` run a routine this tape loaded just below the loader, into it?"""
    loaded = set(tape.memory)
    if target not in loaded:
        return False
    address = target
    while address in loaded:
        address += 1
    return address == tape.loader_region.start


def _read_blocks(cursor: _Cursor, tape: Tape) -> _Word:
    """Blocks up to and including the transfer word; bad checksums are noted, not raised."""
    while True:
        head = cursor.take(MissingStartError,
                           f"tape ends after {len(tape.blocks)} block(s) without the jmp start "
                           f"transfer word")
        if _is_jmp(head.value):
            target = head.value & ADDRESS_MASK
            if tape.has_loader and cursor.more() and target in tape.loader_region[:LOADER_WORDS]:
                tape.notes.append(
                    f"frame {head.offset} (octal {head.offset:o}): jmp {target:04o} goes back into the loader: "
                    f"it reads on")
                continue
            if tape.has_loader and cursor.more() and _falls_into_loader(tape, target):
                tape.notes.append(
                    f"frame {head.offset} (octal {head.offset:o}): jmp {target:04o} runs the routine loaded "
                    f"there, which runs into the loader at {tape.loader_region.start:04o}: it reads on")
                continue
            return head
        if not _is_dio(head.value):
            raise RecordTypeError(
                head.offset, f"expected a block (dio first) or jmp start, found "
                             f"{_describe(head.value)}")
        first = head.value & ADDRESS_MASK
        end_word = cursor.take(TruncatedTapeError,
                               f"tape ends inside the header of the block at {first:04o}")
        if end_word.value & OPCODE_MASK != DIO:
            raise RecordTypeError(
                end_word.offset, f"block at {first:04o}: second header word should be "
                                 f"dio last+1, found {_describe(end_word.value)}")
        end = end_word.value & 0o17777  # 10000 is a legal end: macro1 writes dio 10000
        count = end - first
        if not 1 <= count <= MAX_BLOCK_WORDS:
            raise RecordTypeError(
                end_word.offset, f"block header dio {first:04o} / dio {end:04o} gives "
                                 f"{count} words (1 to {MAX_BLOCK_WORDS} allowed)")
        if end > 0o10000:
            raise RecordTypeError(
                end_word.offset, f"block header dio {first:04o} / dio {end:04o} runs past 7777")
        words = []
        for n in range(count):
            words.append(cursor.take(
                TruncatedTapeError,
                f"block {first:04o}-{end - 1:04o} (block {len(tape.blocks) + 1}, at frame {head.offset}) "
                f"is cut short: tape ends after {n} of its {count} words").value)
        punched = cursor.take(
            TruncatedTapeError,
            f"block {first:04o}-{end - 1:04o} (block {len(tape.blocks) + 1}, at frame {head.offset}) "
            f"is cut short: tape ends before its checksum")
        block = Block(first, end - 1, tuple(words), punched.value,
                      ones_complement_sum([head.value, end_word.value, *words]), head.offset)
        tape.blocks.append(block)
        if not block.ok:
            tape.errors.append(ChecksumError(
                punched.offset, f"bad checksum in block {first:04o}-{end - 1:04o} "
                                f"(block {len(tape.blocks)}, at frame {head.offset}): punched {block.checksum:06o}, "
                                f"words sum to {block.computed:06o}"))


def _finish(cursor: _Cursor, tape: Tape, start: _Word) -> None:
    tape.start = start.value & ADDRESS_MASK
    tape.start_offset = start.offset
    tape.trailer = tape.length - start.offset - 3
    if cursor.more():
        extra = len(cursor.frames.words) - cursor.index
        tape.notes.append(
            f"frame {cursor.offset} (octal {cursor.offset:o}): {extra} data word{'s' * (extra != 1)} after "
            f"the transfer word jmp {tape.start:04o}: read-in stops there and never reads "
            f"{'them' if extra != 1 else 'it'} (unless the program reads the tape itself)")
    partial = cursor.frames.partial
    if partial is not None and partial[0] > start.offset:
        tape.notes.append(f"frame {partial[0]} (octal {partial[0]:o}): {partial[1]} frame(s) of a word after "
                          f"the transfer word, never read")
    elif cursor.frames.error is not None:
        raise cursor.frames.error


def _relocated(word: int, shift: int) -> int:
    """A loader word moved by ``shift`` words: address fields inside the loader move with it."""
    if word >> 12 & 0o76 not in _RELOCATABLE:
        return word
    address = word & ADDRESS_MASK
    if address in range(LOADER_ORIGIN, LOADER_ORIGIN + LOADER_SPAN):
        return (word & ~ADDRESS_MASK) | ((address + shift) & ADDRESS_MASK)
    return word


def loader_kind(records: Iterable[RimRecord], origin: int) -> str:
    """Which loader the RIM records starting at ``origin`` hold (a key of LOADER_KINDS)."""
    code = {r.address: r.word for r in records}
    shift = origin - LOADER_ORIGIN
    differs = [n for n, word in enumerate(MACRO1_LOADER)
               if code.get(origin + n) != _relocated(word, shift)]
    if differs and differs != [_LOADER_DATA_WORD]:
        return "unknown"
    if shift:
        return "moved"
    return "dec" if differs else "macro1"


def _check_loader(tape: Tape) -> None:
    """A loader that is macro1's but for a word or two is damage (it has no checksum, so
    this is the only way to see it); one that differs more is a loader of its own."""
    origin = tape.loader_region.start
    shift = origin - LOADER_ORIGIN
    expected = [(origin + n, _relocated(word, shift)) for n, word in enumerate(MACRO1_LOADER)]
    for n, record in enumerate(tape.loader):
        if n == _LOADER_DATA_WORD and n < len(expected) and record.address == expected[n][0]:
            continue
        if n >= len(expected) or (record.address, record.word) != expected[n]:
            want = (f"dio {expected[n][0]:04o} / {expected[n][1]:06o}" if n < len(expected)
                    else "no more records")
            tape.errors.append(LoaderError(
                record.offset, f"loader record {n + 1} is dio {record.address:04o} / "
                               f"{record.word:06o}; macro1's loader has {want}"))
            return
    if len(tape.loader) < len(expected):
        tape.errors.append(LoaderError(
            tape.loader[-1].offset if tape.loader else tape.leader,
            f"loader has {len(tape.loader)} records; macro1's has {len(expected)}"))


def _nearly_macro1(records: list[RimRecord], origin: int) -> bool:
    """Loader records at ``origin`` that differ from macro1's loader in at most two words:
    a damaged macro1 loader rather than another one."""
    code = {r.address: r.word for r in records}
    shift = origin - LOADER_ORIGIN
    differs = sum(code.get(origin + n) != _relocated(word, shift)
                  for n, word in enumerate(MACRO1_LOADER) if n != _LOADER_DATA_WORD)
    return differs <= 2 and len(records) >= LOADER_WORDS - 2


def _note_hazards(tape: Tape) -> None:
    region = tape.loader_region
    for block in tape.blocks:
        span = f"{block.first:04o}-{block.last:04o}"
        if block.checksum == WORD_MASK and block.ok:
            tape.hazards.append(ReadInHazard(
                block.offset, f"block {span} has checksum 777777 (minus zero): the loader's "
                              f"add turns -0 into +0, so read-in halts at {region.start + 0o23:04o}"))
        if tape.has_loader and block.last >= region.start and block.first < region.stop:
            tape.hazards.append(ReadInHazard(
                block.offset, f"block {span} overwrites the loader at "
                              f"{region.start:04o}-{region.stop - 1:04o} while it runs"))
        if block.last == ADDRESS_MASK:
            tape.hazards.append(ReadInHazard(
                block.offset, f"block {span} ends at 7777 (header dio 10000): "
                              f"SIMH's load -b rejects it with 'Format error'"))


def _parse_rim_first(frames: _Frames) -> Tape:
    tape = Tape(format="rim", length=frames.length)
    cursor = _Cursor(frames)
    tape.leader = cursor.offset
    try:
        if not cursor.more() and frames.error is None:
            raise MissingStartError(frames.length, "no data on the tape (no frame has the 0200 hole "
                                                   "that binary read-in reads)")
        records, jump = _read_rim_records(cursor, "RIM read-in")
        target = jump.value & ADDRESS_MASK
        addresses = [r.address for r in records]
        # a loader is the last run of consecutive records, and the jmp goes to its start
        run = len(addresses)
        while run > 0 and (run == len(addresses) or addresses[run] == addresses[run - 1] + 1):
            run -= 1
        run_start = addresses[run] if addresses else None
        loader_like = run_start == target and len(addresses) - run >= LOADER_WORDS - 2
        kind = loader_kind(records, target) if loader_like else None
        damaged_macro1 = kind == "unknown" and _nearly_macro1(records, target)
        if kind in ("macro1", "dec", "moved") or damaged_macro1:
            tape.format, tape.has_loader = "block", True
            tape.loader, tape.loader_start = tuple(records), target
            tape.loader_kind = "macro1" if damaged_macro1 else kind
            if damaged_macro1:
                _check_loader(tape)   # macro1's loader with a word or two damaged (it has no checksum)
            _finish(cursor, tape, _read_blocks(cursor, tape))
        elif kind == "unknown" and cursor.more():
            tape.records = tuple(records)
            tape.loader_kind, tape.loader_start = "unknown", target
            tape.start, tape.start_offset = target, jump.offset
            tape.notes.append(f"frame {jump.offset} (octal {jump.offset:o}): jmp {target:04o} starts a loader "
                              f"of the tape's own at {target:04o}-{addresses[-1]:04o}, not macro1's: the "
                              f"{_count(len(frames.words) - cursor.index, 'word')} after it are read by it "
                              f"and not checked here")
        else:
            tape.records = tuple(records)
            _finish(cursor, tape, jump)
    except TapeError as error:
        tape.errors.append(error)
    return tape


def _parse_blocks_only(frames: _Frames) -> Tape:
    tape = Tape(format="block", length=frames.length)
    cursor = _Cursor(frames)
    tape.leader = cursor.offset
    try:
        _finish(cursor, tape, _read_blocks(cursor, tape))
    except TapeError as error:
        tape.errors.append(error)
    return tape


def parse_tape(data: bytes) -> Tape:
    """Read as much of a tape as can be read; problems are listed in ``Tape.errors``
    (in tape order) rather than raised. A structural error ends the reading; a bad
    checksum or a damaged loader does not."""
    frames = _Frames(bytes(data))
    tape = _parse_rim_first(frames)
    if tape.errors and isinstance(tape.errors[-1], RecordTypeError) and not tape.has_loader:
        # A noinput tape has no RIM section: it starts straight with blocks.
        blocks_only = _parse_blocks_only(frames)
        if blocks_only.ok:
            tape = blocks_only
            tape.notes.insert(0, "no loader on the tape (macro1's noinput): the blocks need a loader "
                                 "already in core, e.g. at 7751 from an earlier tape")
    if tape.format == "block":
        _note_hazards(tape)
    tape.notes[:0] = frames.notes()
    tape.errors.sort(key=lambda error: error.offset)
    return tape


def read_tape(data: bytes) -> Tape:
    """Read a sound tape, or raise the first ``TapeError`` found on it."""
    tape = parse_tape(data)
    if tape.errors:
        raise tape.errors[0]
    return tape
