"""Writing a file whole or not at all: the one way this project replaces a file others may read.

Why one: the tapes (several test workers punch them at once), the kiosk's counters and its saved
game (a power cut mid-write) all need the same three steps, and a copy that forgot the fsync would
pass every test and lose a game in a gallery.  The data goes to a temporary file beside the target
(its name unique to this process, so two writers never share it), is flushed to the disk, renamed
over the target in one step, and the folder is flushed so the rename itself survives a power cut.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8): readers see the old file or the new one,
    never part of either.  OSError when the folder cannot be written; the old file is then untouched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(part, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
