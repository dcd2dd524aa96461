"""The Makefile as a first-time user meets it: ``make`` alone is ``make help``, which lists every target."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_make_alone_is_make_help_and_lists_every_target() -> None:
    alone, help_ = make(), make("help")
    assert alone.returncode == help_.returncode == 0 and alone.stdout == help_.stdout and alone.stderr == ""
    listed = re.findall(r"^  make ([\w-]+):", help_.stdout, re.M)
    phony = re.search(r"^\.PHONY: (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    assert sorted(listed) == sorted(phony) and {"setup", "clean", "help"} <= set(listed)


def test_every_line_of_make_help_is_one_whole_target() -> None:
    """A target's ``##`` comment is one line: a second one printed as a broken "make ..." line of its own."""
    lines = make("help").stdout.splitlines()
    broken = [line for line in lines if not re.match(r"^  make [\w-]+: \S", line)]
    assert lines and not broken, broken


def test_setup_modes_install_only_what_the_target_needs() -> None:
    """make play sets up for playing only; make test (and fuzz-asm) for testing; the kiosk's for the kiosk;
    make bench-strength for OpenSpiel, which no other mode installs."""
    def mode_of(target: str) -> str:
        dry = make("-n", target, "ARGS=--help", "GAMES=1")  # -n: the commands are shown, not run
        found = re.search(r"scripts/bootstrap.sh (\w+)", dry.stdout)
        assert found, dry.stdout + dry.stderr
        return found.group(1)

    targets = ("play", "demo", "build", "test", "kiosk", "soak", "fuzz-asm", "bench-strength")
    assert {target: mode_of(target) for target in targets} \
        == {"play": "play", "demo": "play", "build": "play", "test": "test", "kiosk": "kiosk", "soak": "kiosk",
            "fuzz-asm": "test", "bench-strength": "bench"}
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    holding = {name for name, packages in extras.items() if any(p.startswith("open-spiel") for p in packages)}
    assert holding == {"bench"}
    setup = (ROOT / "scripts" / "bootstrap.sh").read_text()
    assert re.search(r'^\s*bench\) extras="\[bench\]"', setup, re.M) and setup.count('"[bench]"') == 1
