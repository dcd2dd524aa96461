"""macro1's command-line switches, as the assembler receives them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Options:
    """macro1's command-line switches."""

    symbol_table: bool = False        #: -d  list the symbol table
    macro_expansions: bool = False    #: -m  list macro expansions
    permanent_symbols: bool = False   #: -p  write the permanent symbols (.prm)
    rim: bool = False                 #: -r  pure RIM tape, no block loader
    symbol_punch: bool = False        #: -s  punch a symbol tape (.sym)
    cross_reference: bool = False     #: -x  list a cross-reference
    symbol_tapes: list[bytes] = field(default_factory=list)   #: -S  symbols to preload
