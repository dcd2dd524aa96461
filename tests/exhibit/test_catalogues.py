"""The kiosk page's four message catalogues (python_bridge/exhibit/static/i18n/): each complete.

Every key the page uses -- named in index.html (data-i18n), in its modules (static/js/*.js: t("...")), or
built there from the phases, players and choices the server sends -- must be in every catalogue, and no
catalogue may hold a key the others lack.  A missing key fails here, before any visitor sees
"[key]" on the screen.
"""

from __future__ import annotations

import json
import re

import pytest

from python_bridge.exhibit.settings import GAME_CHOICES, LANGUAGES, STRENGTH_CHOICES
from tests.kiosk.kiosk_support import ROOT

STATIC = ROOT / "python_bridge" / "exhibit" / "static"
# the server's phases, and the page's own: "sowing" (a move being shown on the board, whatever the server says)
PHASES = ("starting", "typing", "thinking", "your_turn", "demo_turn", "game_over", "mismatch", "one_moment", "sowing")
WHO = ("pdp1", "visitor", "demo", "player")  # "player": the visitor as a watching page names them


def _catalogue(language: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))


def keys_the_page_uses() -> set[str]:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    js = "\n".join(path.read_text(encoding="utf-8") for path in sorted((STATIC / "js").glob("*.js")))
    # every dotted lower-case string in the page's modules is a message key: t("..."), hint("..."), ...
    used = set(re.findall(r'data-i18n="([^"]+)"', html)) | set(re.findall(r'"([a-z][a-z_0-9]*(?:\.[a-z_0-9]+)+)"', js))
    used |= {f"status.{p}" for p in PHASES} | {f"move.{w}" for w in WHO} | {f"move.swap.{w}" for w in WHO}
    used |= {f"{kind}.{w}" for kind in ("side", "result", "result.score") for w in WHO if w != "pdp1"}
    used |= {f"choice.{c}" for c in (*GAME_CHOICES, *STRENGTH_CHOICES)}
    used |= {f"choice.{c}.detail" for c in (*GAME_CHOICES, *STRENGTH_CHOICES)}
    # the dynamic keys are built in the modules exactly so: a change there must show up here
    for pattern in ("`status.${phase}`", "`move.${who}`", "`move.swap.${who}`", "`choice.${b.dataset.choice}`",
                    "`choice.${b.dataset.choice}.detail`", "`side.${bottomPlayer()}`", "`result.${who}`",
                    "`result.score.${who}`"):
        assert pattern in js, f"the page no longer builds {pattern}: update this test"
    return used


def test_the_page_finds_every_key_it_uses() -> None:
    used = keys_the_page_uses()
    assert len(used) > 50
    missing = sorted(used - set(_catalogue("en")))
    assert not missing, f"keys used by the page but not in en.json: {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalogue_is_complete(language: str) -> None:
    english, other = _catalogue("en"), _catalogue(language)
    assert not sorted(set(english) - set(other)), f"{language}.json lacks {sorted(set(english) - set(other))}"
    assert not sorted(set(other) - set(english)), (f"{language}.json has unknown keys "
                                                   f"{sorted(set(other) - set(english))}")
    assert all(isinstance(v, str) and v.strip() for v in other.values())
    for key, text in english.items():  # the same placeholders, so no number goes missing in translation
        assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text)), (language, key)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_each_translation_differs_from_english_but_for_names(language: str) -> None:
    english, other = _catalogue("en"), _catalogue(language)
    same = [k for k in english if other[k] == english[k] and not re.fullmatch(r"[\d\s]*PDP-1[\d\s]*", english[k])]
    assert not same, f"{language}.json keeps English for {same}"


def test_a_missing_key_would_fail() -> None:
    """The check itself: a catalogue with one key removed is reported."""
    english = _catalogue("en")
    cut = dict(english)
    del cut["hint.empty"]
    assert sorted(set(english) - set(cut)) == ["hint.empty"]
    assert "hint.empty" in keys_the_page_uses()
