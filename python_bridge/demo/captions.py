"""The presenter's captions: a small text format the presenter edits, filled in as the game goes.

Why a script and not fixed text: the show is put on for different audiences,
so what the host says between the PDP-1's moves belongs to the presenter.
The host (not the PDP-1) prints a caption at a few moments of the game; the
format is one caption a line::

    # a comment
    on think: {Player} looks {depth} half-moves ahead: {positions} positions.
    on capture: Capture! {Player} takes {captured} seeds.

The moments, the placeholders and the rules are in ``MOMENTS``,
``PLACEHOLDERS`` and the header of the default script
(``python_bridge/demo/script.txt``).  A script is checked when it is read:
an unknown moment or placeholder is an error naming the line.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from tools.user_files import UserFileError, read_user_text

DEFAULT_SCRIPT = Path(__file__).with_name("script.txt")

MOMENTS = ("start", "think", "visitor", "move", "capture", "again", "swap", "end")
PLACEHOLDERS = frozenset({
    "pits", "seeds", "level", "search", "move", "south", "north", "bottom", "Bottom", "top", "Top",  # always
    "player", "Player",  # who is thinking or has moved
    "depth", "positions", "seconds", "instructions", "cycles",  # the PDP-1's thinking
    "pit", "sown", "captured",  # a move
    "winner", "Winner", "score", "result", "moves", "thinking",  # the end
})
SILENCE = "-"  # a caption that says nothing: its turn passes in silence
_LINE = re.compile(r"on\s+(\w+)(?:\s+(\d+))?\s*:\s*(.*\S)\s*")


class ScriptError(ValueError):
    """A caption script that cannot be used; the message names the file and line."""


@dataclass
class CaptionScript:
    """Captions by moment (``"move 3"`` for one move), each moment's captions used in turn."""

    captions: dict[str, list[str]] = field(default_factory=dict)
    _turns: dict[str, int] = field(default_factory=dict, init=False)

    @classmethod
    def parse(cls, text: str, source: str = "script") -> "CaptionScript":
        script = cls()
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            where = f"{source}:{number}"
            match = _LINE.fullmatch(line)
            if not match:
                raise ScriptError(f"{where}: expected 'on <moment>: <caption>', got {line!r}")
            moment, count, caption = match.groups()
            if moment not in MOMENTS:
                raise ScriptError(f"{where}: unknown moment {moment!r} (known: {', '.join(MOMENTS)})")
            if count is not None and moment != "move":
                raise ScriptError(f"{where}: only 'move' takes a number ('on move 3: ...')")
            if count is not None and int(count) < 1:
                raise ScriptError(f"{where}: moves are counted from 1")
            _check_placeholders(caption, where)
            key = f"move {int(count)}" if count is not None else moment
            script.captions.setdefault(key, []).append(caption)
        return script

    @classmethod
    def load(cls, path: Path) -> "CaptionScript":
        try:
            text = read_user_text(path, what="caption script")
        except UserFileError as exc:
            raise ScriptError(str(exc)) from None
        return cls.parse(text, str(path))

    def caption(self, moments: list[str], values: dict[str, object]) -> str | None:
        """The next caption of the first of ``moments`` the script has, filled in; None if none.

        A caption needing a value this moment does not have is skipped, and
        so is ``-`` (the presenter's silence); either way its turn is used
        up, so the next caption comes next time.
        """
        for moment in moments:
            lines = self.captions.get(moment)
            if not lines:
                continue
            turn = self._turns.get(moment, 0)
            self._turns[moment] = turn + 1
            caption = lines[turn % len(lines)]
            if caption == SILENCE:
                return None
            try:
                return caption.format(**values)
            except (KeyError, IndexError, ValueError):
                return None
        return None


def _check_placeholders(caption: str, where: str) -> None:
    try:
        fields = [name for _, name, _, _ in string.Formatter().parse(caption) if name is not None]
    except ValueError as exc:
        raise ScriptError(f"{where}: {exc} (write {{{{ and }}}} for braces)") from exc
    for name in fields:
        if name not in PLACEHOLDERS:
            raise ScriptError(f"{where}: unknown placeholder {{{name}}} (known: "
                              f"{', '.join('{' + p + '}' for p in sorted(PLACEHOLDERS))})")


def after_move_moments(move_number: int, captured: int, again: bool, swap: bool) -> list[str]:
    """Which moments a move answers to, most particular first: one caption at most is shown."""
    moments = [f"move {move_number}"]
    if swap:
        moments.append("swap")
    elif captured:
        moments.append("capture")
    elif again:
        moments.append("again")
    moments.append("move")
    return moments
