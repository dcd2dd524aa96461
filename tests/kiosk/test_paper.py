"""The kiosk's paper (``kiosk.paper``): Flexowriter glyphs, nothing unprintable, a bounded length."""

from __future__ import annotations

from python_bridge.kiosk.paper import Paper, render


def test_the_paper_shows_flexowriter_glyphs_and_nothing_unprintable() -> None:
    assert render("kalah for the pdp-1\r\nyour move? 3\r\n") == "kalah for the pdp-1\nyour move? 3\n"
    assert render("a@b*c~d#e!f&g^h`i\\j") == "a\u00b7b\u00d7c\u203ed\u2283e\u2228f\u2227g\u2191h\u2192i\u203ej"
    assert render("x\x07\x00\by;$") == "xy"  # no FIO-DEC code prints these
    paper = Paper()
    assert paper.append("ab\r\n") == (0, "ab\n") and paper.append("c") == (3, "c")
    paper.append("z" * 70_000)
    assert paper.end == 70_004 and len(paper.text) < 70_000 and paper.base > 0
