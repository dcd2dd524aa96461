"""PDP-1 disassembler: one 18-bit word to macro1 source text.

The text is written in the dialect of Debian's macro1 (simh 3.8.1), using only that
assembler's permanent symbols, so that assembling the output gives back the same word.
That is why some choices look unusual:

* macro1 treats a space as ones'-complement *addition*, so ``cla cma`` assembles to
  741201, not 761200. Microinstructions are therefore joined with ``!`` (inclusive or):
  ``clc!cli``, ``sza!sma``, ``szs i 20!szf 3``. ``i`` (010000) follows the first
  mnemonic of a skip, as in ``szf i 1`` and ``sza i!sma``.
* Bits that macro1 has no name for (``lap`` 760100, the bare test-word bit 762000,
  ``ioh`` has no name either, the unused opcodes 00, 05, 06, 17, 36, ``opr i``, the
  skip bit 004000) are not guessed at: such a word comes out as six octal digits.
* Shift counts that are one of macro1's ``1s``..``9s`` masks print as such (``ral 3s``);
  any other mask prints as its octal value (``ral 5`` is two steps: bits 101).

Addresses and operands are printed in octal without leading zeros, which is how
macro1 reads numbers by default (``octal``).
"""

from __future__ import annotations

WORD_MASK = 0o777777
ADDRESS_MASK = 0o7777
INDIRECT = 0o010000

# Memory-reference instructions, keyed by the 5-bit opcode (word >> 13).
MEMORY_REFERENCE: dict[int, str] = {
    0o01: "and", 0o02: "ior", 0o03: "xor", 0o04: "xct",
    0o10: "lac", 0o11: "lio", 0o12: "dac", 0o13: "dap",
    0o14: "dip", 0o15: "dio", 0o16: "dzm",
    0o20: "add", 0o21: "sub", 0o22: "idx", 0o23: "isp",
    0o24: "sad", 0o25: "sas", 0o26: "mul", 0o27: "div",
    0o30: "jmp", 0o31: "jsp",
}

OP_CAL_JDA = 0o07
OP_SKIP = 0o32
OP_SHIFT = 0o33
OP_LAW = 0o34
OP_IOT = 0o35
OP_OPERATE = 0o37

# Skip-group condition bits, in the order they are printed.
SKIP_BITS: tuple[tuple[int, str], ...] = (
    (0o000100, "sza"),
    (0o000200, "spa"),
    (0o000400, "sma"),
    (0o001000, "szo"),
    (0o002000, "spi"),
)
SKIP_NAMED = sum(bit for bit, _ in SKIP_BITS) | 0o77  # plus szs (070) and szf (007)

# Shift group: (word >> 9) & 7 selects the register and kind; bit 5 (i) means "right".
SHIFT_LEFT = {1: "ral", 2: "ril", 3: "rcl", 5: "sal", 6: "sil", 7: "scl"}
SHIFT_RIGHT = {1: "rar", 2: "rir", 3: "rcr", 5: "sar", 6: "sir", 7: "scr"}
SHIFT_COUNTS = {(1 << n) - 1: f"{n}s" for n in range(1, 10)}

# Operate group bits that macro1 can name (see the module docstring for the rest).
OPERATE_NAMED = 0o004000 | 0o002000 | 0o001000 | 0o000400 | 0o000200 | 0o17

# IOT instructions in macro1's permanent symbol table (Debian simh 3.8.1 `macro1 -p`).
IOT_NAMES: dict[int, str] = {
    0o730001: "rpa", 0o730002: "rpb", 0o720030: "rrb",
    0o730005: "ppa", 0o730006: "ppb",
    0o730003: "tyo", 0o720004: "tyi", 0o730007: "dpy",
    0o720054: "lsm", 0o720055: "esm", 0o720056: "cbs",
    0o720074: "lem", 0o724074: "eem", 0o720033: "cks",
}


def octal_word(word: int) -> str:
    """The word as six octal digits: the form used for anything that is not an instruction."""
    return f"{word & WORD_MASK:06o}"


def disassemble(word: int) -> str:
    """Return macro1 source text that assembles back to exactly ``word``.

    ``word`` must be an 18-bit value. Words with no symbolic form come back as six
    octal digits (e.g. ``000000``).
    """
    if not 0 <= word <= WORD_MASK:
        raise ValueError(f"not an 18-bit word: {word!r}")
    opcode = word >> 13
    indirect = bool(word & INDIRECT)
    address = word & ADDRESS_MASK
    if opcode in MEMORY_REFERENCE:
        return _with_operand(MEMORY_REFERENCE[opcode], indirect, f"{address:o}")
    if opcode == OP_CAL_JDA:
        # 160000 is cal (its address is ignored by the machine), 170000 is jda.
        return f"{'jda' if indirect else 'cal'} {address:o}"
    if opcode == OP_LAW:
        return _with_operand("law", indirect, f"{address:o}")
    if opcode == OP_SKIP:
        return _skip(word) or octal_word(word)
    if opcode == OP_SHIFT:
        return _shift(word) or octal_word(word)
    if opcode == OP_IOT:
        return _iot(word)
    if opcode == OP_OPERATE:
        return _operate(word) or octal_word(word)
    return octal_word(word)


def _with_operand(mnemonic: str, indirect: bool, operand: str) -> str:
    return f"{mnemonic} i {operand}" if indirect else f"{mnemonic} {operand}"


def _join_first_indirect(parts: list[str], indirect: bool) -> str:
    """Join microinstructions with '!' and put ``i`` after the first mnemonic."""
    if indirect:
        head, _, operand = parts[0].partition(" ")
        parts = [f"{head} i {operand}".rstrip()] + parts[1:]
    return "!".join(parts)


def _skip(word: int) -> str | None:
    if word & 0o7777 & ~SKIP_NAMED:
        return None  # 004000 (sni on a PDP-1D) has no macro1 name
    parts = [name for bit, name in SKIP_BITS if word & bit]
    switch = (word >> 3) & 7
    flag = word & 7
    if switch:
        parts.append(f"szs {switch:o}0")
    if flag:
        parts.append(f"szf {flag:o}")
    if not parts:
        parts = ["skp"]
    return _join_first_indirect(parts, bool(word & INDIRECT))


def _shift(word: int) -> str | None:
    kind = (word >> 9) & 7
    table = SHIFT_RIGHT if word & INDIRECT else SHIFT_LEFT
    if kind not in table:
        return None
    mask = word & 0o777
    count = SHIFT_COUNTS.get(mask, f"{mask:o}")
    return f"{table[kind]} {count}"


def _iot(word: int) -> str:
    if word in IOT_NAMES:
        return IOT_NAMES[word]
    plain = word & ~INDIRECT
    if word & INDIRECT and plain in IOT_NAMES:
        return f"{IOT_NAMES[plain]} i"  # e.g. tyi i, the wait form of tyi
    device = word & ADDRESS_MASK
    text = "iot i" if word & INDIRECT else "iot"
    return f"{text} {device:o}" if device else text


def _operate(word: int) -> str | None:
    if word & INDIRECT or word & 0o7777 & ~OPERATE_NAMED:
        return None
    if word & 0o002000 and not word & 0o000200:
        return None  # or-in-test-word without cla has no macro1 name
    parts: list[str] = []
    if word & 0o002200 == 0o002200:
        parts.append("lat")
        if word & 0o001000:
            parts.append("cma")
    elif word & 0o001200 == 0o001200:
        parts.append("clc")
    else:
        if word & 0o000200:
            parts.append("cla")
        if word & 0o001000:
            parts.append("cma")
    if word & 0o004000:
        parts.append("cli")
    if word & 0o000400:
        parts.append("hlt")
    flag = word & 7
    if word & 0o10:
        parts.append(f"stf {flag}")
    elif flag:
        parts.append(f"clf {flag}")
    return "!".join(parts) if parts else "nop"
