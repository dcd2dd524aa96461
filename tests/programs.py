"""The Debian programs the tests call, as the set-up provides them.

``scripts/bootstrap.sh test`` installs every package of ``scripts/debian-packages.txt`` before pytest
starts; no test installs anything.  A test asks for a program with :func:`need`, which gives its path or
fails the test naming the package the set-up should have installed: a missing program is a broken set-up,
never a reason to skip (a skipped test would let CI pass on a machine that checks nothing).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_LIST = ROOT / "scripts" / "debian-packages.txt"


def package_list() -> list[tuple[str, str, list[str]]]:
    """The set-up's list: (mode, Debian package, the programs it provides) a line."""
    rows = []
    for line in PACKAGE_LIST.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            mode, package, *programs = line.split()
            rows.append((mode, package, programs))
    return rows


def package_of(program: str) -> str | None:
    """The listed package that provides ``program`` (a path, or a name looked up as /usr/bin/NAME)."""
    path = program if program.startswith("/") else f"/usr/bin/{program}"
    for _mode, package, programs in package_list():
        if path in programs:
            return package
    return None


def need(program: str) -> str:
    """The path of ``program``, which must be one the set-up installs; fails the test when it is missing."""
    package = package_of(program)
    if package is None:
        pytest.fail(f"{program} is not in scripts/debian-packages.txt: add the Debian package that provides it")
    path = program if program.startswith("/") else f"/usr/bin/{program}"
    if not os.access(path, os.X_OK):
        pytest.fail(f"{path} is missing: Debian's {package} should have been installed by "
                    f"scripts/bootstrap.sh test (make test runs it first)")
    return path
