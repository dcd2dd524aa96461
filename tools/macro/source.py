"""Source input, chunked exactly as macro1 reads it.

macro1 reads with ``fgets`` into a 95-byte buffer, so a physical line longer
than 94 bytes arrives as several source lines (each numbered and listed on its
own).  A byte NUL ends the line's text early.  This module reproduces that
chunking over one or more in-memory files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

CHUNK = 94          #: bytes per read at most (fgets into char[95])
FULL_LINE = 1 << 30  #: "all of the last line survives" (see Assembler.read_line)


class SourceFiles:
    """The source files in order, handed out one ``fgets`` chunk at a time.

    ``files`` are ``(name, contents)``, contents None for a file that cannot be
    read.  With a ``reader`` (name -> contents or None) every pass reads the
    files afresh, as macro1 does: a source that is also an output file (say
    ``x.lst``) is empty in pass 2, because the outputs are created before it.
    """

    def __init__(self, files: Sequence[tuple[str, bytes | None]],
                 reader: Callable[[str], bytes | None] | None = None) -> None:
        self.files = list(files)
        self.reader = reader
        self.index = 0
        self.offset = 0

    def rewind(self) -> None:
        if self.reader is not None:
            self.files = [(name, self.reader(name)) for name, _ in self.files]
        self.index = 0
        self.offset = 0

    def read_chunk(self) -> bytes | None:
        """The next chunk of the current file, or None at its end."""
        data = self.files[self.index][1] or b""
        start = self.offset
        if start >= len(data):
            return None
        newline = data.find(b"\n", start, start + CHUNK)
        end = newline + 1 if newline >= 0 else min(start + CHUNK, len(data))
        self.offset = end
        return data[start:end]

    def next_file(self) -> bool:
        """Move on to the next file; False when there is none."""
        if self.index + 1 >= len(self.files):
            return False
        self.index += 1
        self.offset = 0
        return True

    def current_missing(self) -> bool:
        return self.files[self.index][1] is None

    def current_name(self) -> str:
        return self.files[self.index][0]
