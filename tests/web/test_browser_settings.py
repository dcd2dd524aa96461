"""The browser edition's ``settings.toml``: the online exhibit's game settings, its own pace and where its records
go, every bad value refused in one line naming it (the page then says it cannot start); and the one the online
server of the browser edition serves, which gives its visitors' browsers the server's own game, choices and pace."""

from __future__ import annotations

import pytest

from python_bridge.browser.settings import browser_settings, records_path
from python_bridge.exhibit.settings import ConfigError
from python_bridge.online.browser_records import edition_settings
from python_bridge.online.settings import parse_settings


def test_the_pace_and_the_games_settings() -> None:
    fast = browser_settings('[browser]\npace = "fast"\n[game]\npits = 4\nseeds = 3\nlevel = 2\n[choices]\ngames = []\n')
    assert (fast.speed, fast.pits, fast.seeds, fast.level, fast.games) == ("fast", 4, 3, 2, ())
    assert fast.thinking_pace == 0 and fast.paper_pace == 0
    shipped = browser_settings("")
    assert shipped.speed == "authentic" and shipped.thinking_pace > 0 and shipped.paper_pace == 10


@pytest.mark.parametrize("text, words", [
    ('[browser]\npace = "slow"', "pace must be one of 1960, fast, not 'slow'"),
    ('[browser]\nspeed = "fast"', "unknown setting 'speed' in [browser]: use pace, accessibility_contact, records"),
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


def test_records_go_nowhere_or_to_a_path_of_the_pages_own_site() -> None:
    assert records_path("") == "" and records_path('[browser]\npace = "fast"') == ""
    assert records_path('[browser]\nrecords = "records"') == "records"
    assert records_path('[browser]\nrecords = "/kalah/records"') == "/kalah/records"
    for elsewhere in ("https://tracker.example/records", "//tracker.example/records", "records?to=x", "a b", "/", 7,
                      "javascript:alert(1)", "x" * 201):
        with pytest.raises(ConfigError) as bad:
            records_path(f"[browser]\nrecords = {elsewhere!r}".replace("'", '"'))
        assert "records must be" in str(bad.value) and "\n" not in str(bad.value), elsewhere


def test_the_online_server_gives_its_visitors_browsers_its_own_game() -> None:
    """What the server of the browser edition serves as ``settings.toml`` reads back as its own game, choices, pace
    and contact, with its records sent to its ``POST /records``."""
    site = parse_settings('[online]\nedition = "browser"\npace = "fast"\n'
                          'accessibility_contact = "mailto:access@museum.example"\n'
                          '[game]\npits = 5\nseeds = 3\nlevel = 3\nvariants = ["pie-rule", "empty-capture"]\n'
                          'first = "alternate"\n[choices]\ngames = ["quick"]\nstrengths = ["gentle", "full"]\n')
    text = edition_settings(site)
    game = browser_settings(text)
    for key in ("pits", "seeds", "level", "variants", "first", "games", "strengths", "accessibility_contact"):
        assert getattr(game, key) == getattr(site.game_config(), key), key
    assert game.speed == "fast" and records_path(text) == "records"
    shipped = browser_settings(edition_settings(parse_settings("")))
    assert (shipped.speed, shipped.level, shipped.games) == ("authentic", 1, ("quick", "classic"))
