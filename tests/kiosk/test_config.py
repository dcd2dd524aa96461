"""The kiosk's configuration (``kiosk.config``): the sample is the defaults, bad settings are refused with
the reason (in one line on the command line), and the visitor's choices against the museum's defaults."""

from __future__ import annotations

import pytest

from python_bridge.kiosk.config import ConfigError, KioskConfig, load_config, parse_config
from python_bridge.reference.rules import Variants
from tests.kiosk.kiosk_support import ROOT


def test_the_sample_configuration_is_the_documented_defaults() -> None:
    sample = load_config(ROOT / "kiosk.sample.toml")
    defaults = KioskConfig(state_dir=ROOT / "records" / "kiosk")
    assert sample == defaults
    assert sample.host == "127.0.0.1" and sample.thinking_pace == 200_000 and sample.paper_pace == 10
    fast = parse_config('[kiosk]\nspeed = "fast"\n[game]\nvariants = ["pie-rule", "empty-capture"]\nfirst = "pdp-1"')
    assert fast.thinking_pace == 0 and fast.paper_pace == 0
    assert fast.variants == Variants(empty_capture=True, pie_rule=True) and fast.panel(True).pdp1_first


@pytest.mark.parametrize("text, words", [
    ("[game]\npits = 7", "pits must be a whole number from 1 to 6"),
    ("[game]\npits = true", "pits must be"),
    ("[game]\nvariants = ['no-such']", 'unknown variant "no-such"'),
    ("[game]\nfirst = 'nobody'", "first must be one of"),
    ("[kiosk]\nspeed = 'warp'", "speed must be one of authentic, fast"),
    ("[kiosk]\nport = 80", "port must be a whole number from 1024"),
    ("[kiosk]\nidle_seconds = -1", "idle_seconds must be a number of seconds"),
    ("[kiosk]\ncolour = 'red'", "unknown setting 'colour' in [kiosk]"),
    ("[extras]\nx = 1", "unknown section [extras]"),
    ("game = 3", "[game] must be a section"),
    ("[game\npits = 3", "not valid TOML"),
    ("[choices]\ngames = ['huge']", "games must be a list of different names from quick, classic"),
    ("[choices]\nstrengths = ['fair', 'fair']", "strengths must be a list of different names"),
    ("[kiosk]\nlanguage = 'de'", "language must be one of en, pl, tl, az"),
    ("[kiosk]\nlanguages = []", "languages must name at least one language"),
    ("[kiosk]\nlanguage = 'pl'\nlanguages = ['en']", "language 'pl' is not among languages"),
    ("[kiosk]\nsound = 'loud'", "sound must be true or false"),
])
def test_bad_configuration_is_refused_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=None) as refused:
        parse_config(text)
    assert words in str(refused.value)


def test_the_command_line_answers_bad_configuration_in_one_line(bridge, tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nseeds = 9\n")
    for args, words in ((["--config", str(bad)], "seeds must be"),
                        (["--config", str(tmp_path / "missing.toml")], "cannot read"),
                        (["--nonsense"], "unrecognized arguments")):
        done = bridge("kiosk", *args, timeout=30)
        assert done.returncode == 2 and words in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_visitors_choices_and_the_museums_defaults() -> None:
    """Quick is 4 x 3 and classic 6 x 4; gentle a fixed one-ply search, fair four plies, full the
    default level.  The museum's own [game] settings are the choices shown as made, where they are one."""
    museum = parse_config("[game]\npits = 6\nseeds = 4\nlevel = 0")
    assert museum.default_choice() == {"game": "classic", "strength": "full"}
    chosen = museum.chosen("quick", "gentle")
    assert (chosen.pits, chosen.seeds, chosen.level) == (4, 3, 1)
    assert museum.chosen(None, None) == museum
    odd = parse_config('[game]\npits = 5\nlevel = 7\n[choices]\ngames = ["quick"]\nstrengths = []')
    assert odd.default_choice() == {"game": None, "strength": None} and odd.strengths == ()
    page = parse_config('[kiosk]\nlanguage = "az"\nlanguages = ["az", "en"]\nsound = false')
    assert (page.language, page.languages, page.sound) == ("az", ("az", "en"), False)
