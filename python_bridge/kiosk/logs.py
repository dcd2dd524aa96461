"""The kiosk's log: games, errors and restarts, in a file that rotates (and on stderr).

Why rotation: the kiosk runs unattended for months; the log must never fill
the disk (``log_max_bytes`` a file, ``log_backups`` old files kept).
"""

from __future__ import annotations

import logging
import logging.handlers
import sys

from .config import KioskConfig

FORMAT = "%(asctime)s %(levelname)s %(message)s"


def setup_log(config: KioskConfig, stderr: bool = True) -> logging.Logger:
    config.state_dir.mkdir(parents=True, exist_ok=True)
    log = logging.getLogger("kiosk")
    log.setLevel(logging.INFO)
    log.propagate = False
    for handler in list(log.handlers):
        log.removeHandler(handler)
        handler.close()
    file_handler = logging.handlers.RotatingFileHandler(config.log_file, maxBytes=config.log_max_bytes,
                                                        backupCount=config.log_backups, encoding="utf-8")
    file_handler.setFormatter(logging.Formatter(FORMAT))
    log.addHandler(file_handler)
    if stderr:
        console = logging.StreamHandler(sys.stderr)
        console.setFormatter(logging.Formatter(FORMAT))
        log.addHandler(console)
    return log
