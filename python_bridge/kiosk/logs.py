"""The kiosk's log: games, errors, restarts and the web server's requests, in a file that rotates
(and on stderr, which systemd keeps in the journal).

Why rotation: the kiosk runs unattended for months; the log must never fill
the disk (``log_max_bytes`` a file, ``log_backups`` old files kept).

Why a handler of our own: a kiosk must go on when its ``state_dir`` is
replaced, made read-only or unmounted under it.  The standard handler then
writes on into a file nobody can see, or prints a traceback on stderr for
every line.  ``KioskFileHandler`` opens the file again when the path no
longer names the file it holds, and when it cannot write it says so once on
stderr (and once again when it can write again); the lines still reach
stderr meanwhile, and ``/health`` reports the log as not writable.

aiohttp's own loggers (``aiohttp.access``, ``aiohttp.server``...) and
asyncio's go to the same handlers, formatted by ``KioskFormatter`` on one
line a request or error, never a traceback.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys

from .config import KioskConfig

FORMAT = "%(asctime)s %(levelname)s %(message)s"
ONE_LINE = ("aiohttp", "asyncio")  # the web server's loggers and the event loop's: one line, no traceback


class KioskFormatter(logging.Formatter):
    """The kiosk's lines as they are; aiohttp's on one line, an exception named, its traceback left out."""

    def format(self, record: logging.LogRecord) -> str:
        if not record.name.startswith(ONE_LINE):
            return super().format(record)
        record.message = record.getMessage()
        record.asctime = self.formatTime(record)
        line = self.formatMessage(record)
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            line += f": {type(exc).__name__}: {exc}"
        return line.replace("\r", " ").replace("\n", " | ")


class KioskFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log that follows its path and never prints a traceback when it cannot write."""

    def __init__(self, filename: os.PathLike[str] | str, max_bytes: int, backups: int) -> None:
        super().__init__(filename, maxBytes=max_bytes, backupCount=backups, encoding="utf-8", delay=True)
        self.failing: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.stream is not None and not self._still_ours():
            self.stream.close()
            self.stream = None  # type: ignore[assignment]  # reopened by the next write
        super().emit(record)
        if self.failing is not None and self.stream is not None:
            self.failing = None
            print(f"kiosk: the log {self.baseFilename} is writable again", file=sys.stderr)

    def _still_ours(self) -> bool:
        try:
            on_disk = os.stat(self.baseFilename)
            held = os.fstat(self.stream.fileno())
        except OSError:
            return False
        return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)

    def handleError(self, record: logging.LogRecord) -> None:
        exc = sys.exc_info()[1]
        problem = getattr(exc, "strerror", None) or str(exc)
        if self.stream is not None:
            try:
                self.stream.close()
            except OSError:
                pass
            self.stream = None  # type: ignore[assignment]
        if self.failing is None:
            print(f"kiosk: cannot write the log {self.baseFilename}: {problem}", file=sys.stderr)
        self.failing = problem


def setup_log(config: KioskConfig, stderr: bool = True) -> logging.Logger:
    """The kiosk's logger, and aiohttp's loggers sent to the same place; never fails (see above)."""
    try:
        config.state_dir.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # degraded: the caller says so, and the file handler keeps trying
    handlers: list[logging.Handler] = [KioskFileHandler(config.log_file, config.log_max_bytes, config.log_backups)]
    if stderr:
        handlers.append(logging.StreamHandler(sys.stderr))
    for handler in handlers:
        handler.setFormatter(KioskFormatter(FORMAT))
    for name in ("kiosk", *ONE_LINE):
        log = logging.getLogger(name)
        log.setLevel(logging.INFO)
        log.propagate = False
        for old in list(log.handlers):
            log.removeHandler(old)
            old.close()
        for handler in handlers:
            log.addHandler(handler)
    return logging.getLogger("kiosk")
