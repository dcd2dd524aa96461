"""Functions one reader can follow: none in python_bridge/ longer than 80 lines.

Why a test: a handler of 180 lines of nested closures is one that no test or reader can name; the limit
makes its parts functions (or methods of a class that holds their state) when it grows, not in a
clean-up nobody schedules.  Counted from the ``def`` line to the last line of the body, decorators and
nested functions included (a nested function counts in its own right as well).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 80


def long_functions(source: str, where: str) -> dict[str, int]:
    """Every function of ``source`` over ``LIMIT`` lines: ``where:line name`` -> lines."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            if lines > LIMIT:
                found[f"{where}:{node.lineno} {node.name}"] = lines
    return found


def test_no_function_in_python_bridge_is_longer_than_80_lines() -> None:
    files = sorted((ROOT / "python_bridge").rglob("*.py"))
    assert len(files) > 100, "the test reads nothing"
    long = {}
    for path in files:
        long.update(long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))))
    assert not long, f"over {LIMIT} lines: {long}"


def test_the_count_finds_a_long_function_and_passes_a_short_one() -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(LIMIT))
    assert long_functions(f"def long():\n{body}\n", "f") == {"f:1 long": LIMIT + 1}
    assert long_functions("def short():\n    return 1\n", "f") == {}
    nested = f"def outer():\n    def inner():\n{body.replace('    ', '        ')}\n    return inner\n"
    assert set(long_functions(nested, "f")) == {"f:1 outer", "f:2 inner"}
