"""Source input, chunked exactly as macro1 reads it.

macro1 reads with ``fgets`` into a 95-byte buffer, so a physical line longer
than 94 bytes arrives as several source lines (each numbered and listed on its
own).  A byte NUL ends the line's text early.  This module reproduces that
chunking over one or more in-memory files.
"""

from __future__ import annotations

from collections.abc import Sequence

CHUNK = 94          #: bytes per read at most (fgets into char[95])


class SourceFiles:
    """The source files in order, handed out one ``fgets`` chunk at a time."""

    def __init__(self, files: Sequence[tuple[str, bytes]]) -> None:
        self.files = list(files)
        self.index = 0
        self.offset = 0

    def rewind(self) -> None:
        self.index = 0
        self.offset = 0

    def read_chunk(self) -> bytes | None:
        """The next chunk of the current file, or None at its end."""
        data = self.files[self.index][1]
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
