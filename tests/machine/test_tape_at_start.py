"""The tape at start: a damaged or cut ``build/kalah.rim`` is found before it is booted, named block by
block, and punched again from the sources; without them the user gets one line, not SIMH's halt at 7775."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.machine.kalah_program import SOURCE_DIR, TapeDamaged, ensure_tape, tape_problem
from tools.papertape import parse_tape

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def workshop(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the sources and a build folder of its own (the project's build/ is left alone)."""
    sources = tmp_path / "pdp1_src"
    shutil.copytree(SOURCE_DIR, sources)
    build = tmp_path / "build"
    ensure_tape(build, sources)
    return build, sources


def damage(tape: Path, frame: int) -> None:
    data = bytearray(tape.read_bytes())
    data[frame] ^= 0o01  # one hole more or less in a data frame
    tape.write_bytes(bytes(data))
    future = tape.stat().st_mtime + 10  # newer than its sources, so make's own rule would not rebuild it
    os.utime(tape, (future, future))


def block_frame(tape: Path, number: int) -> int:
    """A data frame inside the ``number``-th block (1-based) of a sound tape."""
    block = parse_tape(tape.read_bytes()).blocks[number - 1]
    return block.offset + 3 * 3  # the second word of the block's data


def test_a_sound_tape_is_used_as_it_is(workshop: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    build, sources = workshop
    before = (build / "kalah.rim").read_bytes()
    assert ensure_tape(build, sources) == build / "kalah.rim"
    assert (build / "kalah.rim").read_bytes() == before and capsys.readouterr().err == ""


def test_a_bad_checksum_is_named_and_the_tape_punched_again(workshop: tuple[Path, Path],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    build, sources = workshop
    tape = build / "kalah.rim"
    sound = tape.read_bytes()
    damage(tape, block_frame(tape, 7))
    problem = tape_problem(tape)
    assert problem is not None and "bad checksum in block" in problem and "(block 7," in problem
    assert ensure_tape(build, sources) == tape
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(block 7," in err and "punching it again" in err
    assert tape.read_bytes() == sound


def test_a_cut_tape_is_named_and_punched_again(workshop: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    build, sources = workshop
    tape = build / "kalah.rim"
    sound = tape.read_bytes()
    tape.write_bytes(sound[: block_frame(tape, 12)])
    assert ensure_tape(build, sources) == tape
    err = capsys.readouterr().err
    assert "is cut short" in err and "(block 12," in err
    assert tape.read_bytes() == sound


def test_without_the_sources_a_damaged_tape_is_one_clear_error(workshop: tuple[Path, Path]) -> None:
    build, sources = workshop
    damage(build / "kalah.rim", block_frame(build / "kalah.rim", 3))
    shutil.rmtree(sources)
    with pytest.raises(TapeDamaged, match=r"bad checksum in block .*\(block 3,.*sources to punch it again"):
        ensure_tape(build, sources)


def test_without_the_sources_a_sound_tape_still_plays(workshop: tuple[Path, Path]) -> None:
    build, sources = workshop
    shutil.rmtree(sources)
    assert ensure_tape(build, sources) == build / "kalah.rim"


def test_make_build_catches_a_tape_newer_than_its_sources_that_fails_its_check(tmp_path: Path) -> None:
    build = tmp_path / "build"
    make = ["make", "-s", "--no-print-directory", "build", f"BUILD={build}"]
    first = subprocess.run(make, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout.count("ok") == 2 and first.stdout.strip().count("\n") == 1  # quiet: one line a tape
    tape = build / "kalah.rim"
    sound = tape.read_bytes()
    damage(tape, block_frame(tape, 20))
    again = subprocess.run(make, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "(block 20," in again.stdout + again.stderr and tape.read_bytes() == sound


def test_a_command_refuses_a_tape_it_cannot_have_in_one_line(tmp_path: Path) -> None:
    """What a user sees: ``python -m python_bridge fuzz`` with a damaged tape and no sources."""
    code = (
        "import sys, shutil, pathlib\n"
        "import python_bridge.machine.kalah_program as kp\n"
        f"build = pathlib.Path({str(tmp_path / 'build')!r}); src = pathlib.Path({str(tmp_path / 'src')!r})\n"
        "shutil.copytree(kp.SOURCE_DIR, src); kp.ensure_tape(build, src); shutil.rmtree(src)\n"
        "tape = build / 'kalah.rim'; data = bytearray(tape.read_bytes()); data[1000] ^= 1; tape.write_bytes(data)\n"
        "kp.ensure_tape.__defaults__ = (build, src)\n"
        "from python_bridge.commands import fuzz\n"
        "sys.exit(fuzz.main(['--cases', '5']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "is damaged" in done.stderr
