"""axe-core on the online page in line, at the game's end and with the server gone, on the kiosk's 10.1" screen
and a desktop: test_axe.py's walk, in a file of its own so that another worker takes it."""

from __future__ import annotations

import pytest

from tests.exhibit.test_axe import SIZES, walk

pytestmark = pytest.mark.simh
SCREENS = SIZES[2:]


@pytest.mark.parametrize("size", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_no_violation_on_the_kiosks_and_a_desktops_screen(size, browser_context, tmp_path, kalah_tape) -> None:
    walk(size, browser_context, tmp_path)
