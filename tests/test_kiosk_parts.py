"""The kiosk's parts that need no emulator: configuration, paper rendering, message checks,
the attract player, the saved game, and the command line's answers to bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kiosk_support import ROOT
from python_bridge.machine.transcript import Title
from python_bridge.reference.game import Game
from python_bridge.reference.rules import Variants
from python_bridge.kiosk.config import ConfigError, KioskConfig, load_config, parse_config
from python_bridge.kiosk.messages import BadMessage, ClientMessage, TokenBucket, parse_message
from python_bridge.kiosk.paper import Paper, render
from python_bridge.kiosk.players import AttractPlayer
from python_bridge.kiosk.saved_game import GameStore, SavedGame


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


def test_the_command_line_answers_bad_configuration_in_one_line(tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nseeds = 9\n")
    for args, words in ((["--config", str(bad)], "seeds must be"),
                        (["--config", str(tmp_path / "missing.toml")], "cannot read"),
                        (["--nonsense"], "unrecognized arguments")):
        done = subprocess.run([sys.executable, "-m", "python_bridge", "kiosk", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 2 and words in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_paper_shows_flexowriter_glyphs_and_nothing_unprintable() -> None:
    assert render("kalah for the pdp-1\r\nyour move? 3\r\n") == "kalah for the pdp-1\nyour move? 3\n"
    assert render("a@b*c~d#e!f&g^h`i\\j") == "a\u00b7b\u00d7c\u203ed\u2283e\u2228f\u2227g\u2191h\u2192i\u203ej"
    assert render("x\x07\x00\by;$") == "xy"  # no FIO-DEC code prints these
    paper = Paper()
    assert paper.append("ab\r\n") == (0, "ab\n") and paper.append("c") == (3, "c")
    paper.append("z" * 70_000)
    assert paper.end == 70_004 and len(paper.text) < 70_000 and paper.base > 0


@pytest.mark.parametrize("raw, words", [
    ("{", "not JSON"), ("[]", "not a JSON object"), ('{"type": "halt"}', "unknown message type"),
    ('{"type": "move"}', "pit number"), ('{"type": "move", "pit": 7}', "pit number"),
    ('{"type": "move", "pit": 2.0}', "pit number"), ('{"type": "swap", "pit": 2}', "unexpected field"),
    ('{"type": "touch", "x": ' + '"a"' * 1 + "}", "unexpected field"), ("x" * 600, "too long"),
    ('{"type": "choose"}', "exactly one of game or strength"),
    ('{"type": "choose", "game": "quick", "strength": "fair"}', "exactly one of game or strength"),
    ('{"type": "choose", "game": "huge"}', "game must be one of quick, classic"),
    ('{"type": "choose", "strength": 3}', "strength must be one of gentle, fair, full"),
    ('{"type": "move", "pit": 2}', "needs the turn it answers"), ('{"type": "swap"}', "needs the turn"),
    ('{"type": "move", "pit": 2, "turn": -1}', "needs the turn"), ('{"type": "swap", "turn": "3"}', "needs the turn"),
    ('{"type": "move", "pit": 2, "turn": true}', "needs the turn"), ('{"type": "play", "turn": 3}', "unexpected field"),
])
def test_messages_from_the_page_are_checked(raw: str, words: str) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_message(raw)
    assert words in str(refused.value)


def test_good_messages_and_the_flood_limit() -> None:
    assert parse_message('{"type": "move", "pit": 3, "turn": 7}') == ClientMessage("move", 3, 7)
    assert parse_message('{"type": "swap", "turn": 0}') == ClientMessage("swap", None, 0)
    assert parse_message('{"type": "new_game"}') == ClientMessage("new_game")
    assert parse_message('{"type": "choose", "strength": "gentle"}') == ClientMessage("choose", choice=("strength", "gentle"))
    bucket = TokenBucket()
    allowed = sum(bucket.allow(100.0) for _ in range(50))  # fifty at once: the burst only
    assert allowed == 10 and not bucket.allow(100.0) and bucket.allow(100.3)


def test_attract_openings_differ_from_game_to_game_and_repeat_for_a_seed() -> None:
    def opening(game_no: int, seed: int = 1960) -> list[str]:
        game, moves = Game.new(6, 4), []
        player = AttractPlayer(seed, game_no)
        for _ in range(3):  # the demo player opening as South, three moves
            keys = player.choose(game)
            moves.append(keys)
            game.move(int(keys))
            if game.position.to_move != "s":
                break
        return moves

    openings = [opening(n) for n in range(1, 13, 2)]  # the games in which the demo player opens
    assert all(a[0] != b[0] for a, b in zip(openings, openings[1:]))
    assert opening(5) == opening(5)  # a seed repeats its series


def test_a_saved_game_round_trips_and_a_damaged_file_is_refused(tmp_path) -> None:
    store = GameStore(tmp_path / "state" / "current-game.json")
    assert store.load() is None
    title = Title(4, 3, 0, Variants(pie_rule=True, remainder_void=True), "pdp-1")
    saved = SavedGame("visitor", 7, title, [2, "swap", 4], "kalah for the pdp-1\n")
    store.save(saved)
    assert store.load() == saved
    store.path.write_text('{"format": 1, "mode": "visitor"')
    with pytest.raises(ValueError, match="unreadable saved game"):
        store.load()
    store.clear()
    assert store.load() is None


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


def test_the_log_puts_aiohttp_on_one_line_and_survives_its_folder_going(tmp_path, capsys) -> None:
    import logging

    from python_bridge.kiosk.logs import FORMAT, KioskFileHandler, KioskFormatter

    formatter = KioskFormatter(FORMAT)
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        exc_info = sys.exc_info()
    web = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error handling request", None, exc_info)
    line = formatter.format(web)
    assert "\n" not in line and "Traceback" not in line and line.endswith("ValueError: boom | second line")
    ours = logging.LogRecord("kiosk", logging.ERROR, __file__, 1, "a bug of ours", None, exc_info)
    assert "Traceback" in formatter.format(ours)  # our own bugs keep their traceback in the log

    folder = tmp_path / "state"
    folder.mkdir()
    handler = KioskFileHandler(folder / "kiosk.log", 10_000, 2)
    handler.setFormatter(formatter)
    log = logging.getLogger(f"kiosk-parts-{id(handler)}")
    log.propagate = False
    log.addHandler(handler)
    try:
        log.warning("first")
        folder.rename(tmp_path / "moved")
        folder.write_text("a file now\n")  # state_dir replaced by a file while the kiosk runs
        log.warning("lost")
        log.warning("lost too")
        assert handler.failing and "Not a directory" in handler.failing
        folder.unlink()
        folder.mkdir()
        log.warning("back")
    finally:
        log.removeHandler(handler)
        handler.close()
    err = capsys.readouterr().err
    assert err.count("cannot write the log") == 1 and "writable again" in err and "Traceback" not in err
    assert "back" in (folder / "kiosk.log").read_text() and "first" in (tmp_path / "moved" / "kiosk.log").read_text()
