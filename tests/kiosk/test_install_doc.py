"""docs/kiosk.md's "A gallery install, step by step", the technician's install: every command in its shell blocks
is a real one (a program on this machine or in a package the install names, a unit the install makes, a make target, a
file a staged install has), and the cheap ones are run: the token's grep on a staged configuration, the
health command against a real server, the Debian 12 drop-in through `systemd-analyze verify`."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kiosk.kiosk_support import ROOT, KioskServer, render_unit, screen_programs, write_config
from tests.programs import need

DOC = ROOT / "docs" / "kiosk.md"
UNITS = ("kalah-kiosk", "kalah-kiosk-screen")
# the programs the doc uses that a fresh Debian lacks, and the package install-kiosk brings them in
INSTALLED_BY_US = {"aplay": "alsa-utils", "speaker-test": "alsa-utils", "alsactl": "alsa-utils",
                   "alsamixer": "alsa-utils"}
SHELL_WORDS = {"cd", "exit", "echo"}
MADE_LATER = ("/etc/udev/rules.d/", "/var/lib/kalah-kiosk/", "/proc/")  # by the technician, the server, the kernel


SECTION = "## A gallery install, step by step"


def install_section() -> str:
    """The page's install section: from its heading to the next heading of the same level."""
    text = DOC.read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else len(text)]


def blocks(kind: str) -> list[str]:
    """The fenced blocks of the doc marked ``kind`` (sh: commands; "": file contents and output)."""
    found: list[tuple[str, list[str]]] = []
    open_block: list[str] | None = None
    for line in install_section().splitlines():
        if line.startswith("```"):
            if open_block is None:
                open_block = []
                found.append((line[3:], open_block))
            else:
                open_block = None
        elif open_block is not None:
            open_block.append(line)
    return ["\n".join(lines) + "\n" for marked, lines in found if marked == kind]


def commands() -> list[list[str]]:
    """Each command of the shell blocks as words, `sudo` dropped; a pipeline gives each of its commands."""
    found = []
    for block in blocks("sh"):
        for line in block.splitlines():
            for part in line.split(" | "):
                words = shlex.split(part)
                found.append(words[1:] if words[0] == "sudo" else words)
    return found


@pytest.fixture(scope="module")
def staged(tmp_path_factory) -> Path:
    stage = tmp_path_factory.mktemp("stage")
    done = subprocess.run([str(ROOT / "deploy" / "install.sh")], env={"PATH": "/usr/bin:/bin", "DESTDIR": str(stage)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return stage


def test_every_command_is_a_real_one(staged) -> None:
    install = (ROOT / "deploy" / "install.sh").read_text()
    targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(), re.M))
    for words in commands():
        program = words[0]
        if program in INSTALLED_BY_US:
            assert INSTALLED_BY_US[program] in install, program
        else:
            assert program in SHELL_WORDS or shutil.which(program) or program in ("su", "adduser", "ssh"), program
        if program in ("systemctl", "journalctl"):
            named = ([w for w in words[1:] if w.startswith("kalah")]
                     + [w for i, w in enumerate(words) if words[i - 1] == "-u"])
            assert named and all(name in UNITS for name in named), words
        if program == "make":
            assert all(target in targets for target in words[1:]), words
        for word in words:
            if word.startswith(("/etc/kalah-kiosk", "/opt/kalah-kiosk", "/etc/pam.d", "/etc/systemd")):
                assert (staged / word.lstrip("/")).exists(), word
            elif word.startswith("/") and not word.startswith(MADE_LATER):
                assert Path(word).exists() or word in ("/etc/asound.conf",), word
    assert ["make", "install-kiosk"] in commands()


def test_the_settings_shown_are_the_screens(staged) -> None:
    settings = (staged / "etc" / "kalah-kiosk" / "screen.env").read_text()
    for block in blocks(""):
        for name in re.findall(r"^(KALAH_KIOSK_[A-Z]+)=", block, re.M):
            assert re.search(rf"^{name}=", settings, re.M), name
    doc = DOC.read_text()
    assert "KALAH_KIOSK_OUTPUTS" in doc and "KALAH_KIOSK_OUTPUTS=" in settings


def test_the_token_command_shows_the_token(staged) -> None:
    (line,) = [c for c in commands() if c[0] == "grep" and "control_token" in c]
    done = subprocess.run([*line[:-1], str(staged / line[-1].lstrip("/"))], capture_output=True, text=True, timeout=10)
    assert done.returncode == 0 and re.match(r'control_token = "[\w-]{16,}"', done.stdout), done.stdout


@pytest.mark.simh
def test_the_health_command_reads_a_running_kiosk(tmp_path, kalah_tape) -> None:
    need("curl")
    (command,) = [line for block in blocks("sh") for line in block.splitlines() if "/health" in line]
    with KioskServer(write_config(tmp_path / "kiosk")) as server:
        done = subprocess.run(command.replace("8360", str(server.port)), shell=True, capture_output=True, text=True,
                              timeout=30)
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "ok", done.stdout + done.stderr


def test_the_debian_12_drop_in_passes_systemd_analyze_verify(tmp_path) -> None:
    analyze = need("systemd-analyze")
    screen_programs()
    (drop_in,) = [b for b in blocks("") if b.startswith("[Service]\nExecStart=\n")]
    prefix = ROOT  # the doc's /opt/kalah-kiosk is this checkout here
    unit = tmp_path / "kalah-kiosk-screen.service"
    unit.write_text(render_unit(unit.name, prefix, tmp_path, tmp_path / "state"))
    (tmp_path / "browser.env").write_text("KALAH_KIOSK_URL=http://127.0.0.1:8360/\n")
    (tmp_path / "kalah-kiosk-screen.service.d").mkdir()
    (tmp_path / "kalah-kiosk-screen.service.d" / "override.conf").write_text(
        drop_in.replace("/opt/kalah-kiosk", str(prefix)))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "ignoring" not in done.stderr, done.stderr
    assert "-r --" in drop_in


def test_the_touch_rule_is_the_tables_and_udev_reads_it(tmp_path) -> None:
    (line,) = [line for block in blocks("sh") for line in block.splitlines() if "LIBINPUT_CALIBRATION_MATRIX" in line]
    rule = shlex.split(line.split(" | ")[0])[1]
    matrix = re.search(r'LIBINPUT_CALIBRATION_MATRIX}="([^"]+)"', rule).group(1)
    assert f"| 90 | `{matrix}` |" in DOC.read_text()  # the rule shown is the one for a screen turned 90
    done = subprocess.run([need("udevadm"), "verify", "--help"], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("this udevadm has no verify (systemd 253 and later: Debian 13)")
    (tmp_path / "99-kalah-touch.rules").write_text(rule + "\n")
    done = subprocess.run([need("udevadm"), "verify", str(tmp_path / "99-kalah-touch.rules")], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
