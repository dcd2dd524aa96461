"""The typewriter paper: SIMH's console output rendered as the Flexowriter printed it.

SIMH prints FIO-DEC through ASCII, with ASCII stand-ins for the glyphs ASCII
lacks (``tools/fiodec.py`` lists them); the page shows the real glyphs.
Carriage return is CR LF on the console: one new line on the paper.  What no
FIO-DEC code prints (control characters) never reaches the paper.

The kiosk's screen has no keyboard, so the PDP-1's last line, "type any key
for a new game.", is left off the kiosk's paper: the kiosk answers it itself,
and a visitor must never be asked for a key.  While a line is being typed
that could still become that line, it is held back; it reaches the paper
as soon as it turns out to be another line.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.fiodec import LOWER, UPPER

# SIMH's ASCII stand-in -> the Flexowriter's glyph (codes as in tools/fiodec.py)
GLYPHS = {
    "~": "\u203e",   # upper 003, overline
    "#": "\u2283",   # upper 004, implies
    "!": "\u2228",   # upper 005, or
    "&": "\u2227",   # upper 006, and
    "^": "\u2191",   # upper 011, up arrow
    "`": "\u2192",   # upper 020, right arrow
    "@": "\u00b7",   # lower 040, centre dot
    "\\": "\u203e",  # lower 056, overbar
    "*": "\u00d7",   # upper 073, times
}
PRINTABLE = frozenset(LOWER.values()) | frozenset(UPPER.values())
PAPER_LIMIT = 64 * 1024  # characters of one game's paper kept (older lines scroll away)
ASKS_FOR_A_KEY = "type any key for a new game."  # the PDP-1's last line (pdp1_src/kalah.mac, manew)


def render(console: str) -> str:
    """Console text (as SIMH prints it) -> paper text (Flexowriter glyphs, ``\\n`` for a new line)."""
    out = []
    for char in console.replace("\r\n", "\n").replace("\r", ""):
        if char in GLYPHS:
            out.append(GLYPHS[char])
        elif char in PRINTABLE and char != "\b":
            out.append(char)
    return "".join(out)


@dataclass
class Paper:
    """One game's paper; ``base`` counts the characters that scrolled away, so offsets stay absolute."""

    text: str = ""
    base: int = 0
    held: str = ""  # the start of a line that may be ASKS_FOR_A_KEY: not on the paper (yet)

    @property
    def end(self) -> int:
        return self.base + len(self.text)

    def append(self, console: str) -> tuple[int, str]:
        """Add console output; return (offset where the new paper text starts, the text)."""
        at, text = self.end, self._leave_out_the_key_question(render(console))
        self.text += text
        if len(self.text) > PAPER_LIMIT:
            cut = len(self.text) - PAPER_LIMIT // 2
            self.text, self.base = self.text[cut:], self.base + cut
        return at, text

    def _leave_out_the_key_question(self, text: str) -> str:
        """``text`` without the line that asks for a key (held back while it may still become it)."""
        out: list[str] = []
        line_start = not self.text or self.text.endswith("\n")
        for char in text:
            if self.held or line_start:
                candidate = self.held + char
                if ASKS_FOR_A_KEY.startswith(candidate):
                    self.held = candidate
                    continue
                if candidate == ASKS_FOR_A_KEY + "\n":  # the whole line: left off the paper
                    self.held, line_start = "", True
                    continue
                out.append(self.held)  # another line after all: it goes on the paper
                self.held = ""
            out.append(char)
            line_start = char == "\n"
        return "".join(out)
