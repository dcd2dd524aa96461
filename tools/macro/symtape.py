"""Symbol punch tapes (``-s`` writes one, ``-S file`` reads one back).

A symbol tape is an ordinary block-loader tape whose words, loaded from 5000
on, are pairs: the first three characters of a symbol name in FIO-DEC (with
the "zone bits" permuted the way DEC's MACRO did, so that DDT sorts them) and
the symbol's value.
"""

from __future__ import annotations

from collections.abc import Iterator

from tools.papertape.format import DIO, JMP, WORD_MASK
from tools.papertape.punch import TapePunch

from . import charset
from .symbols import SymbolTable, is_fixed, is_macro, is_pseudo

OP_CODE = 0o760000

#: FIO-DEC code -> the lower-case letter or digit a symbol name may hold (else "").
_NAME_CHARS: dict[int, str] = {
    **{code: str(code) for code in range(1, 10)},
    0o20: "0",
    **{0o22 + i: c for i, c in enumerate("stuvwxyz")},
    **{0o41 + i: c for i, c in enumerate("jklmnopqr")},
    **{0o61 + i: c for i, c in enumerate("abcdefghi")},
}


def permute(word: int) -> int:
    """Swap the zone bits of a three-character name word (its own inverse)."""
    zones = word & 0o202020
    zones = ((zones << 1) & WORD_MASK) | ((zones >> 17) & 1)
    return word ^ zones ^ 0o400000


def name_from_word(word: int) -> str:
    """The (up to) three-character name a symbol tape word holds; stops at an unknown code."""
    word = permute(word)
    name = ""
    for shift in (12, 6, 0):
        char = _NAME_CHARS.get((word >> shift) & 0o77, "")
        if not char:
            break
        name += char
    return name


class SymbolTapeError(Exception):
    """The file is not a well-formed symbol tape."""


def _words(data: bytes) -> Iterator[int]:
    """Assemble 18-bit words from the frames that have the 0200 hole."""
    word = count = 0
    for frame in data:
        if frame & 0o200:
            word = (word << 6) | (frame & 0o77)
            count += 1
            if count == 3:
                yield word
                word = count = 0


def read_symbol_tape(data: bytes) -> list[tuple[str, int]]:
    """Return the ``(name, value)`` pairs of a symbol tape, in tape order.

    The tape must hold RIM pairs (the loader) up to a ``jmp``, then checksummed
    blocks of name/value pairs, then a ``jmp``; anything else is an error.
    """
    words = _words(data)

    def take() -> int:
        word = next(words, None)
        if word is None:
            raise SymbolTapeError("tape ends early")
        return word

    while True:
        word = take()
        if word & OP_CODE == JMP:
            break
        if word & OP_CODE != DIO:
            raise SymbolTapeError("loader is not in RIM form")
        take()
    pairs: list[tuple[str, int]] = []
    while True:
        start = take()
        if start & OP_CODE == JMP:
            return pairs
        if start & OP_CODE != DIO:
            raise SymbolTapeError("block does not start with dio")
        end = take()
        if end & OP_CODE != DIO:
            raise SymbolTapeError("block does not end with dio")
        total = start + end
        while start < end:
            name_word = take()
            total += name_word
            start += 1
            if start >= end:
                raise SymbolTapeError("odd block length")
            value = take()
            pairs.append((name_from_word(name_word), value))
            total += value
            start += 1
        checksum = take()
        if total & ~WORD_MASK:
            total = (total & WORD_MASK) + (total >> 18)
            if total & 0o1000000:
                total += 1
        if checksum != total:
            raise SymbolTapeError("checksum")


def punch_symbol_tape(punch: TapePunch, table: SymbolTable, loader: bool) -> bytes:
    """Punch the ``-s`` tape: leader, the loader (unless ``noinput``), then every
    user symbol as a name word and a value word from 5000 on, in blocks.

    It uses the assembler's own punch, block buffer included: a block the program
    left unpunched (no ``start``) comes out first, as it does from macro1.  The
    name word takes three bytes of the stored name, NUL and leftovers included.
    """
    punch.data = bytearray()
    punch.leader()
    if loader:
        punch.loader()
    punch.leader(5)
    address = 0o5000
    for symbol in table.symbols():
        kind = symbol.kind
        if is_fixed(kind) or is_pseudo(kind) or is_macro(kind):
            continue
        word = 0
        for char in symbol.field[:3]:
            if 65 <= char <= 90:
                char += 32
            word = (word << 6) | (charset.ASCII_TO_FIODEC[char & 0o177] & charset.CODE_BITS)
        punch.word(address, permute(word))
        punch.word(address + 1, symbol.value)
        address += 2
    punch.flush()
    punch.triplet(JMP)
    punch.leader()
    return bytes(punch.data)
