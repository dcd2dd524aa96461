"""Names for the files a session leaves in ``records/``: unique, even for sessions started in the same second.

Why exclusive creation and not a finer clock: two kiosks, or two terminals,
may start in the same second and share a ``records/`` folder; only the file
system can say which name is free.  A session claims a stem
(``kalah-20261201-101109``, then ``...-2``, ``...-3`` when taken) by creating
its first file with ``open(..., "x")``, which fails if the file exists, and
names everything else it writes after that stem.
"""

from __future__ import annotations

import time
from pathlib import Path

MAX_TRIES = 1000


def stamp() -> str:
    """The local time as a file name's stamp, to the second."""
    return time.strftime("%Y%m%d-%H%M%S")


def claim(folder: Path, stem: str, first_suffix: str) -> tuple[str, Path]:
    """Create ``folder/<stem><first_suffix>`` (or with ``-2``, ``-3``... after the stem) exclusively.

    Returns the stem claimed and the empty file created; the caller names its
    other files ``<stem><suffix>``, which no other session can have claimed.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, MAX_TRIES + 1):
        candidate = stem if n == 1 else f"{stem}-{n}"
        path = folder / f"{candidate}{first_suffix}"
        try:
            with open(path, "x", encoding="utf-8"):
                pass
        except FileExistsError:
            continue
        return candidate, path
    raise FileExistsError(f"{folder}: {MAX_TRIES} files named {stem}-N{first_suffix} exist already")


def create_new(path: Path, text: str) -> Path:
    """Write ``text`` to a file that must not exist yet (a name derived from a claimed stem)."""
    with open(path, "x", encoding="utf-8") as f:
        f.write(text)
    return path
