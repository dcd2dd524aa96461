"""`python -m tools.tape` on tapes punched by the real macro1, sound and damaged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tools.tape_support import assemble
from tools.papertape import frames_of, read_tape

REPO = Path(__file__).resolve().parents[2]

SOURCE = """/ cli test
100/
go,	hlt
	lac (5
	szf i 1
	jmp go
	tyo
	constants
	start go
"""


def tape_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "tools.tape", *map(str, args)], cwd=REPO,
                            capture_output=True, text=True, timeout=30,
                            stdin=subprocess.DEVNULL)
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def tapes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    workdir = tmp_path_factory.mktemp("cli")
    block = assemble(SOURCE, workdir, "block")
    rim = assemble(SOURCE, workdir, "rim", rim=True)
    data = bytearray(block.read_bytes())
    tape = read_tape(bytes(data))
    checksum_at = tape.blocks[0].offset + 3 * (2 + len(tape.blocks[0].words))
    data[checksum_at:checksum_at + 3] = frames_of(tape.blocks[0].checksum ^ 1)
    bad_sum = workdir / "badsum.rim"
    bad_sum.write_bytes(bytes(data))
    cut = workdir / "cut.rim"
    cut.write_bytes(block.read_bytes()[:tape.start_offset + 1])
    return {"block": block, "rim": rim, "badsum": bad_sum, "cut": cut}


def test_dump_block_tape(tapes: dict[str, Path]) -> None:
    result = tape_cli("dump", tapes["block"])
    assert result.returncode == 0
    out = result.stdout
    for text in ["format: block-loader tape (macro1's default)",
                 "leader: 240 blank frames",
                 "loader: 21 words at 7751-7775 in RIM form, then jmp 7751: macro1's block loader",
                 "  7751  730002  rpb",
                 "block 1 at frame 374: 0100-0105, 6 words, checksum",
                 "  0100  760400  hlt", "  0101  200105  lac 105", "  0102  650001  szf i 1",
                 "  0104  730003  tyo", "  0105  000005  000005",
                 "start: jmp 0100 at frame", "trailer: 1 blank frame"]:
        assert text in out, text
    assert " ok\n" in out


def test_dump_rim_tape(tapes: dict[str, Path]) -> None:
    result = tape_cli("dump", tapes["rim"])
    assert result.returncode == 0
    assert "format: RIM tape (macro1 -r)" in result.stdout
    assert "records: 6 dio/word pairs" in result.stdout
    assert "  0103  600100  jmp 100" in result.stdout
    assert "loader" not in result.stdout


def test_dump_damaged_tape_shows_what_it_can(tapes: dict[str, Path]) -> None:
    result = tape_cli("dump", tapes["badsum"])
    assert result.returncode == 1
    assert "BAD (words sum to" in result.stdout
    assert "error: frame " in result.stdout and "bad checksum in block 0100-0105" in result.stdout


def test_check(tapes: dict[str, Path]) -> None:
    result = tape_cli("check", tapes["block"])
    assert result.returncode == 0
    assert "ok: block-loader tape, macro1's loader, 1 block, 6 words at 0100-0105, start 0100" in result.stdout
    result = tape_cli("check", tapes["rim"])
    assert result.returncode == 0 and "ok: RIM tape, read in directly (no loader), 6 words" in result.stdout

    result = tape_cli("check", tapes["badsum"])
    assert result.returncode == 1 and "bad checksum" in result.stderr
    result = tape_cli("check", tapes["cut"])
    assert result.returncode == 1
    assert "without the jmp start transfer word" in result.stderr and "frame " in result.stderr


def test_image(tapes: dict[str, Path]) -> None:
    result = tape_cli("image", tapes["block"])
    assert result.returncode == 0
    expected = read_tape(tapes["block"].read_bytes()).memory
    assert result.stdout.splitlines() == [f"{a:04o}: {expected[a]:06o}" for a in sorted(expected)]
    assert tape_cli("image", tapes["rim"]).stdout == result.stdout
    core = tape_cli("image", "--core", tapes["block"]).stdout.splitlines()
    assert "7751: 730002" in core and "7775: 607751" in core and len(core) == 6 + 21
    result = tape_cli("image", tapes["cut"])
    assert result.returncode == 1 and result.stdout == "" and "frame " in result.stderr


@pytest.mark.parametrize("args", [(), ("frobnicate", "x.rim"), ("check",), ("dump", "a", "b")])
def test_bad_arguments_exit_2(args: tuple[str, ...]) -> None:
    result = tape_cli(*args)
    assert result.returncode == 2 and "error:" in result.stderr and result.stderr.count("\n") == 1


def test_unreadable_files_exit_2(tmp_path: Path) -> None:
    """A missing tape, a folder, a FIFO (which would wait forever) and /dev/zero (endless): one line each."""
    os.mkfifo(tmp_path / "fifo.rim")
    for path in (tmp_path / "missing.rim", tmp_path, tmp_path / "fifo.rim", Path("/dev/zero")):
        result = tape_cli("check", path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1
        assert result.stderr.startswith("tape: ") and str(path) in result.stderr


def test_check_says_which_loader_and_notes_what_read_in_passes_over(tapes: dict[str, Path], tmp_path: Path) -> None:
    data = bytearray(tapes["block"].read_bytes())
    block = read_tape(bytes(data)).blocks[0]
    data.insert(block.offset + 1, 0o022)           # a frame punched without the 0200 hole
    dirty = tmp_path / "dirty.rim"
    dirty.write_bytes(bytes(data))
    result = tape_cli("check", dirty)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and "ok: block-loader tape, macro1's loader" in lines[0]
    assert "note: frame" in lines[1] and "without the 0200 hole, passed over" in lines[1]
    dump = tape_cli("dump", dirty).stdout
    assert "note: frame" in dump and "macro1's block loader" in dump
