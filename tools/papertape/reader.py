"""Reading a PDP-1 paper tape as the hardware's read-in and SIMH's ``boot ptr`` read it, checking everything
the format allows (see the package's docstring for the formats)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tools.disasm import disassemble

from .format import (
    _LOADER_DATA_WORD,
    _RELOCATABLE,
    ADDRESS_MASK,
    DATA_HOLE,
    DIO,
    JMP,
    LOADER_ORIGIN,
    LOADER_SPAN,
    LOADER_WORDS,
    MACRO1_LOADER,
    MAX_BLOCK_WORDS,
    OPCODE_MASK,
    READ_IN_OPCODES,
    WORD_MASK,
    ChecksumError,
    LoaderError,
    MissingStartError,
    RecordTypeError,
    TapeError,
    TruncatedTapeError,
    ones_complement_sum,
)
from .records import Block, ReadInHazard, RimRecord, Tape

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
