"""``tools.atomic_file.write_atomically``: a file replaced whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.atomic_file import write_atomically


def test_the_file_is_replaced_whole_and_no_part_is_left(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "counters.json"
    write_atomically(target, "old")
    write_atomically(target, b"new \xe2\x82\xac")
    assert target.read_bytes() == "new €".encode()
    assert sorted(p.name for p in target.parent.iterdir()) == ["counters.json"]


def test_a_write_that_fails_leaves_the_old_file_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "current-game.txt"
    write_atomically(target, "the game so far")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, "half a game")
    assert target.read_text() == "the game so far"
    assert [p.name for p in tmp_path.iterdir()] == ["current-game.txt"]  # no part file left behind


def test_a_folder_that_cannot_be_written_raises_and_changes_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "state"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(OSError):
        write_atomically(blocked / "counters.json", "{}")
    assert blocked.read_text() == "a file where the folder should be"
