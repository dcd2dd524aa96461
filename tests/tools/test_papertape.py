"""tools.papertape against the real macro1 (bytes) and the real SIMH pdp1 (what loads).

Tapes come from /usr/bin/macro1 assembling small sources written here; the writer must
punch the same bytes, the reader must give back the words macro1 was given, and SIMH
must load the same image. Damaged tapes are made by changing real tapes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.tools.tape_support import assemble, run_simh
from tools.papertape import (
    MACRO1_LOADER,
    ChecksumError,
    LoaderError,
    MissingStartError,
    RecordTypeError,
    Tape,
    TapeError,
    TapePunch,
    TruncatedTapeError,
    frames_of,
    ones_complement_sum,
    parse_tape,
    read_tape,
    write_block_tape,
    write_rim,
)

# A small real program: labels, a literal pool, origins going back and forth, a run
# across a 0100 boundary, text. It starts with hlt so that `boot ptr` stops at once.
PROGRAM = """/ paper tape test program
100/
go,	hlt
	lac (123
	dac x
	jsp sub
	jmp go
x,	0
sub,	dap ret
	law i 5
	add x
ret,	jmp .
	constants
60/
	text /kalah/
170/
	repeat 20, law 17
40/
	7
	start go
"""

Pairs = list[tuple[int, int]]


def source_of(pairs: Pairs, start: int | None, *, noinput: bool = False) -> str:
    """macro1 source that punches exactly ``pairs`` in order: origins and octal words."""
    lines = ["/ generated words"] + (["\tnoinput"] if noinput else [])
    next_address = None
    for address, word in pairs:
        if address != next_address:
            lines.append(f"{address:o}/")
        lines.append(f"\t{word:o}")
        next_address = (address + 1) & 0o7777
    lines.append("\tstart" if start is None else f"\tstart {start:o}")
    return "\n".join(lines) + "\n"


def generated_pairs(seed: int) -> Pairs:
    """Runs of words at random places: adjacent runs, gaps, going back, overlaps,
    runs across 0100 boundaries and ones longer than a block."""
    rng = random.Random(seed)
    pairs: Pairs = []
    for _ in range(8):
        origin = rng.randrange(0o7700)
        for n in range(rng.choice([1, 2, 5, 63, 64, 65, 130])):
            pairs.append(((origin + n) & 0o7777, rng.randrange(1 << 18)))
    return pairs


EDGE_CASES: dict[str, Pairs] = {
    "one word": [(0o100, 0o760400)],
    "boundary": [(a, a) for a in range(0o170, 0o310)],
    "backwards": [(0o200, 1), (0o201, 2), (0o100, 3), (0o101, 4), (0o77, 5), (0o100, 6)],
    "duplicate": [(0o100, 1), (0o100, 2), (0o101, 3)],
    "ends at 7777": [(a, 0o777777) for a in range(0o7770, 0o10000)] + [(0, 0o17)],
    "zero words": [(a, 0) for a in range(0o500, 0o520)],
    "no words": [],
}
CASES = {**EDGE_CASES, **{f"seed {s}": generated_pairs(s) for s in (1, 2, 3)}}


def image_of(pairs: Pairs) -> dict[int, int]:
    return dict(pairs)  # later words overwrite earlier ones, as when loading


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("rim", [False, True], ids=["block", "rim"])
def test_writer_punches_macro1s_bytes_and_reader_reads_them(
        tmp_path: Path, name: str, rim: bool) -> None:
    pairs = CASES[name]
    punched = assemble(source_of(pairs, 0o100), tmp_path, rim=rim).read_bytes()
    written = write_rim(pairs, 0o100) if rim else write_block_tape(pairs, 0o100)
    assert written == punched
    tape = read_tape(punched)
    assert tape.format == ("rim" if rim else "block")
    assert tape.memory == image_of(pairs)
    assert tape.start == 0o100
    assert (tape.leader, tape.trailer) == (240, 1)


def test_block_tape_layout(tmp_path: Path) -> None:
    tape = read_tape(assemble(PROGRAM, tmp_path).read_bytes())
    assert tape.has_loader and tape.loader_is_macro1 and tape.loader_start == 0o7751
    assert [(r.address, r.word) for r in tape.loader] == [
        (0o7751 + n, w) for n, w in enumerate(MACRO1_LOADER)]
    # Blocks split where the origin changes and at every 0100 boundary.
    spans = [(b.first, b.last) for b in tape.blocks]
    assert spans == [(0o100, 0o112), (0o60, 0o61), (0o170, 0o177), (0o200, 0o207), (0o40, 0o40)]
    assert all(b.ok and b.checksum == ones_complement_sum(
        [0o320000 | b.first, 0o320000 | (b.last + 1), *b.words]) for b in tape.blocks)
    assert tape.start == 0o100 and not tape.hazards


def test_rewriting_a_real_tape_gives_the_same_bytes(tmp_path: Path) -> None:
    punched = assemble(PROGRAM, tmp_path).read_bytes()
    tape = read_tape(punched)
    pairs = [(a, w) for b in tape.blocks for a, w in zip(b.addresses, b.words, strict=True)]
    assert write_block_tape(pairs, tape.start) == punched
    rim = assemble(PROGRAM, tmp_path, "r", rim=True).read_bytes()
    assert write_rim(read_tape(rim).memory, 0o100) == rim


def test_noinput_tape_has_no_loader(tmp_path: Path) -> None:
    pairs = CASES["boundary"]
    punched = assemble(source_of(pairs, 0o170, noinput=True), tmp_path).read_bytes()
    assert write_block_tape(pairs, 0o170, loader=False) == punched
    tape = read_tape(punched)
    assert tape.format == "block" and not tape.has_loader and tape.leader == 245
    assert tape.memory == image_of(pairs) and tape.start == 0o170


def test_start_without_address_punches_no_transfer_word(tmp_path: Path) -> None:
    pairs = CASES["one word"]
    for rim in (False, True):
        punched = assemble(source_of(pairs, None), tmp_path, rim=rim).read_bytes()
        assert punched == (write_rim(pairs, None) if rim else write_block_tape(pairs, None))
        with pytest.raises(MissingStartError):
            read_tape(punched)


def test_several_start_statements(tmp_path: Path) -> None:
    source = ("/ two programs\n100/\n\tlaw 5\n\tstart 100\n"
              "/ second title\n200/\n\tlaw 6\n\tstart 200\n")
    writer = TapePunch.new_tape()
    writer.word(0o100, 0o700005)
    writer.start(0o100)
    writer.word(0o200, 0o700006)
    writer.start(0o200)
    punched = assemble(source, tmp_path).read_bytes()
    assert writer.finish() == punched
    # Read-in stops at the first transfer word; the second program is never loaded.
    tape = read_tape(punched)
    assert tape.start == 0o100 and set(tape.memory) == {0o100}
    assert any("after the transfer word jmp 0100: read-in stops there" in note for note in tape.notes)


def test_writer_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        write_rim({0o10000: 1}, 0)
    with pytest.raises(ValueError):
        write_block_tape({0o100: 1 << 18}, 0)


# ------------------------------------------------------------------- against SIMH

def _simh_expected(image: dict[int, int]) -> dict[int, int]:
    return {address: image.get(address, 0) for address in range(0o10000)}


@pytest.mark.simh
def test_simh_load_matches_the_image(tmp_path: Path) -> None:
    block = assemble(PROGRAM, tmp_path, "b")
    rim = assemble(PROGRAM, tmp_path, "r", rim=True)
    block_tape, rim_tape = read_tape(block.read_bytes()), read_tape(rim.read_bytes())
    assert block_tape.memory == rim_tape.memory

    memory, pc, _ = run_simh(block, ["load -b {TAPE}"])
    assert memory == _simh_expected(block_tape.core()) and pc == block_tape.start

    memory, pc, _ = run_simh(rim, ["load {TAPE}"])
    assert memory == _simh_expected(rim_tape.memory) and pc == rim_tape.start


@pytest.mark.simh
def test_simh_read_in_through_the_punched_loader(tmp_path: Path) -> None:
    """`boot ptr` does what the hardware does: read the RIM part, then run the tape's
    own loader over the blocks, which jumps to the program (hlt at go)."""
    for tape_path in (assemble(PROGRAM, tmp_path, "b"), assemble(PROGRAM, tmp_path, "r", rim=True)):
        tape = read_tape(tape_path.read_bytes())
        memory, pc, output = run_simh(tape_path, ["attach ptr {TAPE}", "boot ptr"])
        assert f"HALT instruction, PC: {tape.start + 1:06o}" in output
        expected = _simh_expected(tape.core())
        # The running loader keeps its pointer and sums in a (7760), ck and en1 (7776-7777).
        for scratch in (0o7760, 0o7776, 0o7777):
            expected[scratch] = memory[scratch]
        assert memory == expected


@pytest.mark.simh
def test_bad_checksum_is_what_simh_rejects(tmp_path: Path) -> None:
    path = assemble(PROGRAM, tmp_path, "b")
    tape = read_tape(path.read_bytes())
    damaged = bytearray(path.read_bytes())
    damaged[tape.blocks[0].offset + 3 * 4 + 2] ^= 0o1          # a data bit of the 3rd word
    path.write_bytes(bytes(damaged))
    with pytest.raises(ChecksumError, match="bad checksum in block 0100-0112"):
        read_tape(bytes(damaged))
    _, _, output = run_simh(path, ["load -b {TAPE}"])
    assert "Checksum error" in output


@pytest.mark.simh
def test_minus_zero_checksum_halts_the_real_loader(tmp_path: Path) -> None:
    """macro1 punches 777777 when a block sums to minus zero; the loader's `add` turns
    -0 into +0, so read-in halts at 7774. SIMH's `load -b` takes the tape."""
    # dio 100 + dio 101 + 137576 = 777777 without a carry.
    path = assemble("/ minus zero\n100/\n\t137576\n\tstart 100\n", tmp_path)
    tape = read_tape(path.read_bytes())
    assert tape.blocks[0].checksum == 0o777777 and tape.blocks[0].ok
    assert any("minus zero" in hazard.message for hazard in tape.hazards)
    _, pc, output = run_simh(path, ["attach ptr {TAPE}", "boot ptr"])
    assert "HALT instruction, PC: 007775" in output
    memory, pc, _ = run_simh(path, ["load -b {TAPE}"])
    assert memory[0o100] == 0o137576 and pc == 0o100


@pytest.mark.simh
def test_block_ending_at_7777_is_rejected_by_simh_load(tmp_path: Path) -> None:
    pairs = EDGE_CASES["ends at 7777"]
    path = assemble(source_of(pairs, 0o100), tmp_path)
    tape = read_tape(path.read_bytes())
    assert any(b.last == 0o7777 for b in tape.blocks)
    assert any("Format error" in hazard.message for hazard in tape.hazards)
    _, _, output = run_simh(path, ["load -b {TAPE}"])
    assert "Format error" in output


# ---------------------------------------------------------------- damaged tapes

@pytest.fixture(scope="module")
def block_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return assemble(PROGRAM, tmp_path_factory.mktemp("block")).read_bytes()


@pytest.fixture(scope="module")
def rim_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return assemble(PROGRAM, tmp_path_factory.mktemp("rim"), rim=True).read_bytes()


def _error(data: bytes) -> TapeError:
    with pytest.raises(TapeError) as caught:
        read_tape(data)
    return caught.value


def test_changed_checksum(block_bytes: bytes) -> None:
    tape = read_tape(block_bytes)
    block = tape.blocks[1]
    checksum_at = block.offset + 3 * (2 + len(block.words))
    damaged = bytearray(block_bytes)
    damaged[checksum_at:checksum_at + 3] = frames_of(block.checksum ^ 0o40)
    error = _error(bytes(damaged))
    assert isinstance(error, ChecksumError) and error.offset == checksum_at
    assert f"frame {checksum_at}" in str(error) and "0060-0061" in str(error)
    # parse_tape reads on and marks just that block bad.
    parsed = parse_tape(bytes(damaged))
    assert [b.ok for b in parsed.blocks] == [True, False, True, True, True]
    assert parsed.start == 0o100


def test_every_single_data_bit_flip_in_blocks_is_caught(block_bytes: bytes) -> None:
    tape = read_tape(block_bytes)
    for block in tape.blocks:
        end = block.offset + 3 * (3 + len(block.words))
        for offset in range(block.offset, end):
            for bit in range(6):
                damaged = bytearray(block_bytes)
                damaged[offset] ^= 1 << bit
                assert not parse_tape(bytes(damaged)).ok, (offset, bit)


def test_lost_data_hole_is_passed_over_and_the_damage_still_caught(block_bytes: bytes) -> None:
    """Binary read passes over a frame without the 0200 hole: the words after it shift by a
    frame, which the block's checksum (or the next header) catches."""
    tape = read_tape(block_bytes)
    offset = next(n for n in range(tape.blocks[2].offset, len(block_bytes))
                  if block_bytes[n] & 0o77)
    damaged = bytearray(block_bytes)
    damaged[offset] &= 0o177
    parsed = parse_tape(bytes(damaged))
    assert not parsed.ok
    assert parsed.notes[0].startswith(f"frame {offset} ") and "without the 0200 hole" in parsed.notes[0]


def test_cut_tapes(block_bytes: bytes, rim_bytes: bytes) -> None:
    tape = read_tape(block_bytes)
    block = tape.blocks[0]
    cases = {
        block.offset + 3 * 5: (TruncatedTapeError, "after 3 of its 11 words"),
        block.offset + 3 * 5 + 1: (TruncatedTapeError, "ends 1 of 3 frames into a word"),
        block.offset + 3 * 13: (TruncatedTapeError, "before its checksum"),
        block.offset + 4: (TruncatedTapeError, "header of the block at 0100"),
        tape.start_offset: (MissingStartError, "without the jmp start"),
        tape.loader[3].offset + 3: (TruncatedTapeError, "dio 7754, before its data word"),
        100: (MissingStartError, "no data"),
    }
    for cut, (kind, text) in cases.items():
        error = _error(block_bytes[:cut])
        assert type(error) is kind and text in str(error), (cut, error)
    rim_tape = read_tape(rim_bytes)
    error = _error(rim_bytes[:rim_tape.start_offset])
    assert isinstance(error, MissingStartError)


def test_blank_frame_inside_a_word_is_read_across(rim_bytes: bytes) -> None:
    """As the reader's binary mode (and SIMH's boot ptr) does: a word is the next three frames
    with the 0200 hole."""
    sound = read_tape(rim_bytes)
    record = sound.records[2]
    damaged = rim_bytes[:record.offset + 1] + b"\0" + rim_bytes[record.offset + 1:]
    tape = read_tape(damaged)
    assert tape.memory == sound.memory
    assert any(note.startswith(f"frame {record.offset} ") and "blank frames among its three" in note
               for note in tape.notes)


def test_wrong_record_types(block_bytes: bytes, rim_bytes: bytes) -> None:
    rim_tape = read_tape(rim_bytes)
    record = rim_tape.records[4]
    damaged = bytearray(rim_bytes)
    damaged[record.offset:record.offset + 3] = frames_of(0o200000 | record.address)  # lac
    error = _error(bytes(damaged))
    assert isinstance(error, RecordTypeError) and error.offset == record.offset
    assert "expected dio A or jmp S" in str(error) and "lac" in str(error)

    tape = read_tape(block_bytes)
    block = tape.blocks[3]
    for index, word, text in [(0, 0o240200, "found 240200 (dac 200)"),
                              (1, 0o220210, "second header word"),
                              (1, 0o320177, "gives -1 words"),
                              (1, 0o320301, "gives 65 words"),
                              (1, 0o330010, "runs past 7777")]:
        damaged = bytearray(block_bytes)
        if word == 0o330010:                           # dio 7770 / dio 10010
            damaged[block.offset:block.offset + 3] = frames_of(0o327770)
        at = block.offset + 3 * index
        damaged[at:at + 3] = frames_of(word)
        error = _error(bytes(damaged))
        assert isinstance(error, RecordTypeError) and error.offset == at and text in str(error)


def test_data_after_the_transfer_word_is_noted_not_read(rim_bytes: bytes) -> None:
    sound = read_tape(rim_bytes)
    tape = read_tape(rim_bytes + frames_of(0o320100) + frames_of(1))
    assert tape.memory == sound.memory and tape.start == 0o100
    assert any(note.startswith(f"frame {len(rim_bytes)} ") and "2 data words after the transfer word jmp 0100"
               in note for note in tape.notes)
    tape = read_tape(rim_bytes + b"\x07")
    assert "frame 007 punched without the 0200 hole" in tape.notes[0]


def test_damaged_loader(block_bytes: bytes) -> None:
    tape = read_tape(block_bytes)
    record = tape.loader[9]                        # 7762 add ck
    word_at = record.offset + 3 + 2
    damaged = bytearray(block_bytes)
    damaged[word_at] ^= 0o4
    error = _error(bytes(damaged))
    assert isinstance(error, LoaderError) and error.offset == record.offset
    assert "dio 7762 / 407772" in str(error) and "407776" in str(error)
    assert parse_tape(bytes(damaged)).memory == tape.memory


def test_empty_and_blank_tapes() -> None:
    for data in (b"", bytes(300)):
        error = _error(data)
        assert isinstance(error, MissingStartError) and error.offset == len(data)


def test_tape_object_is_plain_data(block_bytes: bytes) -> None:
    tape = read_tape(block_bytes)
    assert isinstance(tape, Tape) and tape.ok
    assert tape.word_count() == sum(len(b.words) for b in tape.blocks) == len(tape.memory)
    assert set(tape.core()) == set(tape.memory) | set(range(0o7751, 0o7776))
