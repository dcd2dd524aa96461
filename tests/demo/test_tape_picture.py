"""The demonstration's tape drawing (``demo.tape_picture``): the holes are the tape's bytes."""

from __future__ import annotations

from python_bridge.demo.tape_picture import ReadInDisplay, tape_records, tape_strip
from tools.papertape import read_tape, write_block_tape


def test_the_tape_drawing_is_the_tape_bytes() -> None:
    data = write_block_tape({0o100 + i: i * 0o1001 for i in range(70)}, 0o100)
    tape = read_tape(data)
    strip = tape_strip(data, tape.leader - 2, 8)
    rows = strip[1:10]
    for column in range(8):  # each column is one frame: its bits, top to bottom channels 8..4, 3..1
        frame = data[tape.leader - 2 + column]
        holes = [row[3 + column] == "o" for row in rows if not row.endswith("feed")]
        assert holes == [bool(frame >> bit & 1) for bit in (7, 6, 5, 4, 3, 2, 1, 0)]
    shown: list[str] = []
    display = ReadInDisplay(tape_records(tape), shown.append)
    display.reader_at(tape.blocks[0].offset)  # leader and loader passed, the first block not yet read
    assert [line.split()[0] for line in shown] == ["leader", "loader"]
    display.reader_at(tape.blocks[1].offset + 3 * (len(tape.blocks[1].words) + 3))
    assert len(shown) == 4 and f"checksum {tape.blocks[1].checksum:06o}" in shown[-1]
    display.finish()
    assert shown[-1].split()[0] == "start" and len(shown) == 5
