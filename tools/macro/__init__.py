"""A PDP-1 cross-assembler that reproduces macro1 (simh 3.8.1) byte for byte.

Library use::

    from tools.macro import assemble
    program = assemble(source_text)          # or [(filename, text), ...]
    program.words[0o100], program.symbols["go"], program.start, program.tape

Command line (same switches as macro1, plus ``-o DIR``)::

    python -m tools.macro [-d] [-m] [-p] [-r] [-s] [-x] [-S symfile] [-o DIR] file ...

The package: ``assembler`` (the passes, statements, symbols, errors),
``pseudo_ops``, ``macros``, ``expressions``, ``scanner`` (line buffer and
lexer), ``symbols`` (the table and built-in symbols), ``listing``, the tape
punched with ``tools.papertape``'s one punch, ``symtape`` (symbol tapes), ``source`` (input chunking),
``charset`` (macro1's FIO-DEC table), ``messages`` (diagnostics), ``options``,
``program`` (the result and ``assemble``), ``cli``, ``bench``.
"""

from .program import Program, SymbolTapeError, assemble

__all__ = ["Program", "SymbolTapeError", "assemble"]
