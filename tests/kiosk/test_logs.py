"""The kiosk's log (``kiosk.logs``): aiohttp's tracebacks on one line, and a log folder that goes and comes back."""

from __future__ import annotations

import sys


def test_the_log_puts_aiohttp_on_one_line_and_survives_its_folder_going(tmp_path, capsys) -> None:
    import logging

    from python_bridge.kiosk.logs import FORMAT, KioskFileHandler, KioskFormatter

    formatter = KioskFormatter(FORMAT)
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        exc_info = sys.exc_info()
    web = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error handling request", None, exc_info)
    line = formatter.format(web)
    assert "\n" not in line and "Traceback" not in line and line.endswith("ValueError: boom | second line")
    ours = logging.LogRecord("kiosk", logging.ERROR, __file__, 1, "a bug of ours", None, exc_info)
    assert "Traceback" in formatter.format(ours)  # our own bugs keep their traceback in the log

    folder = tmp_path / "state"
    folder.mkdir()
    handler = KioskFileHandler(folder / "kiosk.log", 10_000, 2)
    handler.setFormatter(formatter)
    log = logging.getLogger(f"kiosk-parts-{id(handler)}")
    log.propagate = False
    log.addHandler(handler)
    try:
        log.warning("first")
        folder.rename(tmp_path / "moved")
        folder.write_text("a file now\n")  # state_dir replaced by a file while the kiosk runs
        log.warning("lost")
        log.warning("lost too")
        assert handler.failing and "Not a directory" in handler.failing
        folder.unlink()
        folder.mkdir()
        log.warning("back")
    finally:
        log.removeHandler(handler)
        handler.close()
    err = capsys.readouterr().err
    assert err.count("cannot write the log") == 1 and "writable again" in err and "Traceback" not in err
    assert "back" in (folder / "kiosk.log").read_text() and "first" in (tmp_path / "moved" / "kiosk.log").read_text()
