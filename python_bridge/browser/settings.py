"""The browser edition's settings: ``settings.toml`` in its folder, read by the Worker as the page starts.

Why a file in the folder: the edition is a static folder a museum puts on its own web host, with no server
of ours to ask; what it may set is what the online exhibit lets its operator set about a game (``[game]``,
``[choices]``: the exhibit's own parser, the same names, ranges and one-line refusals) and, under
``[browser]``, the pace (``1960`` or ``fast``) and where a visitor reports an accessibility problem.  A
value the edition cannot use stops the Worker with one line, shown on the page.
"""

from __future__ import annotations

from dataclasses import replace

from ..exhibit.settings import ConfigError, GameSettings, checked_contact, front_end_sections, game_settings

PACES = {"1960": "authentic", "fast": "fast"}
BROWSER_KEYS = ("pace", "accessibility_contact")
IDLE_SECONDS = 300.0  # the online exhibit's: a visitor's game untouched this long counts down, then ends
COUNTDOWN_SECONDS = 20.0


def browser_settings(text: str) -> GameSettings:
    """The game settings the edition plays with, from ``settings.toml``'s text; ConfigError (one line)."""
    data, browser = front_end_sections(text, "browser")
    extra = [key for key in browser if key not in BROWSER_KEYS]
    if extra:
        raise ConfigError(f"unknown setting {extra[0]!r} in [browser]: use {', '.join(BROWSER_KEYS)}")
    pace = browser.get("pace", "1960")
    if pace not in PACES:
        raise ConfigError(f"pace must be one of {', '.join(PACES)}, not {str(pace)[:40]!r}")
    contact = checked_contact(browser.get("accessibility_contact", ""))
    return replace(game_settings(data), speed=PACES[pace], idle_seconds=IDLE_SECONDS,
                   countdown_seconds=COUNTDOWN_SECONDS, accessibility_contact=contact)
