"""The online settings: every value bounded, a bad one a one-line ConfigError; the game's sections are the
kiosk's; the waiting line is first come, first served and says when it is full."""

from __future__ import annotations

import pytest

from python_bridge.exhibit.settings import ConfigError
from python_bridge.machine.kalah_program import symbols_beside
from python_bridge.online.lobby import Full, Lobby
from python_bridge.online.settings import OnlineSettings, default_max_games, parse_settings


def test_the_defaults_serve_loopback_with_sqlite_under_the_state_folder() -> None:
    settings = OnlineSettings()
    assert (settings.host, settings.port, settings.per_ip_games, settings.idle_seconds) == ("127.0.0.1", 8361, 4, 300)
    assert settings.database == "" and settings.max_games == default_max_games() >= 1


def test_every_setting_is_read_from_the_online_section(tmp_path) -> None:
    text = """[online]
host = "0.0.0.0"
port = 9000
state_dir = "elsewhere"
pace = "fast"
max_games = 7
max_waiting = 0
per_ip_games = 2
idle_seconds = 30
watchdog_seconds = 3
trusted_proxies = ["10.0.0.1"]
allowed_hosts = ["kalah.example.org"]
[game]
pits = 4
"""
    settings = parse_settings(text, tmp_path)
    assert settings.state_dir == tmp_path / "elsewhere" and settings.game.pits == 4
    assert (settings.host, settings.port, settings.pace, settings.max_games, settings.max_waiting) == \
        ("0.0.0.0", 9000, "fast", 7, 0)
    assert settings.trusted_proxies == ("10.0.0.1",) and settings.allowed_hosts == ("kalah.example.org",)
    assert settings.game_config().speed == "fast" and settings.game_config().idle_seconds == 30
    assert settings.game_config().watchdog_seconds == 3 and OnlineSettings().game_config().watchdog_seconds == 10
    framed = parse_settings('[online]\nframe_ancestors = ["https://museum.example", "\'self\'"]\n', tmp_path)
    assert framed.frame_ancestors == ("https://museum.example", "'self'") and OnlineSettings().frame_ancestors == ()
    contact = parse_settings('[online]\naccessibility_contact = "https://museum.example/access"\n', tmp_path)
    assert contact.game_config().accessibility_contact == "https://museum.example/access"


@pytest.mark.parametrize("text, words", [
    ("[online]\nport = 80", "port must be a whole number from 1,024 to 65,535"),
    ("[online]\nmax_games = 0", "max_games must be a whole number from 1 to 1,000"),
    ("[online]\nidle_seconds = 4", "idle_seconds must be a number from 5 to 86,400"),
    ("[online]\nidle_seconds = 86401", "idle_seconds must be a number from 5 to 86,400"),
    ("[online]\nwatchdog_seconds = 0.5", "watchdog_seconds must be a number from 1 to 600"),
    ('[online]\naccessibility_contact = "javascript:alert(1)"', "accessibility_contact must be"),
    ('[online]\nlog_addresses = "whole"', "log_addresses must be one of truncated, none"),
    ("[online]\nkeep_days = 0", "keep_days must be a whole number from 1 to 36,500"),
    ("[online]\nmetrics_port = 80", "metrics_port must be 0"),
    ("[online]\nworkers = 65", "workers must be a whole number from 0 to 64"),
    ("[online]\nwatchdog_seconds = 601", "watchdog_seconds must be a number from 1 to 600"),
    ("[online]\nper_ip_games = true", "per_ip_games must be a whole number"),
    ("[online]\npace = \"slow\"", "pace must be one of 1960, fast"),
    ("[online]\nedition = \"wasm\"", "edition must be one of server, browser"),
    ("[online]\nhost = \"example.org\"", "host must be an IP address"),
    ("[online]\ntrusted_proxies = [\"proxy\"]", "trusted_proxies must be a list of IP addresses"),
    ("[online]\nallowed_hosts = [\"Evil Host\"]", "allowed_hosts must be a list of 1 to 10 host names"),
    ("[online]\ndatabase = \"mysql://x\"", "database must be \"\" (SQLite under state_dir) or a PostgreSQL URL"),
    ("[online]\ndatabase = \"postgresql://a\\nb\"", "database must be"),
    ("[online]\nlease_seconds = 1", "lease_seconds must be a number from 2 to 60"),
    ("[online]\nspeed = 3", "unknown setting 'speed' in [online]"),
    ('[online]\nframe_ancestors = "https://museum.example"', "frame_ancestors must be a list of at most 10 origins"),
    ('[online]\nframe_ancestors = ["https://museum.example; script-src *"]', "frame_ancestors must be"),
    ('[online]\nframe_ancestors = ["*"]', "frame_ancestors must be"),
    ('[online]\nframe_ancestors = ["javascript:alert(1)"]', "frame_ancestors must be"),
    ('[online]\nframe_ancestors = ["https://museum.example/page"]', "frame_ancestors must be"),
    ("[kiosk]\nport = 9000", "unknown section [kiosk]"),
    ("[game]\npits = 9", "pits must be a whole number from 1 to 6"),
    ("online = 3", "[online] must be a section"),
])
def test_a_bad_setting_is_one_line_naming_it(text: str, words: str) -> None:
    with pytest.raises(ConfigError) as bad:
        parse_settings(text)
    assert words in str(bad.value) and "\n" not in str(bad.value)


def test_a_tape_of_the_game_is_read_beside_the_file_and_refused_in_one_line_when_it_will_not_do(tmp_path,
                                                                                            kalah_tape) -> None:
    """``[online] tape``: another tape of the game, named from the settings file's folder; refused before anything
    starts when it cannot be read, its reader refuses it, or no symbol table beside it names the bridge's labels."""
    text = '[online]\ntape = "mine.rim"'

    def refused() -> str:
        with pytest.raises(ConfigError) as bad:
            parse_settings(text, tmp_path)
        assert "\n" not in str(bad.value) and str(bad.value).startswith("tape: ")
        return str(bad.value)

    assert "cannot be read" in refused()
    tape = tmp_path / "mine.rim"
    tape.write_bytes(kalah_tape.read_bytes())
    assert "symbol table" in refused()
    symbols_beside(tape).write_text('{"think": 1}')
    assert "names no 'thx'" in refused()
    symbols_beside(tape).write_text(symbols_beside(kalah_tape).read_text())
    settings = parse_settings(text, tmp_path)
    assert settings.tape == tape and settings.game_config().tape == tape
    tape.write_bytes(kalah_tape.read_bytes()[:-40])  # a tape cut short
    assert "mine.rim" in refused()


class Seat:
    def __init__(self, name: str) -> None:
        self.id = name
        self.started = False

    def start(self) -> None:
        self.started = True


def test_the_line_is_first_come_first_served_and_full_past_its_length() -> None:
    told: list[tuple[str, int]] = []
    lobby = Lobby(max_games=1, max_waiting=2, moved=lambda seat, place: told.append((seat.id, place.position)))
    a, b, c, d = (Seat(n) for n in "abcd")
    assert lobby.join(a) is None and a.started
    assert lobby.join(b).position == 1 and lobby.join(c).position == 2 and not b.started
    with pytest.raises(Full) as full:
        lobby.join(d)
    assert full.value.retry_s > 0
    lobby.released("a")
    assert b.started and not c.started and told == [("c", 1)]
    lobby.leave("c")
    assert lobby.counts() == (1, 0)


def test_the_database_comes_from_the_option_else_the_environment_else_the_file(tmp_path, bridge) -> None:
    """Each way of naming the database is read, the option first: an unreachable PostgreSQL at start is one
    line and exit 2 whichever named it, and a URL that is no database's is refused before anything starts."""
    conf = tmp_path / "online.toml"
    conf.write_text('[online]\ndatabase = "postgresql://file@127.0.0.1:9/none"\n')
    state = ["--state-dir", str(tmp_path / "state"), "--port", "18361"]
    from_file = bridge("online", "--config", str(conf), *state)
    assert from_file.returncode == 2 and from_file.stderr.count("\n") == 1, from_file.stderr
    assert "postgresql://file@127.0.0.1:9/none cannot be opened" in from_file.stderr
    env = {"KALAH_DATABASE_URL": "postgresql://env@127.0.0.1:9/none"}
    from_env = bridge("online", "--config", str(conf), *state, env=env)
    assert from_env.returncode == 2 and "postgresql://env@" in from_env.stderr
    given = bridge("online", "--config", str(conf), *state, "--database", "postgresql://opt:secret@127.0.0.1:9/x",
                   env=env)
    assert given.returncode == 2 and "postgresql://opt:***@" in given.stderr and "secret" not in given.stderr
    wrong = bridge("online", *state, "--database", "sqlite:///tmp/x")
    assert wrong.returncode == 2 and "database must be" in wrong.stderr and wrong.stderr.count("\n") == 1


def test_a_bad_frame_ancestors_stops_the_server_in_one_line(tmp_path, bridge) -> None:
    conf = tmp_path / "online.toml"
    conf.write_text('[online]\nframe_ancestors = ["https://museum.example \'unsafe-inline\'"]\n')
    done = bridge("online", "--config", str(conf), "--state-dir", str(tmp_path / "state"), "--port", "18361")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "frame_ancestors must be" in done.stderr
