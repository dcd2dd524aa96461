"""The assembler's symbol table: the built-in symbols and macro1's lookup rules.

macro1 keeps every symbol (built-in instructions, pseudo-ops, macros, user
labels and even symbols only ever *referenced*) in one array sorted by name
and searched by bisection.  Two of its behaviours are visible in the output
and so are reproduced exactly here:

* a lookup that misses returns the last pseudo-op or macro *visited by the
  bisection* whose first three characters match; that is how ``const``,
  ``var`` or ``dec`` work as abbreviations, and it depends on the exact probe
  sequence, hence on the exact table contents;
* inserting a symbol shifts the later entries up, and the new entry keeps the
  cross-reference slot number of the entry it displaced (this shows in the
  ``-x`` listing when pass 2 meets a symbol pass 1 never saw).
"""

from __future__ import annotations

from dataclasses import dataclass

# Symbol type bits, as macro1 combines them.
UNDEFINED = 0o000
DEFINED = 0o001
FIXED = 0o002
LABEL = 0o010 | DEFINED
REDEFINED = 0o020 | DEFINED
DUPLICATE = 0o040 | DEFINED
PSEUDO = 0o100 | FIXED | DEFINED
EPSEUDO = 0o200 | FIXED | DEFINED
MACRO = 0o400 | DEFINED
DEFFIX = DEFINED | FIXED
NOT_REDEFINABLE = (MACRO | PSEUDO | LABEL | FIXED) & ~DEFINED

SIGNIFICANT = 6          #: characters of a name that count

# Pseudo-op numbers (the value a pseudo-op symbol carries).
OP_DECIMAL, OP_DEFINE, OP_FLEXO, OP_CONSTANTS, OP_OCTAL, OP_REPEAT, OP_START, \
    OP_CHAR, OP_VARIABLES, OP_TEXT, OP_NOINPUT, OP_EXPUNGE = range(12)

#: Statement-only pseudo-ops, then the ones usable inside expressions.
PSEUDO_OPS: tuple[tuple[int, str, int], ...] = (
    (PSEUDO, "consta", OP_CONSTANTS),
    (PSEUDO, "define", OP_DEFINE),
    (PSEUDO, "repeat", OP_REPEAT),
    (PSEUDO, "start", OP_START),
    (PSEUDO, "variab", OP_VARIABLES),
    (PSEUDO, "text", OP_TEXT),
    (PSEUDO, "noinpu", OP_NOINPUT),
    (PSEUDO, "expung", OP_EXPUNGE),
    (EPSEUDO, "charac", OP_CHAR),
    (EPSEUDO, "decima", OP_DECIMAL),
    (EPSEUDO, "flexo", OP_FLEXO),
    (EPSEUDO, "octal", OP_OCTAL),
)

#: macro1's built-in instruction symbols, in its definition order.
PERMANENT_SYMBOLS: tuple[tuple[str, int], ...] = (
    # memory reference
    ("and", 0o020000), ("ior", 0o040000), ("xor", 0o060000), ("xct", 0o100000),
    ("lac", 0o200000), ("lio", 0o220000), ("dac", 0o240000), ("dap", 0o260000),
    ("dip", 0o300000), ("dio", 0o320000), ("dzm", 0o340000), ("add", 0o400000),
    ("sub", 0o420000), ("idx", 0o440000), ("isp", 0o460000), ("sad", 0o500000),
    ("sas", 0o520000), ("mul", 0o540000), ("mus", 0o540000), ("div", 0o560000),
    ("dis", 0o560000), ("jmp", 0o600000), ("jsp", 0o620000), ("skip", 0o640000),
    ("cal", 0o160000), ("jda", 0o170000), ("i", 0o010000), ("skp", 0o640000),
    ("law", 0o700000), ("iot", 0o720000), ("opr", 0o760000), ("nop", 0o760000),
    # shifts and rotates, and the shift counts
    ("ral", 0o661000), ("ril", 0o662000), ("rcl", 0o663000), ("sal", 0o665000),
    ("sil", 0o666000), ("scl", 0o667000), ("rar", 0o671000), ("rir", 0o672000),
    ("rcr", 0o673000), ("sar", 0o675000), ("sir", 0o676000), ("scr", 0o677000),
    ("1s", 0o000001), ("2s", 0o000003), ("3s", 0o000007), ("4s", 0o000017),
    ("5s", 0o000037), ("6s", 0o000077), ("7s", 0o000177), ("8s", 0o000377),
    ("9s", 0o000777),
    # skips
    ("sza", 0o640100), ("spa", 0o640200), ("sma", 0o640400), ("szo", 0o641000),
    ("spi", 0o642000), ("szs", 0o640000), ("szf", 0o640000),
    # operate
    ("clf", 0o760000), ("stf", 0o760010), ("cla", 0o760200), ("hlt", 0o760400),
    ("xx", 0o760400), ("cma", 0o761000), ("clc", 0o761200), ("lat", 0o762200),
    ("cli", 0o764000),
    # in-out transfers
    ("rpa", 0o730001), ("rpb", 0o730002), ("rrb", 0o720030), ("ppa", 0o730005),
    ("ppb", 0o730006), ("tyo", 0o730003), ("tyi", 0o720004), ("dpy", 0o730007),
    ("lsm", 0o720054), ("esm", 0o720055), ("cbs", 0o720056), ("lem", 0o720074),
    ("eem", 0o724074), ("cks", 0o720033),
)


def is_defined(kind: int) -> bool:
    return kind & DEFINED == DEFINED


def is_fixed(kind: int) -> bool:
    return kind & FIXED == FIXED


def is_pseudo(kind: int) -> bool:
    return kind & PSEUDO == PSEUDO


def is_epseudo(kind: int) -> bool:
    return kind & EPSEUDO == EPSEUDO


def is_macro(kind: int) -> bool:
    return kind & MACRO == MACRO


def is_not_redefinable(kind: int) -> bool:
    return kind & NOT_REDEFINABLE != 0


@dataclass(slots=True)
class Symbol:
    """One symbol-table entry (also used for macro dummy arguments).

    ``field`` is the name as macro1 stores it, in seven bytes: after the name's
    NUL come leftovers of whichever symbol held the slot before (the symbol
    tape punches three bytes of it, NUL or not).
    """

    name: str = ""
    kind: int = UNDEFINED
    value: int = 0
    xref_index: int = 0
    xref_count: int = 0
    field: bytes = bytes(SIGNIFICANT + 1)


class SymbolTable:
    """Symbols sorted by name (byte order), searched by bisection like macro1's.

    ``entries`` always holds one extra record past the last symbol: macro1's
    array keeps a stale record there, and a symbol inserted at the end inherits
    its cross-reference slot.
    """

    def __init__(self) -> None:
        self.entries: list[Symbol] = [Symbol()]
        self.by_name: dict[str, Symbol] = {}      # the same symbols, for the common exact hit

    @property
    def count(self) -> int:
        return len(self.entries) - 1

    def clear(self) -> None:
        """Forget every symbol, built-in ones included (``expunge``)."""
        self.entries = [Symbol()]
        self.by_name = {}

    def search(self, name: str) -> tuple[int, Symbol | None, Symbol | None]:
        """Bisect for ``name``: ``(insertion index, exact match, best abbreviation)``.

        The best abbreviation is the last pseudo-op or macro probed whose first
        three characters equal ``name``'s.  (An exact hit needs neither the index
        nor the probe sequence, so it is answered from a dictionary.)
        """
        exact = self.by_name.get(name)
        if exact is not None:
            return -1, exact, None
        entries = self.entries
        low, high = 0, len(entries) - 2
        best = None
        prefix = name[:3]
        while low <= high:
            middle = (low + high) // 2
            entry = entries[middle]
            other = entry.name
            if name < other:
                high = middle - 1
            elif name > other:
                low = middle + 1
            else:
                return middle, entry, best
            kind = entry.kind
            if ((kind & PSEUDO == PSEUDO or kind & EPSEUDO == EPSEUDO or kind & MACRO == MACRO)
                    and other[:3] == prefix):
                best = entry
        return low, None, best

    def insert(self, index: int, name: str) -> Symbol:
        """Insert an undefined symbol at ``index``; it inherits the displaced entry's
        cross-reference slot and the tail of its name field."""
        displaced = self.entries[index]
        raw = name.encode("latin-1") + b"\0"
        symbol = Symbol(name, UNDEFINED, 0, displaced.xref_index, 0, raw + displaced.field[len(raw):])
        self.entries.insert(index, symbol)
        self.by_name[name] = symbol
        return symbol

    def symbols(self) -> list[Symbol]:
        """The symbols in table (name) order."""
        return self.entries[:-1]


def permanent_symbols_text(table: SymbolTable) -> str:
    """The ``-p`` file: the fixed symbols as assignments after an ``expunge``."""
    lines = ["/ PERMANENT SYMBOL TABLE\n/\n", "        expunge\n/\n"]
    for symbol in table.symbols():
        kind = symbol.kind
        if is_fixed(kind) and not is_pseudo(kind) and not is_epseudo(kind):
            lines.append("\t%s=%o\n" % (symbol.name, symbol.value & 0xFFFFFFFF))
    return "".join(lines)
