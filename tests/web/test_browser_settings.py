"""The browser edition's ``settings.toml``: the online exhibit's game settings and its own pace, every bad value
refused in one line naming it (the page then says it cannot start)."""

from __future__ import annotations

import pytest

from python_bridge.browser.settings import browser_settings
from python_bridge.exhibit.settings import ConfigError


def test_the_pace_and_the_games_settings() -> None:
    fast = browser_settings('[browser]\npace = "fast"\n[game]\npits = 4\nseeds = 3\nlevel = 2\n[choices]\ngames = []\n')
    assert (fast.speed, fast.pits, fast.seeds, fast.level, fast.games) == ("fast", 4, 3, 2, ())
    assert fast.thinking_pace == 0 and fast.paper_pace == 0
    shipped = browser_settings("")
    assert shipped.speed == "authentic" and shipped.thinking_pace > 0 and shipped.paper_pace == 10


@pytest.mark.parametrize("text, words", [
    ('[browser]\npace = "slow"', "pace must be one of 1960, fast, not 'slow'"),
    ('[browser]\nspeed = "fast"', "unknown setting 'speed' in [browser]: use pace, accessibility_contact"),
    ("[online]\nport = 8000", "unknown section [online]: use [browser], [game], [choices]"),
    ("browser = 3", "[browser] must be a section, not a value"),
    ("[browser", "not valid TOML"),
    ("[game]\npits = 9", "pits must be a whole number from 1 to 6"),
    ('[browser]\naccessibility_contact = "javascript:alert(1)"', "accessibility_contact must be"),
])
def test_a_bad_setting_is_one_line_naming_it(text: str, words: str) -> None:
    with pytest.raises(ConfigError) as bad:
        browser_settings(text)
    assert words in str(bad.value) and "\n" not in str(bad.value)
