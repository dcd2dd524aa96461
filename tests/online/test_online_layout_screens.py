"""The online page on the kiosk's 15" and 10.1" screens and a desktop: test_online_layout.py's walk (every state
in every language, measured and judged by axe), in a file of its own so that another worker takes it."""

from __future__ import annotations

import pytest

from tests.online.online_support import classic_server
from tests.online.test_online_layout import SIZES, walk

pytestmark = pytest.mark.simh
SCREENS = SIZES[3:]


@pytest.fixture(scope="module")
def server(tmp_path_factory, kalah_tape):
    with classic_server(tmp_path_factory.mktemp("online-layout-screens"), max_games=6) as started:
        yield started


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_the_online_page_fits_the_kiosks_and_a_desktops_screens(screen, server, browser_page) -> None:
    walk(screen, server, browser_page)
