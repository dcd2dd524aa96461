"""Command line: ``python -m tools.macro [-d -m -p -r -s -x] [-S symfile] [-o DIR] file ...``

Behaves like macro1: switches come before the files (a later argument that
starts with ``-`` is a file name), several files are one source, and the
outputs are named after the first file with its extension replaced: ``.rim``
(the tape, written only when there are no errors), ``.lst`` (the listing,
always), ``.prm`` (``-p``) and ``.sym`` (``-s``).  Like macro1 they go beside
the first file unless ``-o DIR`` names another folder.  Messages go to stderr
as macro1 prints them; the exit status is 1 after assembly errors.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .assembler import Options
from .program import run_assembler
from .symtape import SymbolTapeError, read_symbol_tape

PROGRAM = "tools.macro"

USAGE = """\
 -d -- dump symbol table
 -m -- output macro expansions
 -p -- output permanent symbols to file
 -r -- output RIM format file
 -s -- output symbol punch tape to file
 -S file -- read symbol punch tape
 -x -- output cross reference to file
 -o dir -- write the outputs in dir
"""


class Usage(Exception):
    """Bad command line: message, exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def output_stem(path: str) -> str:
    """The first file's path without its extension, as macro1 derives its output names."""
    slash = max(path.rfind("/"), path.rfind("\\"))
    dot = path.rfind(".")
    return path[:dot] if dot > slash else path


def parse(argv: Sequence[str]) -> tuple[Options, str | None, list[str]]:
    """Split the arguments into options, the output folder and the source files."""
    options = Options()
    out_dir: str | None = None
    index = 0
    while index < len(argv) and argv[index].startswith("-") and argv[index] != "-":
        switches = argv[index]
        index += 1
        for letter in switches[1:]:
            if letter == "d":
                options.symbol_table = True
            elif letter == "r":
                options.rim = True
            elif letter == "s":
                options.symbol_punch = True
            elif letter == "m":
                options.macro_expansions = True
            elif letter == "p":
                options.permanent_symbols = True
            elif letter == "x":
                options.cross_reference = True
            elif letter in "So":
                if index >= len(argv):
                    raise Usage("%s: -%s needs an argument\n" % (PROGRAM, letter), 255)
                value = argv[index]
                index += 1
                if letter == "o":
                    out_dir = value
                else:
                    try:
                        with open(value, "rb") as handle:
                            tape = handle.read()
                        read_symbol_tape(tape)
                        options.symbol_tapes.append(tape)
                    except OSError as problem:
                        raise Usage("%s: %s\n" % (value, problem.strerror), 1) from None
                    except SymbolTapeError:
                        raise Usage("error reading symbol file %s\n" % value, 1) from None
            else:
                raise Usage("%s: unknown flag: %s\n%s" % (PROGRAM, switches, USAGE), 255)
    files = list(argv[index:])
    if not files:
        raise Usage("%s:  no input file specified\n" % PROGRAM, 255)
    return options, out_dir, files


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        options, out_dir, paths = parse(args)
    except Usage as problem:
        sys.stderr.write(str(problem))
        return problem.status
    files = []
    for path in paths:
        try:
            with open(path, "rb") as handle:
                files.append((path, handle.read()))
        except OSError:
            sys.stderr.write('%s: cannot open "%s"\n' % (PROGRAM, path))
            return 255
    stem = output_stem(paths[0])
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
        stem = os.path.join(out_dir, os.path.basename(stem))
    assembler, fatal = run_assembler(files, options)
    sys.stderr.write("".join(assembler.stderr))
    if fatal:
        sys.stderr.write(fatal + "\n")
    if assembler.pass_number == 2 or not fatal:
        with open(stem + ".lst", "w", encoding="latin-1", newline="") as handle:
            handle.write("".join(assembler.listing))
    if assembler.permanent_text is not None:
        with open(stem + ".prm", "w", encoding="latin-1", newline="") as handle:
            handle.write(assembler.permanent_text)
    if fatal or assembler.tape is None:
        if os.path.exists(stem + ".rim"):
            os.remove(stem + ".rim")
        return 1
    with open(stem + ".rim", "wb") as handle:
        handle.write(assembler.tape)
    if assembler.symbol_tape is not None:
        with open(stem + ".sym", "wb") as handle:
            handle.write(assembler.symbol_tape)
    return 0
