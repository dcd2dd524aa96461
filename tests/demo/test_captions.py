"""The demonstration's captions (``demo.captions``): the script, its turns, its moments, its errors."""

from __future__ import annotations

import pytest

from python_bridge.demo.captions import DEFAULT_SCRIPT, CaptionScript, ScriptError, after_move_moments

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
