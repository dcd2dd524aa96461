"""True 1960 time: the PDP-1's memory cycles, counted instruction by instruction from SIMH's history.

Why: SIMH 3.8.1 charges one time unit for every instruction, but the real
machine did not.  The PDP-1 Handbook (1960-61) gives a 5 us memory cycle and
these times, the whole table used here:

* memory-reference instructions (``and ior xor lac lio dac dap dip dio dzm
  add sub idx isp sad sas``, and the basic machine's multiply and divide
  steps ``mus dis``, which SIMH names MUL and DIV): 2 cycles;
* ``jmp``, ``jsp``: 1 cycle; ``jda``, ``cal``: 2;
* ``law``, skips, shifts, operate and IOT instructions: 1 cycle (an IOT's
  wait for its device is not modelled: SIMH re-executes a waiting IOT, and
  each re-execution is counted as 1 cycle);
* ``xct``: 1 cycle plus the instruction it executes;
* each level of indirect addressing: 1 cycle more.

How it is counted: SIMH keeps an instruction history (``set cpu
history=N``, N <= 65,536).  ``CycleCounter.step`` clears it, runs a slice of
at most N instructions with ``step``, lists the slice (``show cpu history``:
one line per instruction executed, with its mnemonic) and sums each line's
cycles.  The ``I`` after a mnemonic is an indirect only for memory
references, ``jmp``/``jsp`` and ``xct``: ``law i`` loads a negative number,
``sza i`` is an inverted skip, ``tyo i`` waits.  The history shows neither
how many levels an indirect took (only the final address) nor what an
``xct`` executed (one line, with the executed instruction's address), so
after each slice the words those need -- each indirect's pointer word and
each ``xct``'s operand -- are examined in one command and followed (a
pointer word with its own indirect bit is one level more).  That is exact
as long as the program does not change a pointer word's indirect bit, or
an ``xct``'d instruction's kind, inside a slice; the Kalah program has no
multi-level pointers and no ``xct`` at all.

API (small and stable; other modules build on it):

* ``CYCLES_PER_SECOND`` (200,000: one 5 us cycle after another) and
  ``seconds(cycles)``;
* ``HistoryEntry`` and ``parse_history(text)``: SIMH's history lines;
* ``entry_cycles(entry, word_at)``: one instruction's cycles, ``word_at``
  giving core words for indirect chains and ``xct``;
* ``word_cycles(word, word_at)``: the same from an instruction word;
* ``CycleCounter(sim)``: on a stopped ``Simh``, ``step(n)`` runs n
  instructions (any n: slices of at most the history length) and returns
  what ``Simh.step`` returns, adding to ``instructions`` and ``cycles``; a
  stop inside (a breakpoint, a halt) is counted up to it and then raised;
  ``run_to(address)`` steps until the PC reaches a breakpoint there;
  ``by_address``, when set to a ``Counter``, also gets each instruction's
  cycles added under its address (a profile: ``bench`` groups it by routine).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from .simh import BreakpointReached, MachineStopped, Simh, SimhError

CYCLE_MICROSECONDS = 5
CYCLES_PER_SECOND = 200_000
HISTORY_MAX = 65_536  # SIMH 3.8.1's largest instruction history
INDIRECT = 0o010000

# Cycles of each kind before indirect levels (the Handbook's table).
MEMORY_REFERENCE = frozenset(
    "AND IOR XOR LAC LIO DAC DAP DIP DIO DZM ADD SUB IDX ISP SAD SAS MUL DIV".split())
JUMPS = frozenset(("JMP", "JSP"))
TWO_CYCLE_CALLS = frozenset(("JDA", "CAL"))


class CycleCountError(SimhError):
    """A history line or instruction word this table cannot time."""


def seconds(cycles: int) -> float:
    """1960 seconds of ``cycles`` memory cycles (5 us each)."""
    return cycles * CYCLE_MICROSECONDS / 1_000_000


@dataclass(frozen=True)
class HistoryEntry:
    """One instruction of SIMH's history: where, what, and the address fields the timing needs."""

    pc: int
    mnemonic: str  # the first word of SIMH's disassembly, upper case (LAC, SZA, XCT...)
    indirect: bool  # an indirect memory reference, jmp/jsp or xct (not law i, sza i, tyo i)
    address: int | None  # the direct address field of a memory reference, jmp/jsp or xct
    ea: int | None  # SIMH's effective address (for xct: that of the instruction executed)


def _addressed(mnemonic: str) -> bool:
    return mnemonic in MEMORY_REFERENCE or mnemonic in JUMPS or mnemonic == "XCT"


# PC, OV, AC, IO, PF, then the EA (memory references) or blanks, then the disassembly.
_LINE = re.compile(r"^([0-7]{6})  [0-7]  [0-7]{6} [0-7]{6} [0-7]+ (?:([0-7]{6})  | {8})(\S+)( I)?(?: ([0-7]+))?",
                   re.MULTILINE)


def _fields(text: str) -> list[tuple[str, str, str, str, str]]:
    found = _LINE.findall(text)
    for _, _, mnemonic, _, _ in found:
        if mnemonic.startswith("("):
            raise CycleCountError("SIMH's history lists an undefined instruction")
    return found


def parse_history(text: str) -> list[HistoryEntry]:
    """The instructions in the text of ``show cpu history``, oldest first.

    Lines are ``PC OV AC IO PF [EA] IR-text [operand]``, e.g.
    ``002022  0  601566 000000 000 001563  DAC I 2125 [202125]``; anything else
    (the heading, blank lines, the echoed command, SIMH's prompt) is skipped.
    """
    entries = []
    for pc, ea, mnemonic, ind, address in _fields(text):
        mnemonic = mnemonic.upper()
        addressed = _addressed(mnemonic)
        if addressed and not address:
            raise CycleCountError(f"no address in the history line of {pc}: {mnemonic}")
        entries.append(HistoryEntry(int(pc, 8), mnemonic, addressed and bool(ind),
                                    int(address, 8) if addressed else None, int(ea, 8) if ea else None))
    return entries


WordAt = Callable[[int], int]
_XCT_NEST = 16  # SIMH's own limit on nested xct


def _levels(address: int, word_at: WordAt) -> tuple[int, int]:
    """Indirect levels through the pointer at ``address``, and the final address."""
    levels = 1
    word = word_at(address)
    while word & INDIRECT:
        levels += 1
        if levels > 64:
            raise CycleCountError(f"an indirect loop through {address:04o}")
        word = word_at(word & 0o7777)
    return levels, word & 0o7777


def word_cycles(word: int, word_at: WordAt, nest: int = 0) -> int:
    """The cycles of the instruction ``word`` (executed by an ``xct``, or for a check from core)."""
    op = (word >> 13) & 0o37
    indirect = bool(word & INDIRECT)
    address = word & 0o7777
    if op == 0o04:  # xct
        if nest >= _XCT_NEST:
            raise CycleCountError("xct nested too deep")
        target = address
        extra = 0
        if indirect:
            extra, target = _levels(address, word_at)
        return 1 + extra + word_cycles(word_at(target), word_at, nest + 1)
    if op == 0o07:  # jda (with the bit) and cal
        return 2
    if op < 0o32:  # memory references (op 0 and the unused codes are SIMH's "undefined")
        if op in (0o00, 0o05, 0o06, 0o17):
            raise CycleCountError(f"{word:06o} is no instruction")
        base = 1 if op in (0o30, 0o31) else 2
        return base + (_levels(address, word_at)[0] if indirect else 0)
    return 1  # skip, shift, law, iot, operate


def entry_cycles(entry: HistoryEntry, word_at: WordAt) -> int:
    """The cycles of one history line (``word_at`` is asked only for indirects and xct)."""
    m = entry.mnemonic
    if m in TWO_CYCLE_CALLS:
        return 2
    if m == "XCT":
        assert entry.address is not None
        extra, target = (_levels(entry.address, word_at) if entry.indirect else (0, entry.address))
        return 1 + extra + word_cycles(word_at(target), word_at, 1)
    if m in MEMORY_REFERENCE or m in JUMPS:
        base = 2 if m in MEMORY_REFERENCE else 1
        if entry.indirect:
            assert entry.address is not None
            return base + _levels(entry.address, word_at)[0]
        return base
    return 1


def needed_words(entries: Iterable[HistoryEntry]) -> set[int]:
    """The core words the timing of ``entries`` reads first (pointers and xct operands)."""
    return {e.address for e in entries
            if e.address is not None and (e.indirect or e.mnemonic == "XCT")}


class _Core:
    """Core words examined from the stopped machine on demand, many at a time."""

    def __init__(self, sim: Simh) -> None:
        self.sim = sim
        self.words: dict[int, int] = {}

    def fetch(self, addresses: Iterable[int]) -> None:
        wanted = sorted(set(addresses) - self.words.keys())
        for start in range(0, len(wanted), 200):  # one examine command for many words
            chunk = wanted[start:start + 200]
            words, out = self.sim.examine_words(chunk)
            self.words.update(words)
            missing = [a for a in chunk if a not in self.words]
            if missing:
                raise CycleCountError(f"examine gave no word at {missing[0]:04o}: {out!r}")

    def __call__(self, address: int) -> int:
        if address not in self.words:
            self.fetch([address])
        return self.words[address]


# A history line's instruction, after PC, OV, AC, IO, PF and the EA column (or its blanks), up to the
# operand's value in brackets: "LAC 1620 ", "SZA I", "DAC I 2125 ".  Found and counted in C.
_INSTRUCTION = re.compile(rb"^[0-7]{6} .{30}([^\[\r\n]*)", re.MULTILINE)
_KIND = re.compile(r"(\S+)( I)?(?: ([0-7]+))?")


def history_kinds(listing: bytes) -> Counter[tuple[str, str, str]]:
    """How often each instruction -- (mnemonic, " I" or "", address field or "") -- ran in ``listing``."""
    kinds: Counter[tuple[str, str, str]] = Counter()
    for text, count in Counter(_INSTRUCTION.findall(listing)).items():
        match = _KIND.match(text.decode("latin-1").strip())
        if match is None:
            raise CycleCountError(f"a history line this table cannot read: {text!r}")
        mnemonic, ind, address = match.groups(default="")
        if mnemonic.startswith("("):
            raise CycleCountError(f"SIMH's history lists an undefined instruction: {text!r}")
        kinds[(mnemonic, ind, address)] += count
    return kinds


COUNTED_PER_SECOND = 180_000


class CycleCounter:
    """Steps a stopped ``Simh`` and counts the instructions and memory cycles of what ran."""

    def __init__(self, sim: Simh, history: int = HISTORY_MAX) -> None:
        if not 64 <= history <= HISTORY_MAX:
            raise ValueError(f"SIMH's history holds 64 to {HISTORY_MAX} instructions, not {history}")
        self.sim = sim
        self.history = history
        self.instructions = 0
        self.cycles = 0
        self.by_address: Counter[int] | None = None
        out = sim.command(f"set cpu history={history}")
        if out:
            raise SimhError(f"set cpu history={history}: {out}", sim.tail())

    @property
    def seconds(self) -> float:
        return seconds(self.cycles)

    def reset(self) -> None:
        self.instructions = self.cycles = 0

    def _count_slice(self, n: int) -> None:
        # only the last n entries: the slice's (the history was emptied before it).  SIMH looks at every
        # entry it is asked to show, filled or not, so asking for the whole history cost every slice
        # about 20 ms more, whatever its length.
        listing = self.sim.listing(f"show cpu history={n}", max(self.sim.timeout, 60.0))
        # The same instruction times the same each time (given its pointer words): time each
        # distinct (mnemonic, indirect, address) once.
        if self.by_address is None:
            kinds = history_kinds(listing)
        else:  # a profile needs every line's PC: read line by line (slower)
            fields = _fields(listing.decode("latin-1"))
            kinds = Counter((m, ind, a) for _, _, m, ind, a in fields)
        entries = []
        for mnemonic, ind, address in kinds:
            m = mnemonic.upper()
            addressed = _addressed(m)
            if addressed and not address:
                raise CycleCountError(f"no address in a history line of {m}")
            if self.sim.config.multiply_divide and m in ("MUL", "DIV"):
                raise CycleCountError("the multiply/divide option's times are not in the 1960 table")
            entries.append(HistoryEntry(0, m, addressed and bool(ind), int(address, 8) if addressed else None, None))
        core = _Core(self.sim)
        core.fetch(needed_words(entries))
        each = {kind: entry_cycles(entry, core) for kind, entry in zip(kinds, entries, strict=True)}
        self.cycles += sum(count * each[kind] for kind, count in kinds.items())
        self.instructions += sum(kinds.values())
        if self.by_address is not None:
            for pc, _, m, ind, a in fields:
                self.by_address[int(pc, 8)] += each[(m, ind, a)]

    def _slice(self, n: int, timeout: float | None) -> tuple[str, int | None]:
        self.sim.command("set cpu history")  # empty it: only this slice is listed
        try:
            result = self.sim.step(n, timeout)
        except MachineStopped:
            self._count_slice(n)
            raise
        self._count_slice(n)
        return result

    def step(self, instructions: int, timeout: float | None = None) -> tuple[str, int | None]:
        """Run ``instructions`` instructions (SIMH time units) in slices, counting every one.

        Returns the typewriter output and the PC, as ``Simh.step``; a stop inside
        is raised after what ran before it is counted.
        """
        output: list[str] = []
        pc: int | None = None
        left = instructions
        while left > 0:
            n = min(left, self.history)
            try:
                text, pc = self._slice(n, timeout)
            except MachineStopped:
                if output:
                    self.sim.unread("".join(output))
                raise
            output.append(text)
            left -= n
        return "".join(output), pc

    def run_to(self, address: int, limit: int, timeout: float | None = None,
               between: Callable[[], None] | None = None) -> None:
        """Step until the breakpoint at ``address`` stops the machine there (within ``limit`` instructions).

        The breakpoint must be set; any other stop is raised.  The typewriter
        output of the run stays readable (``Simh.read_some``).  ``between`` is
        called after every slice, the machine stopped (a long search's progress).
        """
        done = 0
        while done < limit:
            n = min(self.history, limit - done)
            try:
                text, _ = self._slice(n, timeout)
            except BreakpointReached as stop:
                if stop.pc == address:
                    return
                raise
            self.sim.unread(text)
            done += n
            if between is not None:
                between()
        raise SimhError(f"the PC did not reach {address:04o} within {limit} instructions", self.sim.tail())
