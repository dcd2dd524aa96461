"""One of each, in the room it belongs to: a fix made to one copy of a thing must not miss a second copy.

Read from the source with ``ast``: one ``SavedGame`` (the one game-record format, ``driver.game_records``),
one tape punch (``tools.papertape.punch``), one record writer (only ``SavedGame.text`` writes a record's
``record:`` and ``result:`` lines), one test of a terminal (``driver.keyboard``), one long-run warning
(``commands.progress.announce``), one atomic write (``tools.atomic_file``), one typewriter rate
(``machine.simh_process.TYPEWRITER_CHARACTERS_PER_SECOND``).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("python_bridge", "tools") for p in (ROOT / folder).rglob("*.py"))


@cache
def trees() -> dict[str, ast.Module]:
    """Each source's tree, parsed when a test first asks: not at collection, which every worker does (0.5 CPU-s)."""
    return {path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8")) for path in SOURCES}


def _defined(kind: type, name: str) -> list[str]:
    return [f"{where}:{node.lineno}" for where, tree in trees().items() for node in ast.walk(tree)
            if isinstance(node, kind) and node.name == name]


def _strings_starting(prefix: str) -> list[str]:
    """Where a string literal (or an f-string's first part) begins with ``prefix``."""
    found = []
    for where, tree in trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                text = node.values[0].value
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if isinstance(text, str) and text.startswith(prefix):
                found.append(f"{where}:{node.lineno}")
    return sorted(set(found))


def _calls(attribute: str) -> list[str]:
    return [f"{where}:{node.lineno}" for where, tree in trees().items() for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attribute]


def test_one_saved_game() -> None:
    assert [w.split(":")[0] for w in _defined(ast.ClassDef, "SavedGame")] == ["python_bridge/driver/game_records.py"]


def test_one_tape_punch_and_no_other_tape_writer() -> None:
    assert [w.split(":")[0] for w in _defined(ast.ClassDef, "TapePunch")] == ["tools/papertape/punch.py"]
    writers = [f"{where}:{node.name}" for where, tree in trees().items() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef) and "tape" in node.name.lower()
               and any(word in node.name.lower() for word in ("writer", "punch"))]
    assert writers == ["tools/papertape/punch.py:TapePunch"]


def test_one_record_writer() -> None:
    """A record's lines are written in one place: the f-strings that begin ``record: `` and ``result: ``."""
    for line in ("record: ", "result: ", "moves cross-checked: "):
        assert {w.split(":")[0] for w in _strings_starting(line)} == {"python_bridge/driver/game_records.py"}, line


def test_one_test_of_a_terminal() -> None:
    assert [w.split(":")[0] for w in _calls("isatty")] == ["python_bridge/driver/keyboard.py"]
    assert _defined(ast.FunctionDef, "_is_terminal") == []


def test_one_long_run_warning() -> None:
    notes = {w.split(":")[0] for w in _strings_starting("note: ") if w.startswith("python_bridge/")}
    assert notes == {"python_bridge/commands/progress.py"}, notes


def test_one_atomic_write() -> None:
    renames = [w for where, tree in trees().items() for node in ast.walk(tree)
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace"
               and isinstance(node.func.value, ast.Name) and node.func.value.id == "os"
               for w in [where]]
    assert renames == ["tools/atomic_file.py"], renames


def test_one_typewriter_rate() -> None:
    """The figure is written once; every help line and caption that says it formats the constant."""
    literal = []
    for where, tree in trees().items():
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}  # prose may say it
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and re.search(r"\b10 characters a second", node.value)):
                literal.append(f"{where}:{node.lineno}")
    assert literal == [], f"the typewriter's rate typed as text: {literal}"
    rates = [where for where, tree in trees().items() for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "TYPEWRITER_CHARACTERS_PER_SECOND" for t in node.targets)]
    assert rates == ["python_bridge/machine/simh_process.py"]
    # nor under another name: a rate of characters a second given as a number anywhere else
    named = [f"{where}:{node.lineno}" for where, tree in trees().items() for node in ast.walk(tree)
             if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
             and isinstance(node.value.value, (int, float)) and not isinstance(node.value.value, bool)
             and any(isinstance(t, ast.Name) and re.search(r"(CPS|CHARACTERS_PER_SECOND|CHARS_PER_SECOND)$", t.id)
                     and t.id != "TYPEWRITER_CHARACTERS_PER_SECOND" for t in node.targets)]
    assert named == [], f"another typewriter rate: {named}"
