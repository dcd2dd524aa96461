"""The result of an assembly, and ``assemble()``, the library entry point."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .assembler import Assembler
from .messages import Diagnostic, Fatal
from .options import Options
from .symbols import is_defined, is_fixed, is_macro, is_pseudo
from .symtape import SymbolTapeError

Source = str | bytes | Sequence[tuple[str, str | bytes]]
RECURSION_ROOM = 200000


@dataclass
class Program:
    """Everything one assembly produced.

    ``words`` maps each address to the word pass 2 assembled there (what the
    listing shows).  ``tape`` is the ``.rim`` file's bytes, or None when there
    were errors (macro1 then deletes the tape).  ``messages`` is what macro1
    prints on its error stream; ``errors`` are the diagnostics in it.
    """

    words: dict[int, int]
    symbols: dict[str, int]
    start: int | None
    listing: str
    tape: bytes | None
    errors: list[Diagnostic]
    messages: str
    title: str
    symbol_tape: bytes | None = None
    permanent_symbols: str | None = None
    fatal: str | None = None
    undefined: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when macro1 would have written the tape."""
        return not self.errors and self.fatal is None

    def word(self, address: int) -> int:
        """The word at ``address`` (0 where nothing was assembled)."""
        return self.words.get(address, 0)


def _as_files(source: Source, name: str) -> list[tuple[str, bytes]]:
    if isinstance(source, str):
        return [(name, source.encode("utf-8", "surrogateescape"))]
    if isinstance(source, (bytes, bytearray)):
        return [(name, bytes(source))]
    files = []
    for file_name, text in source:
        data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
        files.append((file_name, data))
    if not files:
        raise ValueError("no source files")
    return files


def run_assembler(files: list[tuple[str, bytes | None]], options: Options,
                  reader: Callable[[str], bytes | None] | None = None,
                  before_pass2: Callable[[], None] | None = None
                  ) -> tuple[Assembler, Fatal | None]:
    """Run an assembly; return the assembler and, if it stopped short, why."""
    assembler = Assembler(files, options, reader, before_pass2)
    # A repeat whose text runs on into further repeats nests processing one line
    # deeper per line, as it does in macro1 (whose C stack takes it); give Python
    # room for that, and stop cleanly beyond it.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_ROOM))
    try:
        assembler.run()
    except Fatal as stop:
        return assembler, stop
    except RecursionError:
        return assembler, Fatal("statements nested too deeply (repeats continued by text "
                                "over more than %d lines)" % (RECURSION_ROOM // 20))
    finally:
        sys.setrecursionlimit(limit)
    return assembler, None


def assemble(source: Source, *, name: str = "source.mac", symbol_table: bool = False,
             macro_expansions: bool = False, permanent_symbols: bool = False, rim: bool = False,
             symbol_punch: bool = False, cross_reference: bool = False,
             symbol_tapes: Sequence[bytes] = ()) -> Program:
    """Assemble PDP-1 macro source exactly as macro1 would, without files.

    ``source`` is one text (named ``name`` in messages) or a list of
    ``(filename, text)`` pairs assembled as one program.  The keyword options
    are macro1's switches: ``symbol_table`` -d, ``macro_expansions`` -m,
    ``permanent_symbols`` -p, ``rim`` -r, ``symbol_punch`` -s,
    ``cross_reference`` -x, and ``symbol_tapes`` the contents of -S files.
    Assembly errors do not raise: check ``Program.ok`` / ``Program.errors``.
    A malformed symbol tape raises ``SymbolTapeError``.
    """
    options = Options(symbol_table, macro_expansions, permanent_symbols, rim, symbol_punch,
                      cross_reference, [bytes(tape) for tape in symbol_tapes])
    assembler, fatal = run_assembler(_as_files(source, name), options)
    symbols: dict[str, int] = {}
    undefined: list[str] = []
    for symbol in assembler.symtab.symbols():
        kind = symbol.kind
        if is_fixed(kind) or is_pseudo(kind) or is_macro(kind):
            continue
        if is_defined(kind):
            symbols[symbol.name] = symbol.value
        else:
            undefined.append(symbol.name)
    return Program(
        words=dict(assembler.memory),
        symbols=symbols,
        start=assembler.start_address if assembler.start_seen else None,
        listing="".join(assembler.listing),
        tape=None if fatal else assembler.tape,
        errors=list(assembler.diagnostics),
        messages="".join(assembler.stderr) + (f"{fatal}\n" if fatal and not fatal.quiet else ""),
        title=assembler.title.decode("latin-1"),
        symbol_tape=None if fatal else assembler.symbol_tape,
        permanent_symbols=assembler.permanent_text,
        fatal=str(fatal) if fatal else None,
        undefined=undefined,
    )


__all__ = ["Program", "SymbolTapeError", "assemble", "run_assembler"]
