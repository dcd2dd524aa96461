"""The typewriter paper as a picture: the transcript in SVG, on the Soroban's red and black ribbon.

Why SVG: a monospaced picture with its text kept as text (every line one
``<text>`` element), so it needs no imaging library and its words can be
checked against the transcript exactly (``svg_text``).

The PDP-1's console typewriter (a Soroban-modified IBM electric) had a
two-colour ribbon, switched by the FIO-DEC colour-shift codes.  The Kalah
program never sends them, so the colours are the host's, given by player:
South and the visitor in black, North and the PDP-1 (against a visitor) in
red -- a move line in its player's colour, each board row and its pit numbers
in the colour of the player it belongs to (the store line split between the
two), everything else black.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import escape

BLACK = "#1d1b19"
RED = "#b3261e"
PAPER = "#fbf7ea"
RIBBON = {"south": BLACK, "you": BLACK, "north": RED, "pdp-1": RED}

FONT_SIZE = 14
CHAR_WIDTH = 8.4  # a monospaced font's advance at 14 px (0.6 em)
LINE_HEIGHT = 18
MARGIN_X, MARGIN_Y = 36, 32

_TOP = re.compile(r" (pdp-1|north|south|you)(?:  ?\d{1,2})+")
_STORES = re.compile(r"( +\d{1,2})( +\d{1,2})")
_BOTTOM = re.compile(r" +(?:\d{1,2} +)+(pdp-1|north|south|you)")
_NUMBERS = re.compile(r" +(?:\d +)*\d")  # a row's pit numbers, over the top row or under the bottom one
_MOVER = re.compile(r"(pdp-1|you|south|north) (?:plays? \d|swaps?\.)")
_PROMPT = re.compile(r"your move")

Segment = tuple[str, str]  # (text, colour)


def ribbon_segments(lines: list[str]) -> list[list[Segment]]:
    """Each line cut into runs of one colour (by the player each part belongs to)."""
    coloured: list[list[Segment]] = []
    top: str | None = None  # the board's top player while its store line is due
    for line in lines:
        segments: list[Segment] = [(line, BLACK)]
        top_row, mover = _TOP.fullmatch(line), _MOVER.match(line)
        if top_row:
            top = top_row.group(1)
            segments = [(line, RIBBON[top])]
            if coloured and len(coloured[-1]) == 1 and _NUMBERS.fullmatch(coloured[-1][0][0]):
                coloured[-1] = [(coloured[-1][0][0], RIBBON[top])]  # its pit numbers, just above
        elif top is not None and top.startswith("numbers ") and _NUMBERS.fullmatch(line):
            # before the stores' test: with two pits the numbers under the bottom row look like two stores
            segments = [(line, RIBBON[top.split()[1]])]
            top = None
        elif top in RIBBON and _STORES.fullmatch(line):
            stores = _STORES.fullmatch(line)
            assert stores is not None
            segments = [(stores.group(1), RIBBON[top]), (stores.group(2), BLACK)]
            top = "bottom"  # the right-hand store is the bottom player's: coloured with its row
        elif top == "bottom" and _BOTTOM.fullmatch(line):
            bottom = _BOTTOM.fullmatch(line)
            assert bottom is not None
            colour = RIBBON[bottom.group(1)]
            segments = [(line, colour)]
            previous = coloured[-1]
            coloured[-1] = [previous[0], (previous[1][0], colour)]
            top = "numbers " + bottom.group(1)  # the pit numbers under it follow
        elif mover:
            segments = [(line, RIBBON[mover.group(1)])]
            top = None
        elif _PROMPT.match(line):
            segments = [(line, RIBBON["you"])]
            top = None
        else:
            top = None
        coloured.append([s for s in segments if s[0]] or [("", BLACK)])
    return coloured


def paper_svg(transcript: str, title: str = "Kalah on the PDP-1: the typewriter paper") -> str:
    """The transcript (as the text file holds it) as an SVG picture of the typewriter paper."""
    lines = transcript.split("\n")
    width = int(2 * MARGIN_X + CHAR_WIDTH * max(40, max(len(line) for line in lines)))
    height = int(2 * MARGIN_Y + LINE_HEIGHT * len(lines))
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
        f'<line x1="{MARGIN_X - 14}" y1="0" x2="{MARGIN_X - 14}" y2="{height}" stroke="#e3d9bd" stroke-width="1"/>',
        # (spaces kept by each line's xml:space, not a style attribute, which a page's strict policy would refuse)
        f'<g font-family="Courier New, Courier, Nimbus Mono PS, Liberation Mono, monospace" font-size="{FONT_SIZE}">',
    ]
    for number, segments in enumerate(ribbon_segments(lines)):
        y = MARGIN_Y + LINE_HEIGHT * (number + 1) - 4
        spans = "".join(f'<tspan fill="{colour}">{escape(text, quote=False)}</tspan>' for text, colour in segments)
        out.append(f'<text x="{MARGIN_X}" y="{y}" xml:space="preserve">{spans}</text>')
    out += ["</g>", "</svg>", ""]
    return "\n".join(out)


def svg_text(svg: str) -> str:
    """The text a paper picture shows, line by line: what a reader of the picture reads."""
    root = ET.fromstring(svg)
    texts = root.iter("{http://www.w3.org/2000/svg}text")
    return "\n".join("".join(element.itertext()) for element in texts)


def svg_colours(svg: str) -> list[list[Segment]]:
    """The picture's lines as (text, colour) runs, for checking the ribbon."""
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    return [[(span.text or "", span.get("fill", "")) for span in text.iter(ns + "tspan")]
            for text in root.iter(ns + "text")]
