"""The kiosk's fixtures: a real kiosk server with its pdp1, on a free port, stopped after the test (the
browser's are tests/browser.py's, for the kiosk and the online page alike)."""

from __future__ import annotations

import pytest

from tests.kiosk.kiosk_support import KioskServer, write_config


@pytest.fixture
def server(tmp_path, kalah_tape):
    """The test configuration (4 pits, 3 seeds, the visitor first: pit 2 sows 3, 4 and the store, an extra turn)."""
    with KioskServer(write_config(tmp_path / "kiosk")) as running:
        yield running
