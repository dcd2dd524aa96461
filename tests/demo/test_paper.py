"""The demonstration's paper picture (``demo.paper``): the transcript's text and the ribbon's colours."""

from __future__ import annotations

from python_bridge.demo.paper import BLACK, RED, paper_svg, ribbon_segments, svg_colours, svg_text

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


TWO_PITS = """
        2  1
 pdp-1  1  1
     0        0
        1  1  you
        1  2
your move? 1"""


def test_two_pits_colour_the_pit_numbers_not_as_stores() -> None:
    """With two pits a side the numbers under the bottom row look like a store line: still numbers."""
    lines = TWO_PITS.split("\n")
    coloured = ribbon_segments(lines)
    assert coloured[1] == [(lines[1], RED)] and coloured[2] == [(lines[2], RED)]  # the PDP-1's numbers and row
    assert coloured[3] == [("     0", RED), ("        0", BLACK)]
    assert coloured[4] == [(lines[4], BLACK)] and coloured[5] == [(lines[5], BLACK)]  # the visitor's row, numbers


def test_a_two_pit_show_finishes_and_saves_its_files(kalah_tape, tmp_path) -> None:
    """``demo --pits 2`` (and so any two-pit visitor game of ``play --authentic``) plays to the end and
    leaves its transcript, paper and record."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "python_bridge", "demo", "--fast", "--no-captions", "--pits", "2",
                           "--seeds", "1", "--records", str(tmp_path)], cwd=root, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout[-2000:] + done.stderr
    assert len(list(tmp_path.glob("demo-*-paper.svg"))) == 1 and len(list(tmp_path.glob("demo-*-record.txt"))) == 1
