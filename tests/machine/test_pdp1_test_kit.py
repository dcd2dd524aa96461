"""The PDP-1 test kit as someone with a PDP-1 program of their own uses it (docs/testing-pdp1-programs.md).

A project outside this checkout: examples/gcd/ (a program that reads the typewriter, computes and types
its answer; its tests; no conftest.py), with this package's wheel installed into a virtual environment of
its own by pip, as a user installs it, and pytest run there: pytest finds the ``pdp1`` fixture through the
package's ``pytest11`` entry point alone.  Nothing of the checkout is on its path: what its tests import
comes from the installed package.

Why no download: the wheel is built from a copy of the checkout with this environment's setuptools
(``--no-build-isolation``), and the new environment's dependencies (pytest, and the package's own: pexpect)
are the very ones this environment holds, named to it by a path file: a folder of links to them and to
their metadata, and to nothing else (not this environment's editable install of the project).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import Distribution, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gcd"
PACKAGE = ("pyproject.toml", "tools", "python_bridge")  # what pip builds the package from
NEEDED = ("pytest", "pexpect")  # the example's test runner, and the package's own dependency


def with_dependencies(names: tuple[str, ...]) -> list[Distribution]:
    """The distributions ``names`` are, and every one they need on this interpreter, as this environment has them."""
    found: dict[str, Distribution] = {}
    todo = list(names)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        found[name] = distribution(name)
        for text in found[name].requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(found.values())


def link_distributions(folder: Path, distributions: list[Distribution]) -> None:
    """Links in ``folder`` to each distribution's top-level packages, modules and metadata folder."""
    folder.mkdir()
    for dist in distributions:
        tops = {file.parts[0] for file in dist.files or [] if file.parts[0] not in ("..", "__pycache__")}
        for top in tops:
            (folder / top).symlink_to(Path(str(dist.locate_file(top))))


def installed_in_a_new_environment(folder: Path, env: dict[str, str]) -> Path:
    """This package's wheel, built from a copy of the checkout and installed by pip into a new virtual environment
    in ``folder`` with its dependencies (``NEEDED``) as this environment has them; its interpreter."""
    # a copy: pip builds in its source folder (build/, *.egg-info), and the checkout's build/ holds the tapes
    source = folder / "pdp1-kalah"
    source.mkdir()
    for name in PACKAGE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", "--no-input"]
    built = subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w",
                            str(folder / "dist"), str(source)], capture_output=True, text=True, timeout=300, env=env)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (folder / "dist").glob("pdp1_kalah-*.whl")
    venv = folder / "venv"
    # pip itself is not copied into the environment (that alone cost 3.7 CPU-seconds): this pip installs into it
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    link_distributions(folder / "dependencies", with_dependencies(NEEDED))
    site = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    (site / "dependencies.pth").write_text(f"{folder / 'dependencies'}\n")
    installed = subprocess.run([*pip, "--python", str(venv / "bin" / "python"), "install", "--no-deps", "--no-index",
                                str(wheel)], capture_output=True, text=True, timeout=300, env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return venv / "bin" / "python"


def test_the_installed_wheel_brings_its_plugin_and_the_example_passes_without_a_conftest(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()  # (a user's shell has none of pytest's own variables)
           if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith("PYTEST_")}
    python = installed_in_a_new_environment(tmp_path, env)
    project = tmp_path / "my-pdp1-program"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("__pycache__", "conftest.py"))
    assert not list(project.rglob("conftest.py"))  # the fixtures come from the installed package alone
    ran = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         cwd=project, capture_output=True, text=True, timeout=300, env=env)
    assert ran.returncode == 0 and "9 passed" in ran.stdout, ran.stdout[-3000:] + ran.stderr[-2000:]
    found = subprocess.run([str(python), "-c", "import python_bridge; print(python_bridge.__file__)"],
                           cwd=project, capture_output=True, text=True, timeout=60, env=env)
    assert found.stdout.startswith(str(tmp_path / "venv")), found.stdout  # the installed package, not the checkout
