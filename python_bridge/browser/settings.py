"""The browser edition's settings: ``settings.toml`` in its folder, read by the Worker as the page starts.

Why a file in the folder: the edition is a static folder a museum puts on its own web host, with no server
of ours to ask; what it may set is what the online exhibit lets its operator set about a game (``[game]``,
``[choices]``: the exhibit's own parser, the same names, ranges and one-line refusals) and, under
``[browser]``, the pace (``1960`` or ``fast``), where a visitor reports an accessibility problem, and
``records``: where the page sends each finished game's record, for a site that keeps them.  A static host's
folder has no ``records`` and its page sends nothing; the online server of the browser edition
(``online.browser_records``) serves the folder with a ``settings.toml`` of its own, its game and pace and
``records = "records"``, its ``POST /records``.  A value the edition cannot use stops the Worker with one
line, shown on the page.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..exhibit.settings import ConfigError, GameSettings, checked_contact, front_end_sections, game_settings

PACES = {"1960": "authentic", "fast": "fast"}
BROWSER_KEYS = ("pace", "accessibility_contact", "records")
IDLE_SECONDS = 300.0  # the online exhibit's: a visitor's game untouched this long counts down, then ends
COUNTDOWN_SECONDS = 20.0
# a path on the page's own origin, relative to the page ("records") or from the site's root ("/records"): never an
# address of another origin (no scheme, no "//"), a query or a fragment
RECORDS_PATH = re.compile(r"/?[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*")
MAX_RECORDS_PATH = 200


def browser_settings(text: str) -> GameSettings:
    """The game settings the edition plays with, from ``settings.toml``'s text; ConfigError (one line)."""
    data, browser = _browser_section(text)
    pace = browser.get("pace", "1960")
    if pace not in PACES:
        raise ConfigError(f"pace must be one of {', '.join(PACES)}, not {str(pace)[:40]!r}")
    contact = checked_contact(browser.get("accessibility_contact", ""))
    return replace(game_settings(data), speed=PACES[pace], idle_seconds=IDLE_SECONDS,
                   countdown_seconds=COUNTDOWN_SECONDS, accessibility_contact=contact)


def records_path(text: str) -> str:
    """Where the page sends each finished game's record (``[browser] records``), "" when nowhere; ConfigError."""
    records = _browser_section(text)[1].get("records", "")
    if not isinstance(records, str) or len(records) > MAX_RECORDS_PATH or \
            (records and not RECORDS_PATH.fullmatch(records)):
        raise ConfigError(f"records must be \"\" (records kept by no one) or a path on the page's own site, such as "
                          f"\"records\" or \"/records\", not {str(records)[:40]!r}")
    return records


def _browser_section(text: str) -> tuple[dict, dict]:
    data, browser = front_end_sections(text, "browser")
    extra = [key for key in browser if key not in BROWSER_KEYS]
    if extra:
        raise ConfigError(f"unknown setting {extra[0]!r} in [browser]: use {', '.join(BROWSER_KEYS)}")
    return data, browser
