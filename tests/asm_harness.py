"""The assembler comparison harness (tests/tools/compare_assemblers.py), loaded once for the tests.

tests/ is not a package, so the harness script is loaded by path and
registered under its own name; test files import ``harness`` from here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def _load() -> ModuleType:
    if "compare_assemblers" in sys.modules:
        return sys.modules["compare_assemblers"]
    path = Path(__file__).resolve().parent / "tools" / "compare_assemblers.py"
    spec = importlib.util.spec_from_file_location("compare_assemblers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["compare_assemblers"] = module
    spec.loader.exec_module(module)
    return module


harness = _load()
