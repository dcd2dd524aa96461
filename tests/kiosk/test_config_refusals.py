"""The kiosk's configuration refuses what it cannot use, in one line that names it as the operator wrote it.

A FIFO or ``/dev/zero`` as ``--config`` (it used to wait forever, or read without end), a
byte-order mark, a value in TOML's spelling (``true``, not Python's ``True``), a pace so slow
a move would last hours, a variant named twice, a control character in ``state_dir`` (it used
to be a ValueError traceback from the log's ``open``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.exhibit.settings import toml_text
from python_bridge.kiosk.config import ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[2]


def kiosk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "python_bridge", "kiosk", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL)


def test_a_fifo_dev_zero_a_folder_and_a_missing_file_are_refused_in_one_line(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.toml")
    for name, words in ((tmp_path / "fifo.toml", "is a FIFO (named pipe), not a regular file"),
                        (Path("/dev/zero"), "is a character device, not a regular file"),
                        (tmp_path, "is a folder, not a regular file"),
                        (tmp_path / "missing.toml", "No such file or directory")):
        done = kiosk("--config", str(name))
        assert done.returncode == 2 and words in done.stderr, (name, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_control_character_in_state_dir_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    config = tmp_path / "kiosk.toml"
    config.write_text('[kiosk]\nstate_dir = "a\\u0000b"\n')
    done = kiosk("--config", str(config))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert 'state_dir must be a folder name without control characters' in done.stderr
    assert 'not "a\\u0000b"' in done.stderr


def test_a_byte_order_mark_is_named(tmp_path: Path) -> None:
    config = tmp_path / "kiosk.toml"
    config.write_bytes(b"\xef\xbb\xbf[game]\npits = 4\n")
    with pytest.raises(ConfigError, match="UTF-8 byte-order mark"):
        load_config(config)


def test_a_file_larger_than_a_configuration_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "kiosk.toml"
    config.write_text("# " + "x" * 2_000_000 + "\n")
    with pytest.raises(ConfigError, match="bytes: more than the 1,000,000 it may be"):
        load_config(config)


@pytest.mark.parametrize("text, message", [
    ("[game]\npits = true", "pits must be a whole number from 1 to 6, not true"),
    ("[kiosk]\nsound = 'loud'", 'sound must be true or false, not "loud"'),
    ("[kiosk]\nspeed = ['fast']", 'speed must be one of authentic, fast, not ["fast"]'),
    ("[kiosk]\nport = 80.5", "port must be a whole number from 1024 to 65535, not 80.5"),
    ("[kiosk]\nthink_rate = 1", "think_rate must be 0 (unpaced) or at least 1,000 memory cycles a second"),
    ("[kiosk]\ntypewriter_cps = 0.1", "typewriter_cps must be 0 (unpaced) or at least 1 character a second"),
    ("[game]\nvariants = ['pie-rule', 'empty-capture', 'pie-rule']", 'variants names "pie-rule" twice'),
])
def test_values_are_answered_in_tomls_spelling(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config(text)
    assert message in str(refused.value) and "True" not in str(refused.value)


def test_paces_of_zero_and_the_tests_slow_thinking_stay_allowed() -> None:
    assert parse_config("[kiosk]\nthink_rate = 0\ntypewriter_cps = 0").thinking_pace == 0
    assert parse_config("[kiosk]\nthink_rate = 2000").thinking_pace == 2000


def test_toml_text_is_what_toml_reads_back() -> None:
    import tomllib

    for value in (True, False, 3, -2.5, "fast", 'a"b\\c\n\u0000', ["x", 1, False], {"k": True}):
        assert tomllib.loads(f"v = {toml_text(value)}")["v"] == value


@pytest.mark.parametrize("value", ['"ftp://example.org"', '"mailto:"', '"https://a b"', '"x" ', "3",
                                   '"https://' + "a" * 200 + '"', '"mailto:help@museum.example\\n"'])
def test_an_accessibility_contact_must_be_a_link_a_page_can_follow(value: str) -> None:
    with pytest.raises(ConfigError, match="accessibility_contact must be"):
        parse_config(f"[kiosk]\naccessibility_contact = {value}\n")


def test_an_accessibility_contact_reaches_the_page_settings() -> None:
    assert parse_config('[kiosk]\naccessibility_contact = "mailto:access@museum.example"\n').accessibility_contact \
        == "mailto:access@museum.example"
    assert parse_config("").accessibility_contact == ""


@pytest.mark.parametrize("value", ["80", "65536", "true", '"9000"'])
def test_metrics_port_is_0_or_a_port_of_its_own(value: str) -> None:
    with pytest.raises(ConfigError, match="metrics_port must be 0"):
        parse_config(f"[operation]\nmetrics_port = {value}\n")
    assert parse_config("[operation]\nmetrics_port = 9360\n").metrics_port == 9360
