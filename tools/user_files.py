"""A file the user names on the command line or in a setting: refused in one line unless it is a sane file.

Why one function: a name typed by a person may be anything -- a FIFO (reading
it waits forever for a writer), ``/dev/zero`` (endless), a folder, a missing
file, a name with a NUL byte in it (Python's ``open`` raises a ValueError of
its own).  Every reader of such a name (the kiosk's ``--config``, the demo's
``--script``, ``replay``'s record, the tape tools' tape) calls ``read_user_file``
and gets either the bytes or a ``UserFileError`` whose text is the one line to
show.  The file is opened without blocking and checked on the open descriptor
(``fstat``), so nothing can swap it between the check and the read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

MAX_USER_FILE = 16 * 1024 * 1024   # far beyond any configuration, script, tape or record the project writes
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class UserFileError(ValueError):
    """A named file that cannot be read as one: the message is the one line to show."""


def _shown(name: str, limit: int = 160) -> str:
    return repr(name) if len(name) <= limit else f"{name[:limit]!r}... ({len(name):,} characters)"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a file at all (empty, a NUL or another control character), else None."""
    if not name:
        return "an empty name is no file"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"{_shown(name)} holds a control character: no file is named so"
    return None


def _kind(mode: int) -> str:
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def _opened(path: str | os.PathLike[str], limit: int, what: str) -> BinaryIO:
    """``path`` opened for reading once it is known to be a regular file of at most ``limit`` bytes."""
    name = os.fspath(path)
    problem = name_problem(name)
    if problem:
        raise UserFileError(f"{what}: {problem}")
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)  # a FIFO must not block the open
    except OSError as exc:
        raise UserFileError(f"cannot read the {what} {_shown(name)}: {exc.strerror or exc}") from None
    facts = os.fstat(fd)
    if not stat.S_ISREG(facts.st_mode):
        os.close(fd)
        raise UserFileError(f"the {what} {_shown(name)} is {_kind(facts.st_mode)}, not a regular file")
    if facts.st_size > limit:
        os.close(fd)
        raise UserFileError(f"the {what} {_shown(name)} is {facts.st_size:,} bytes: more than the {limit:,} it may be")
    return os.fdopen(fd, "rb")


def read_user_file(path: str | os.PathLike[str], limit: int = MAX_USER_FILE, what: str = "file") -> bytes:
    """The bytes of the regular file ``path`` of at most ``limit`` bytes, or UserFileError (one line)."""
    with _opened(path, limit, what) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise UserFileError(f"cannot read the {what} {_shown(os.fspath(path))}: {exc.strerror or exc}") from None
    if len(data) > limit:  # it grew while being read
        raise UserFileError(f"the {what} {_shown(os.fspath(path))} is more than the {limit:,} bytes it may be")
    return data


def read_user_text(path: str | os.PathLike[str], limit: int = MAX_USER_FILE, what: str = "file") -> str:
    """``read_user_file`` as UTF-8 text; text that is not UTF-8 is a UserFileError too.  A byte-order mark
    is kept: what it means is the reader's (a game record ignores it; a TOML configuration is refused)."""
    data = read_user_file(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as bad:
        raise UserFileError(f"the {what} {_shown(os.fspath(path))} is not UTF-8 text "
                            f"(byte {bad.start + 1:,} is {data[bad.start]:#04x})") from None


def user_file(path: str) -> Path:
    """The checks of ``read_user_file`` as a name is read (an argparse ``type=`` uses it): the Path, or
    UserFileError."""
    _opened(path, MAX_USER_FILE, "file").close()
    return Path(path)
