"""Names the text gives must exist: a docstring, comment or doc page that names a module after it moved
(the kiosk's benchmark once lived in kiosk/, the driver in checking/) sends a reader to nothing.

Checked: every ``dotted.name`` in double back-quotes in the Python sources whose first part is one of the
project's packages (``python_bridge``, ``tools`` or a package of ``python_bridge``) must be a module, or a
name a module defines; every path ``python_bridge/...`` or ``tools/...`` (``.py``) in the sources and the
docs must be a file, and so must every ``<package>/<module>.py`` the docs name inside ``python_bridge``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = ROOT / "python_bridge"
SUBPACKAGES = {p.name for p in BRIDGE.iterdir() if (p / "__init__.py").exists()}
MODULES = {".".join(f.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): f
           for folder in ("python_bridge", "tools") for f in (ROOT / folder).rglob("*.py")}
SOURCES = sorted(f for folder in ("python_bridge", "tools", "tests", "examples") for f in (ROOT / folder).rglob("*.py"))
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
DOTTED = re.compile(r"``([a-z_][a-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)+)``")
PATH = re.compile(r"(?<![\w/.])((?:python_bridge|tools)/[\w/]+\.py)\b")
PACKAGE_PATH = re.compile(r"(?<![\w/.])((?:" + "|".join(sorted(SUBPACKAGES)) + r")/\w+\.py)\b")


FILE_NAMES = (".toml", ".json", ".py", ".md", ".txt", ".mac", ".rim", ".svg", ".html", ".css", ".js")


def _defines(module: Path, name: str) -> bool:
    """Whether ``module`` defines or imports ``name`` at its top level (a class's method counts too)."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((alias.asname or alias.name.split(".")[0]) == name for alias in node.names):
                return True
    return False


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for candidate in ([name] if parts[0] in ("python_bridge", "tools") else [f"python_bridge.{name}"]):
        pieces = candidate.split(".")
        for cut in range(len(pieces), 0, -1):
            module = ".".join(pieces[:cut])
            if module in MODULES:
                rest = pieces[cut:]
                return not rest or _defines(MODULES[module], rest[0])
    return False


def _where(path: Path, text: str, at: int) -> str:
    return f"{path.relative_to(ROOT)}:{text[:at].count(chr(10)) + 1}"


def test_dotted_names_in_the_sources_exist() -> None:
    stale = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in DOTTED.finditer(text):
            name = match.group(1)
            if name.endswith(FILE_NAMES):
                continue
            if name.split(".")[0] in SUBPACKAGES | {"python_bridge", "tools"} and not _resolves(name):
                stale.append(f"{_where(path, text, match.start())}: {name}")
    assert not stale, "names of nothing:\n" + "\n".join(stale)


def test_paths_in_the_sources_and_docs_exist() -> None:
    stale = []
    for path in SOURCES + DOCS:
        text = path.read_text(encoding="utf-8")
        for match in PATH.finditer(text):
            if not (ROOT / match.group(1)).exists():
                stale.append(f"{_where(path, text, match.start())}: {match.group(1)}")
        if path in DOCS:
            for match in PACKAGE_PATH.finditer(text):
                if not (BRIDGE / match.group(1)).exists():
                    stale.append(f"{_where(path, text, match.start())}: {match.group(1)}")
    assert not stale, "paths to nothing:\n" + "\n".join(stale)


def test_the_checks_find_a_stale_name() -> None:
    assert _resolves("driver.driver.GameDriver") and _resolves("python_bridge.machine.simh")
    assert not _resolves("checking.driver") and not _resolves("driver.GameDriverX")
