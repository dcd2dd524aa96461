"""tools.tape reads the tapes people actually have, as the hardware's read-in and SIMH's ``boot ptr`` do.

Each kind of tape found among real shipped PDP-1 tapes is punched here by our own assembler
(tools.macro) and tape writer (tools.papertape), never copied: frames without the 0200 hole
(passed over by binary read), the block loader with its working word 7760 punched non-zero (as on
many real tapes), the loader moved elsewhere in core, a routine loaded below the
loader that runs into it (BLINKY's way of clearing core), a loader that is not macro1's, and
tapes with no block loader.  For each, what the reader says must be what SIMH loads.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.tape_support import run_simh
from tools.macro import assemble
from tools.papertape import (
    DIO,
    GAP_FRAMES,
    JMP,
    LEADER_FRAMES,
    LOADER_ORIGIN,
    MACRO1_LOADER,
    TapePunch,
    frames_of,
    parse_tape,
    read_tape,
    write_block_tape,
    write_rim,
)
from tools.papertape.reader import _relocated

PROGRAM = """/ tape kinds
100/
go,	hlt
	lac x
	add y
	dac z
	jmp go
x,	5
y,	7
z,	0
300/
	lac (12345
	hlt
	constants
	start go
"""


@pytest.fixture(scope="module")
def program():
    assembled = assemble(PROGRAM)
    assert assembled.ok, assembled.messages
    return assembled


def rim_records(words: list[tuple[int, int]]) -> bytes:
    return b"".join(frames_of(DIO | address) + frames_of(word) for address, word in words)


def with_loader(loader: list[tuple[int, int]], origin: int, program_words: dict[int, int], start: int,
                *, stages: list[tuple[dict[int, int], int]] = ()) -> bytes:
    """A block tape whose RIM part is ``loader`` (jmp ``origin``), then blocks as macro1 punches them."""
    writer = TapePunch.new_tape(loader=False)
    for words, transfer in stages:
        for address, word in words.items():
            writer.word(address, word)
        writer.start(transfer)
    for address, word in program_words.items():
        writer.word(address, word)
    writer.start(start)
    blocks = writer.finish()[LEADER_FRAMES + GAP_FRAMES:]
    return bytes(LEADER_FRAMES) + rim_records(loader) + frames_of(JMP | origin) + bytes(GAP_FRAMES) + blocks


def macro1_loader(origin: int = LOADER_ORIGIN, data_word: int = 0) -> list[tuple[int, int]]:
    words = [_relocated(word, origin - LOADER_ORIGIN) for word in MACRO1_LOADER]
    words[7] = data_word
    return [(origin + n, word) for n, word in enumerate(words)]


def boots_like_the_reader(tmp_path: Path, name: str, data: bytes) -> None:
    """SIMH's boot ptr stops at the program's hlt (start + 1) with the reader's image in core."""
    tape = read_tape(data)
    path = tmp_path / f"{name}.rim"
    path.write_bytes(data)
    memory, pc, output = run_simh(path, ["attach ptr {TAPE}", "boot ptr"])
    assert f"HALT instruction, PC: {tape.start + 1:06o}" in output, output
    assert {a: memory[a] for a in tape.memory} == tape.memory


@pytest.mark.simh
def test_frames_without_the_data_hole_are_passed_over(program, tmp_path: Path) -> None:
    sound = program.tape
    first, second = read_tape(sound).blocks[:2]
    data = bytearray(sound)
    # punched frames without the 0200 hole (dirt, a torn edge) between words and inside them,
    # and a blank frame inside a word: binary read passes over all of them
    for at, frame in sorted([(LEADER_FRAMES + 7, 0o003), (first.offset + 1, 0o022), (first.offset + 2, 0o177),
                             (second.offset - 2, 0o140), (second.offset + 4, 0)], reverse=True):
        data.insert(at, frame)
    tape = read_tape(bytes(data))
    assert tape.memory == read_tape(sound).memory and tape.loader_kind == "macro1"
    assert any("punched without the 0200 hole, passed over" in note and "and 3 more" in note for note in tape.notes)
    assert any("blank frames among its three" in note for note in tape.notes)
    boots_like_the_reader(tmp_path, "stray", bytes(data))


@pytest.mark.simh
def test_the_loader_with_its_working_word_punched(program, tmp_path: Path) -> None:
    data = with_loader(macro1_loader(data_word=0o601411), LOADER_ORIGIN, program.words, program.start)
    tape = read_tape(data)
    assert tape.loader_kind == "dec" and tape.memory == program.words
    assert "word 7760 punched 601411" in tape.describe_loader()
    assert "word 7760 punched non-zero" in tape.loader_summary()
    boots_like_the_reader(tmp_path, "dec", data)


@pytest.mark.simh
def test_the_loader_moved_elsewhere_in_core(program, tmp_path: Path) -> None:
    data = with_loader(macro1_loader(0o7651), 0o7651, program.words, program.start)
    tape = read_tape(data)
    assert tape.loader_kind == "moved" and tape.loader_region.start == 0o7651
    assert tape.memory == program.words and "moved to 7651" in tape.loader_summary()
    boots_like_the_reader(tmp_path, "moved", data)
    # and a block over the moved loader is the hazard it is there
    over = with_loader(macro1_loader(0o7651), 0o7651, {0o7660: 0o760400}, 0o7660)
    assert any("overwrites the loader at 7651-7677" in str(h) for h in parse_tape(over).hazards)


@pytest.mark.simh
def test_a_routine_that_runs_into_the_loader_and_reads_on(program, tmp_path: Path) -> None:
    """BLINKY's way: a block loaded just below the loader clears core and falls into it."""
    clear = assemble("""/ clear core, then fall into the loader at 7751
7742/
cl,	dzm 0
	idx cl
	sas cle
	jmp cl
cle,	dzm 7741
	cla
	dap cl
""")
    assert clear.ok, clear.messages and max(clear.words) == 0o7750
    data = with_loader(macro1_loader(), LOADER_ORIGIN, program.words, program.start,
                       stages=[(clear.words, 0o7742)])
    tape = read_tape(data)
    assert tape.start == program.start
    assert {a: w for a, w in tape.memory.items() if a < 0o7742} == program.words
    assert any("jmp 7742 runs the routine loaded there, which runs into the loader at 7751" in note
               for note in tape.notes)
    boots_like_the_reader(tmp_path, "chain", data)


def test_a_loader_of_its_own_is_named_not_checked(program) -> None:
    # a different loader at 7700: read-in loads it and starts it; what it reads is its business
    own = [(0o7700 + n, word) for n, word in enumerate((0o730002, 0o327710, 0o107710, 0o600000 | 0o7700,
                                                          0o760400, 0o000000, 0o000000, 0o000000, 0o000000))]
    own += [(0o7711 + n, 0o760400) for n in range(12)]
    data = bytes(LEADER_FRAMES) + rim_records(own) + frames_of(JMP | 0o7700) + write_rim(program.words, 0o100)[
        LEADER_FRAMES:]
    tape = read_tape(data)
    assert tape.loader_kind == "unknown" and tape.start == 0o7700
    assert "code of its own at 7700" in tape.loader_summary()
    assert any("starts a loader of the tape's own at 7700" in note and "not checked" in note for note in tape.notes)


def test_tapes_without_the_block_loader(program) -> None:
    rim = read_tape(write_rim(program.words, program.start))
    assert rim.format == "rim" and rim.loader_kind is None and rim.loader_summary() == "read in directly (no loader)"
    noinput = read_tape(write_block_tape(program.words, program.start, loader=False))
    assert noinput.format == "block" and not noinput.has_loader and noinput.memory == program.words
    assert noinput.loader_summary() == "no loader on the tape" and "noinput" in noinput.notes[0]


def test_real_damage_is_still_reported(program) -> None:
    # a damaged macro1 loader (it has no checksum), a bad block checksum, a cut tape
    data = bytearray(program.tape)
    loader_word = read_tape(program.tape).loader[9]
    data[loader_word.offset + 5] ^= 0o4
    assert "loader record 10" in str(parse_tape(bytes(data)).errors[0])
    block = read_tape(program.tape).blocks[0]
    data = bytearray(program.tape)
    data[block.offset + 9] ^= 0o1
    assert "bad checksum in block 0100-0107 (block 1," in str(parse_tape(bytes(data)).errors[0])
    assert "is cut short" in str(parse_tape(program.tape[: block.offset + 10]).errors[0])
