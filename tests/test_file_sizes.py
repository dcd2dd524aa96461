"""Files one reader can hold: no Python file over 500 lines, no JavaScript file over 400.

Why a test: a file past that size holds several jobs, and the next change adds a sixth; the limit
makes the split happen when the file grows, not in a clean-up nobody schedules.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMITS = {".py": 500, ".js": 400}


def _tracked() -> list[Path]:
    """The files git keeps (generated and vendored files are not the project's own)."""
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True,
                           timeout=60).stdout.split()
    return [ROOT / name for name in names if Path(name).suffix in LIMITS and (ROOT / name).is_file()]


@pytest.mark.parametrize("suffix", sorted(LIMITS))
def test_no_file_past_its_size(suffix: str) -> None:
    files = [path for path in _tracked() if path.suffix == suffix]
    assert files, f"no {suffix} files found: the test reads nothing"
    long = {str(path.relative_to(ROOT)): n for path in files
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMITS[suffix]}
    assert not long, f"over {LIMITS[suffix]} lines: {long}"
