"""The demonstration's parts without an emulator: captions, the paper picture, the tape drawing, the pacer."""

from __future__ import annotations

import pytest

from python_bridge.demo.captions import DEFAULT_SCRIPT, CaptionScript, ScriptError, after_move_moments
from python_bridge.demo.pacing import Pacer
from python_bridge.demo.paper import BLACK, RED, paper_svg, ribbon_segments, svg_colours, svg_text
from python_bridge.demo.tape_picture import ReadInDisplay, tape_records, tape_strip
from tools.papertape import read_tape, write_block_tape

VALUES = {"pits": 4, "seeds": 3, "level": 13, "search": "13 plies", "move": 2, "south": 1, "north": 0,
          "bottom": "south", "Bottom": "South", "top": "north", "Top": "North"}


def test_the_default_script_reads_and_fills_every_moment() -> None:
    script = CaptionScript.load(DEFAULT_SCRIPT)
    assert {"start", "think", "capture", "again", "swap", "end", "move 1"} <= script.captions.keys()
    full = {**VALUES, "player": "south", "Player": "South", "depth": 13, "positions": "4,211", "seconds": "3.2",
            "instructions": "640,000", "pit": 3, "sown": 3, "captured": 4, "winner": "south", "Winner": "South",
            "score": "15 to 9", "result": "south wins 15 to 9", "moves": 16, "thinking": "35.2"}
    for moment in script.captions:
        for _ in script.captions[moment]:
            script.caption([moment], full)  # none raises


def test_captions_take_turns_skip_silence_and_missing_values() -> None:
    script = CaptionScript.parse("on think: one {depth}\non think: -\non think: three {seconds}\n")
    assert script.caption(["think"], {**VALUES, "depth": 5}) == "one 5"
    assert script.caption(["think"], VALUES) is None  # the presenter's silence
    assert script.caption(["think"], VALUES) is None  # {seconds} has no value here: skipped
    assert script.caption(["think"], {**VALUES, "depth": 6}) == "one 6"


def test_after_a_move_the_most_particular_moment_speaks() -> None:
    script = CaptionScript.parse("on move: any\non capture: took {captured}\non move 3: third\n")
    assert script.caption(after_move_moments(3, 4, False, False), {**VALUES, "captured": 4}) == "third"
    assert script.caption(after_move_moments(4, 4, False, False), {**VALUES, "captured": 4}) == "took 4"
    assert script.caption(after_move_moments(5, 0, True, False), VALUES) == "any"
    assert script.caption(after_move_moments(1, 0, False, True), VALUES) == "any"


@pytest.mark.parametrize("text, message", [
    ("on lunch: x", "unknown moment"),
    ("think: x", "expected 'on <moment>: <caption>'"),
    ("on think: {nonsense}", "unknown placeholder {nonsense}"),
    ("on think: {player", "braces"),
    ("on capture 3: x", "only 'move' takes a number"),
    ("on move 0: x", "counted from 1"),
])
def test_a_bad_script_names_its_line(text: str, message: str) -> None:
    with pytest.raises(ScriptError) as error:
        CaptionScript.parse("# comment\n\n" + text, "captions.txt")
    assert str(error.value).startswith("captions.txt:3: ") and message in str(error.value)


PAPER = """
kalah for the pdp-1
4 pits, 3 seeds, level 13.
the pdp-1 plays both sides.

        4  3  2  1
 north  3  3  3  3
     0              0
        3  3  3  3  south
        1  2  3  4
south plays 2, captures 4.
north swaps.
pdp-1 plays 1, moves again.
your move? 3
you play 3.
odd <text> & "quotes"
type any key for a new game."""


def test_the_paper_picture_says_what_the_transcript_says() -> None:
    svg = paper_svg(PAPER)
    assert svg_text(svg) == PAPER  # markup characters, blank lines, leading spaces and all


def test_the_ribbon_follows_the_players() -> None:
    lines = svg_colours(paper_svg(PAPER))
    by_text = {"".join(t for t, _ in line): [c for _, c in line] for line in lines}
    assert by_text[" north  3  3  3  3"] == [RED]
    assert by_text["     0              0"] == [RED, BLACK]  # North's store left, South's right
    assert by_text["        3  3  3  3  south"] == [BLACK]
    assert by_text["        4  3  2  1"] == [RED] and by_text["        1  2  3  4"] == [BLACK]  # pit numbers
    assert by_text["south plays 2, captures 4."] == [BLACK]
    assert by_text["north swaps."] == [RED]
    assert by_text["pdp-1 plays 1, moves again."] == [RED]
    assert by_text["your move? 3"] == [BLACK] and by_text["you play 3."] == [BLACK]
    assert by_text["kalah for the pdp-1"] == [BLACK]
    assert ribbon_segments([" pdp-1  1  0", "     2        7", "        0  5  you"])[1] == \
        [("     2", RED), ("        7", BLACK)]


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


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_the_typewriter_types_ten_characters_a_second() -> None:
    clock = Clock()
    pacer = Pacer(True, lambda: clock.now, clock.sleep)
    times = []
    for _ in range(5):
        pacer.character()
        times.append(clock.now)
    assert times == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    clock.now = 10.0  # the machine was busy: the next character comes when it is typed
    pacer.character()
    assert clock.now == 10.0
    pacer.run_for(clock.now, 400_000)  # two seconds of 1960 time
    assert clock.now == pytest.approx(12.0)
    fast = Pacer(False, lambda: clock.now, clock.sleep)
    fast.character()
    fast.run_for(0.0, 10**9)
    assert clock.now == pytest.approx(12.0)
