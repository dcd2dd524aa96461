"""The test set-up and the programs the tests call, kept in step.

``make test`` runs ``scripts/bootstrap.sh test`` first, which installs every Debian package of
``scripts/debian-packages.txt``; a test that needed a package the list lacks would pass only on a machine
that happened to have it (a green CI hiding a missing install step), and a test that installed one itself
would race the other pytest workers for dpkg's lock.  These checks read the tests' own source.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

from tests.programs import ROOT, package_list, package_of

TESTS = ROOT / "tests"
MODES = {"play", "kiosk", "cluster", "web", "test", "bench"}
TEST_MODES = {"play", "kiosk", "cluster", "web", "test"}  # what scripts/bootstrap.sh test installs
# the only program the tests call that the set-up does not install: the one that runs the set-up
RUNS_THE_SETUP = {"make"}
INSTALLERS = ("apt-get", "apt", "dpkg", "pip", "bootstrap.sh")
# a test whose subject is an installation, into a virtual environment it makes in its own tmp_path
THROWAWAY_VENVS = {"tests/machine/test_pdp1_test_kit.py": "pip"}
SPAWNERS = {"subprocess", "pexpect", "asyncio", "os"}


def calls_in_tests() -> Iterator[tuple[Path, ast.Call, str]]:
    """Each call in a test file that starts a process (``subprocess.run(...)``, ``pexpect.spawn(...)``, ...)
    or asks for a program (``need(...)``), with the function's name."""
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                if isinstance(owner, ast.Name) and owner.id in SPAWNERS:
                    yield path, node, node.func.attr
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "need":
                yield path, node, "need"


def program_run(call: ast.Call) -> str | None:
    """The program a spawning call names as a literal (``["cage", ...]`` or ``"/usr/bin/cage"``), if any."""
    if not call.args:
        return None
    first = call.args[0]
    if isinstance(first, (ast.List, ast.Tuple)) and first.elts:
        first = first.elts[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.strip():
        return first.value.split()[0]
    return None


def strings_in(call: ast.Call) -> Iterator[str]:
    for node in ast.walk(call):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def test_the_list_is_well_formed_and_the_setup_reads_it() -> None:
    rows = package_list()
    assert rows and all(mode in MODES and package and programs for mode, package, programs in rows), rows
    assert all(program.startswith("/") for _m, _p, programs in rows for program in programs)
    assert len({package for _m, package, _p in rows}) == len(rows), "a package listed twice"
    assert "scripts/debian-packages.txt" in (ROOT / "scripts" / "bootstrap.sh").read_text()


def test_no_test_installs_anything() -> None:
    found = []
    for path, call, name in calls_in_tests():
        if name in {"run", "Popen", "check_call", "check_output", "call", "spawn", "create_subprocess_exec",
                    "create_subprocess_shell", "system"}:
            words = [w for s in strings_in(call) for w in s.replace("/", " ").split()]
            allowed = THROWAWAY_VENVS.get(str(path.relative_to(ROOT)))
            if any(word in INSTALLERS and word != allowed for word in words):
                found.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert not found, f"tests that install (the set-up's job, before pytest starts): {found}"


def test_every_program_the_tests_run_is_one_the_setup_installs() -> None:
    unlisted = []
    for path, call, name in calls_in_tests():
        if name == "need" and call.args and isinstance(call.args[0], ast.Constant):
            program = call.args[0].value
        elif name in {"run", "Popen", "check_call", "check_output", "call", "spawn", "create_subprocess_exec"}:
            program = program_run(call)
        else:
            continue
        if program is None or program in RUNS_THE_SETUP:
            continue
        package = package_of(program)
        mode = next((m for m, p, _ in package_list() if p == package), None)
        if mode not in TEST_MODES:
            unlisted.append(f"{path.relative_to(ROOT)}:{call.lineno} runs {program}")
    assert not unlisted, f"add their packages to scripts/debian-packages.txt: {unlisted}"


def test_every_listed_program_is_there_after_the_setup() -> None:
    """make test ran the set-up before pytest: everything the list promises for the tests is installed."""
    missing = [f"{program} ({package})" for mode, package, programs in package_list() if mode in TEST_MODES
               for program in programs if not os.access(program, os.X_OK)]
    assert not missing, f"scripts/bootstrap.sh test did not install: {missing}"
