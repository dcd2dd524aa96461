"""The translations' wording: the game's own words in each language, and Polish that fits anyone.

The words are those players of each language use, from Mancala World's Kalah page in Polish, Tagalog
and Azerbaijani (the project's seed documents): Polish dołek, ziarno, kalah, dodatkowa tura, zbicie;
Tagalog hukay, buto, kalah; Azerbaijani çuxur, toxum, kalah, əlavə növbə.  Polish addresses the
visitor in forms that fit anyone: the second person present ("Grasz", "Zamieniasz") or impersonal
forms, never a past tense that has a gender ("Zagrałeś", "Zagrałaś").
"""

from __future__ import annotations

import re

import pytest

from tests.kiosk.kiosk_page_checks import catalogue

WORDS = {  # stems: a word in any of its cases
    "pl": {"pit": "doł", "seed": "ziar", "store": "kalah", "extra turn": "dodatkow", "capture": "zbici"},
    "tl": {"pit": "hukay", "seed": "buto", "store": "kalah", "extra turn": "ulit", "capture": "kuha"},
    "az": {"pit": "çuxur", "seed": "toxum", "store": "kalah", "extra turn": "əlavə növbə", "capture": "tut"},
}
RULES_KEYS = ("rules.sow", "rules.again", "rules.capture", "rules.end", "store", "move.again", "flash.again",
              "move.capture", "flash.capture", "choice.quick.detail", "status.your_turn")


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_game_is_told_in_the_players_own_words(language: str) -> None:
    text = " ".join(catalogue(language)[key] for key in RULES_KEYS).lower()
    missing = [what for what, stem in WORDS[language].items() if stem not in text]
    assert not missing, f"{language}: no word for {missing}"


def test_polish_fits_anyone_and_takes_the_right_cases() -> None:
    polish = catalogue("pl")
    gendered = {key: text for key, text in polish.items()
                if re.search(r"\b\w+(łeś|łaś|łem|łam|łbyś)\b", text, re.I)}
    assert not gendered, gendered
    assert polish["status.your_turn"].endswith("dotknij zielonego dołka")  # dotknąć takes the genitive
    assert polish["move.visitor"].startswith("Grasz") and polish["move.swap.visitor"] == "Zamieniasz strony"


def test_the_about_card_is_true_at_either_speed() -> None:
    """The kiosk runs at the 1960 pace or fast: the card claims neither."""
    english = catalogue("en")
    about = " ".join(english[key] for key in ("about.machine", "about.kalah", "about.real")).lower()
    assert not [word for word in ("pace", "speed", "1960 time", "as fast", "as slow") if word in about]
    assert "november 1960" in about and "reconstruction" in about and "shersh.1" in about
