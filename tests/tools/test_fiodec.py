"""tools.fiodec: the FIO-DEC character set, checked against the two programs that use it.

The expectations come from the machines, not from this module: macro1's ``text``
pseudo-op (what it assembles for a string) and SIMH's typewriter (what it prints for
codes).  A plain table check would only compare the module with itself.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tools import fiodec
from tools.macro import assemble


def test_named_codes() -> None:
    assert (fiodec.LOWER_CASE, fiodec.UPPER_CASE) == (0o72, 0o74)
    assert (fiodec.CARRIAGE_RETURN, fiodec.BACKSPACE, fiodec.TAB) == (0o77, 0o75, 0o36)
    assert (fiodec.BLACK, fiodec.RED, fiodec.SPACE) == (0o34, 0o35, 0)


def test_letters_digits_and_shifts() -> None:
    assert fiodec.encode("a") == [0o61]
    assert fiodec.encode("A") == [0o74, 0o61]
    assert fiodec.encode("aBc") == [0o61, 0o74, 0o62, 0o72, 0o63]
    assert fiodec.encode("0123456789") == [0o20, 1, 2, 3, 4, 5, 6, 7, 0o10, 0o11]
    # characters meaning the same in both cases never force a shift
    assert fiodec.encode("A B") == [0o74, 0o61, 0, 0o62]
    assert fiodec.encode("A\tB\n") == [0o74, 0o61, 0o36, 0o62, 0o77]
    assert fiodec.encode("A", end_lower=True) == [0o74, 0o61, 0o72]
    assert fiodec.encode("a", case=fiodec.Case.UPPER) == [0o72, 0o61]


def test_same_code_two_characters() -> None:
    """021 is "/" in lower case and "?" in upper case: the shift decides."""
    assert fiodec.encode("/?") == [0o21, 0o74, 0o21]
    assert fiodec.decode([0o21, 0o74, 0o21, 0o72, 0o21]) == "/?/"


def test_unknown_characters() -> None:
    with pytest.raises(ValueError):
        fiodec.encode("{")
    assert fiodec.encode("a;b", errors="ignore") == [0o61, 0o62]


def test_decode_tracks_case_and_ignores_silent_codes() -> None:
    codes = [0o74, 0o70, 0o72, 0o65, 0o43, 0o43, 0o46, 0o34, 0o35, 0o13, 0o77]
    assert fiodec.decode(codes) == "Hello\n"
    typewriter = fiodec.Typewriter()
    assert typewriter.feed(0o74) == ""
    assert typewriter.feed(0o61) == "A"
    assert typewriter.feed(0o161) == "A"        # only the low six bits count
    assert typewriter.case is fiodec.Case.UPPER


def test_round_trip_every_character() -> None:
    text = "".join(sorted(c for c in fiodec.CHARACTERS if c not in "\r\x7f"))
    assert fiodec.decode(fiodec.encode(text)) == text.replace("\b", "\b")


def test_keyboard() -> None:
    """SIMH's console: shared case state, CR is 077, LF and unknown keys vanish."""
    codes, case = fiodec.keyboard("Ab;c\r\n")
    assert codes == [0o74, 0o61, 0o72, 0o62, 0o63, 0o77] and case is fiodec.Case.LOWER
    codes, case = fiodec.keyboard("B", case=fiodec.Case.UPPER)
    assert codes == [0o62] and case is fiodec.Case.UPPER
    assert fiodec.keyboard("x\x7f")[0] == [0o27, 0o75]


def test_pack() -> None:
    assert fiodec.pack([0o61, 0o62, 0o63, 0o64]) == [0o616263, 0o640000]


def _macro1_words(source: str, tmp_path: Path) -> list[int]:
    """The data words of the pure-RIM tape the real macro1 punches for ``source``."""
    (tmp_path / "t.mac").write_text(source, encoding="latin-1")
    subprocess.run(["/usr/bin/macro1", "-r", "t.mac"], cwd=tmp_path, capture_output=True,
                   timeout=30, check=True)
    frames = [b & 0o77 for b in (tmp_path / "t.rim").read_bytes() if b & 0o200]
    words = [(a << 12) | (b << 6) | c for a, b, c in zip(frames[::3], frames[1::3], frames[2::3], strict=True)]
    return words[1:-1:2]          # dio addr, word, ..., jmp start


def test_encode_matches_macro1_text(tmp_path: Path) -> None:
    """macro1 packs ``text`` strings with exactly these codes."""
    sample = "Hello, World (1962) -x.y+z=*'\"?! A_b|c[d]e~f^g<h>i#j&k@l\\m`n\tBS\b"
    words = _macro1_words("title\n100/\ttext /" + sample + "/\n\tstart 100\n", tmp_path)
    assert words == fiodec.pack(fiodec.encode(sample, end_lower=True))


def test_newline_in_text_is_carriage_return(tmp_path: Path) -> None:
    words = _macro1_words("title\n100/\ttext /a\nB/\n\tstart 100\n", tmp_path)
    assert words == fiodec.pack(fiodec.encode("a\nB", end_lower=True))


def test_decode_matches_simh_typewriter(tmp_path: Path) -> None:
    """Type every code in both cases on SIMH's console; the text must be decode()'s."""
    codes = [c for c in range(64) if c not in (0o72, 0o74)]
    stream = codes + [0o74] + codes + [0o72, 0o61, 0o77]
    source = ["typewriter test", "100/", "go,\tlaw tab", "\tdap pick",
              "next,\tlac done", "\tsad pick", "\thlt", "pick,\tlio .",
              "\ttyo", "\tidx pick", "\tjmp next", "done,\tlio tab+%o" % len(stream),
              "tab,"] + ["\t%o" % c for c in stream] + ["\tstart go"]
    program = assemble("\n".join(source) + "\n")
    assert program.ok, program.messages
    (tmp_path / "t.rim").write_bytes(program.tape or b"")
    (tmp_path / "t.ini").write_text("set cpu 4k\nload -b t.rim\ngo\nquit\n")
    run = subprocess.run(["/usr/bin/pdp1", "t.ini"], cwd=tmp_path, capture_output=True,
                         stdin=subprocess.DEVNULL, timeout=60)
    # The simulator's own messages are buffered and may come out after the
    # typewriter's characters: take them out wherever they are.
    out = run.stdout.decode("latin-1")
    out = re.sub(r"\nPDP-1 simulator V[^\n]*\n|\nHALT instruction[^\n]*\n|Goodbye\n", "", out)
    assert out.replace("\r\n", "\n") == fiodec.decode(stream)
