"""The kiosk's paper (``exhibit.paper``): Flexowriter glyphs, nothing unprintable, a bounded length."""

from __future__ import annotations

from python_bridge.exhibit.paper import Paper, render


def test_the_paper_shows_flexowriter_glyphs_and_nothing_unprintable() -> None:
    assert render("kalah for the pdp-1\r\nyour move? 3\r\n") == "kalah for the pdp-1\nyour move? 3\n"
    assert render("a@b*c~d#e!f&g^h`i\\j") == "a\u00b7b\u00d7c\u203ed\u2283e\u2228f\u2227g\u2191h\u2192i\u203ej"
    assert render("x\x07\x00\by;$") == "xy"  # no FIO-DEC code prints these
    paper = Paper()
    assert paper.append("ab\r\n") == (0, "ab\n") and paper.append("c") == (3, "c")
    paper.append("z" * 70_000)
    assert paper.end == 70_004 and len(paper.text) < 70_000 and paper.base > 0


def test_the_kiosks_paper_never_asks_for_a_key() -> None:
    """The PDP-1's "type any key for a new game." is left off (the screen has no keyboard), typed at once
    or a character at a time as the paced typewriter does; a line that only starts like it is kept."""
    end = "game over.\r\npdp-1 25, you 23.\r\npdp-1 wins.\r\ntype any key for a new game.\r\n"
    whole = Paper()
    whole.append("type a pit number.\r\n")
    whole.append(end)
    paced = Paper()
    for char in "type a pit number.\r\n" + end:
        paced.append(char)
    for paper in (whole, paced):
        assert paper.text == "type a pit number.\ngame over.\npdp-1 25, you 23.\npdp-1 wins.\n"
        assert paper.end == len(paper.text)
    waiting = Paper()
    assert waiting.append("pdp-1 wins.\r\ntype any key") == (0, "pdp-1 wins.\n")  # held while it may become it
    assert waiting.append(" for a new game.\r\n") == (12, "")
