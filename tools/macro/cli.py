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

from .options import Options
from .program import run_assembler
from .symtape import SymbolTapeError, read_symbol_tape

PROGRAM = "macro1"      #: the name macro1's messages carry (its argv[0])

USAGE = """\
 -d -- dump symbol table
 -m -- output macro expansions
 -p -- output permanent symbols to file
 -r -- output RIM format file
 -s -- output symbol punch tape to file
 -S file -- read symbol punch tape
 -x -- output cross reference to file
"""


HELP = """\
usage: python -m tools.macro [-d -m -p -r -s -x] [-S symfile] [-o DIR] file ...
The PDP-1 cross-assembler, byte for byte as macro1: the files are one source; the tape
(.rim), listing (.lst) and other outputs are named after the first file.
""" + USAGE + " -o DIR -- write the outputs in DIR (made if missing) instead of beside the first file\n"


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
    while index < len(argv) and argv[index].startswith("-"):
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
            elif letter == "o":
                if index >= len(argv):
                    raise Usage("%s: -o needs a folder\n" % PROGRAM, 255)
                out_dir = argv[index]
                index += 1
            elif letter == "S":
                if index >= len(argv):
                    raise Usage("Bad address\n", 1)      # macro1 opens a NULL name
                name = argv[index]
                index += 1
                try:
                    with open(name, "rb") as handle:
                        tape = handle.read()
                except OSError as problem:
                    raise Usage("%s: %s\n" % (as_bytes_text(name), problem.strerror), 1) from None
                try:
                    read_symbol_tape(tape)
                except SymbolTapeError:
                    raise Usage("error reading symbol file %s\n" % as_bytes_text(name), 1) from None
                options.symbol_tapes.append(tape)
            else:
                # macro1 names the argument *after* the bad switch (or "(null)")
                shown = as_bytes_text(argv[index]) if index < len(argv) else "(null)"
                raise Usage("%s: unknown flag: %s\n%s" % (PROGRAM, shown, USAGE), 255)
    files = list(argv[index:])
    if not files:
        raise Usage("%s:  no input file specified\n" % PROGRAM, 255)
    return options, out_dir, files


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--help"]:
        # macro1 answers "unknown flag: (null)" and 255; a user asking for help gets it.  Every
        # other unknown flag, -h included, keeps macro1's answer.
        sys.stdout.write(HELP)
        return 0
    try:
        options, out_dir, paths = parse(args)
    except Usage as problem:
        write_stderr(str(problem))
        return problem.status
    try:
        return assemble_files(options, out_dir, paths)
    except OSError as problem:                 # an output folder or file we cannot write
        write_stderr("%s: %s: %s\n" % (PROGRAM, as_bytes_text(str(problem.filename)),
                                        problem.strerror))
        return 1


def assemble_files(options: Options, out_dir: str | None, paths: list[str]) -> int:
    """Assemble ``paths`` as one source and write the outputs; the exit status."""
    stem = output_stem(paths[0])
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
        stem = os.path.join(out_dir, os.path.basename(stem))

    def create_outputs() -> None:
        # macro1 creates (truncates) its tape and listing between the passes;
        # a source that is one of them reads as empty in pass 2.
        for suffix in (".rim", ".lst"):
            with open(stem + suffix, "wb"):
                pass

    # Internally a name is text whose characters are its bytes (Latin-1), like the source.
    names = {as_bytes_text(path): path for path in paths}
    assembler, fatal = run_assembler([(as_bytes_text(path), None) for path in paths], options,
                                     lambda name: read_source(names[name]), create_outputs)
    write_stderr("".join(assembler.stderr))
    if fatal is not None:
        if not fatal.quiet:
            write_stderr("%s\n" % fatal)
        if assembler.pass_number == 2:          # macro1 leaves what it wrote so far
            write_text(stem + ".lst", "".join(assembler.listing))
            with open(stem + ".rim", "wb") as handle:
                handle.write(assembler.punch.data)
        return fatal.status
    write_text(stem + ".lst", "".join(assembler.listing))
    if assembler.permanent_text is not None:
        write_text(stem + ".prm", assembler.permanent_text)
    if assembler.tape is None:
        if os.path.exists(stem + ".rim"):
            os.remove(stem + ".rim")
        return 1
    with open(stem + ".rim", "wb") as handle:
        handle.write(assembler.tape)
    if assembler.symbol_tape is not None:
        with open(stem + ".sym", "wb") as handle:
            handle.write(assembler.symbol_tape)
    return 0


def as_bytes_text(path: str) -> str:
    """A command-line path as text with one character per byte of the name."""
    return os.fsencode(path).decode("latin-1")


def write_stderr(text: str) -> None:
    """Messages go out byte for byte (source bytes and file names unchanged)."""
    stream = getattr(sys.stderr, "buffer", None)
    if stream is None:            # stderr replaced by a text stream (tests)
        sys.stderr.write(text)
        return
    sys.stderr.flush()
    stream.write(text.encode("latin-1", "replace"))
    stream.flush()


def read_source(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def write_text(path: str, text: str) -> None:
    """Write listing text byte for byte (the source's bytes pass through unchanged)."""
    with open(path, "wb") as handle:
        handle.write(text.encode("latin-1"))
