"""The PDP-1 test kit as someone with a PDP-1 program of their own uses it (docs/testing-pdp1-programs.md).

A project outside this checkout: examples/gcd/ (a program that reads the typewriter, computes and types
its answer; its tests; a conftest.py that names the plugin), with this package installed into a virtual
environment of its own by pip, as a user installs it, and pytest run there.  Nothing of the checkout is
on its path: what its tests import comes from the installed package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "gcd"
PACKAGE = ("pyproject.toml", "tools", "python_bridge")  # what pip builds the package from


def test_the_example_passes_in_a_project_of_its_own(tmp_path: Path) -> None:
    # a copy: pip builds in its source folder, and the checkout's build/ holds the tapes
    source = tmp_path / "pdp1-kalah"
    source.mkdir()
    for name in PACKAGE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, source / name)
    project = tmp_path / "my-pdp1-program"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # pip itself is not copied into the environment (that alone cost 3.7 CPU-seconds): this pip installs into it
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                                "--disable-pip-version-check", str(source), "pytest"],
                               capture_output=True, text=True, timeout=300, env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    ran = subprocess.run([str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         cwd=project, capture_output=True, text=True, timeout=300, env=env)
    assert ran.returncode == 0 and "9 passed" in ran.stdout, ran.stdout[-3000:] + ran.stderr[-2000:]
    found = subprocess.run([str(venv / "bin" / "python"), "-c", "import python_bridge; print(python_bridge.__file__)"],
                           cwd=project, capture_output=True, text=True, timeout=60, env=env)
    assert found.stdout.startswith(str(venv)), found.stdout  # the installed package, not the checkout
