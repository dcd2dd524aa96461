"""Diagnostics: reported exactly as macro1 reports them, and never a Python traceback.

Why: an assembler is mostly run on programs with mistakes in them.  macro1's messages
(``file:line:col : error:  ...``), its listing notes, its exit status and the rule that
a program with errors gets no tape are part of what must match.  Each diagnostic macro1
has is provoked here and compared with the real macro1 (expectations are never written
by hand).  Then the Python assembler alone is fed seeded garbage, to show that no input
makes it raise.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tools.macro import assemble
from tools.macro.cli import main

MACRO1 = "/usr/bin/macro1"
ROOT = Path(__file__).resolve().parents[2]

# One source per diagnostic (and a few combinations), each a title line and a body.
DIAGNOSTICS = {
    "undefined": "\tlac nowhere\n\tjmp .+nowhere\n",
    "duplicate_label": "a,\t1\na,\t2\n4,\t3\n",
    "redefined": "a,\t1\na=5\n\tlac=7\nb,\t0\n",
    "illegal_character": "\tlac ;\n\tlac [1\n\tchar q\n\tflexo {\n",
    "illegal_expression": "\tlac a b)c\n\tlac 1 %\n",
    "label_syntax": "(,\t1\n\t1a,\t2\n",
    "numeric": "\tlac 19\n\tlac 1\\2\n\tdecimal\n\tlac 9a9\n",
    "symbol_syntax": "5=3\n",
    "illegal_equals": "\tlac a=3\n\t=4\n",
    "value_required": "\tlac start\n\tdecimal+octal\n\trepeat octal, 1\n",
    "misplaced_macro": "define m\n\t1\nterm\n\tlac m\n",
    "macro_names": "define\n\ndefine (x\n\t1\nterm\ndefine n a,b,\n\tterm\n",
    "define_in_repeat": "\trepeat 2, define q\n\t1\nterm\n",
    "many_errors_one_line": "\t" + "+".join(["zz"] * 30) + "\n",
    "error_under_tabs": "\t\tlac\tbad\tx\t\tq\n",
    "tape_removed": "\tlac undefined\n\tstart 4\n",
}


def run_both(tmp_path: Path, source: bytes, options: list[str]) -> tuple[list, list]:
    """Assemble with macro1 and with tools.macro; everything observable from each."""
    results = []
    for who in ("c", "py"):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "e.mac").write_bytes(source)
        if who == "c":
            done = subprocess.run(["macro1", *options, "e.mac"], executable=MACRO1, cwd=folder,
                                  capture_output=True, timeout=30)
            code, err = done.returncode, done.stderr
        else:
            buffer = io.BytesIO()
            wrapper = io.TextIOWrapper(buffer, encoding="latin-1")
            with contextlib.chdir(folder), contextlib.redirect_stderr(wrapper):
                code = main([*options, "e.mac"])
            wrapper.flush()
            err = buffer.getvalue()
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "e.mac"}
        results.append([code, err, files])
    return results[0], results[1]


@pytest.mark.parametrize("name", sorted(DIAGNOSTICS))
def test_diagnostic_matches_macro1(name: str, tmp_path: Path) -> None:
    source = ("/ " + name + "\n" + DIAGNOSTICS[name]).encode()
    expected, actual = run_both(tmp_path, source, ["-dx"])
    assert expected[0] == 1, "the source should provoke an error"
    if actual != expected:  # macro1's listing is not always repeatable (tests/tools/asm_expected.py): ask again
        (tmp_path / "again").mkdir()
        expected = run_both(tmp_path / "again", source, ["-dx"])[0]
    assert actual == expected
    assert "e.rim" not in actual[2] and "e.lst" in actual[2]


def test_message_format() -> None:
    program = assemble("t\n\tlac nowhere\n", name="prog.mac")
    (error,) = program.errors
    assert error.text == 'prog.mac:2:6      : error:  undefined symbol "nowher" at Loc = 00004'
    assert "UD undefined            \t    ^\n" in program.listing
    assert program.messages.endswith("\n      1 detected error\n")


def test_command_line_errors(tmp_path: Path) -> None:
    """Bad switches and missing files: macro1's words and exit statuses."""
    (tmp_path / "ok.mac").write_text("t\n\tstart 4\n")
    cases = [["-q", "ok.mac"], [], ["-d"], ["missing.mac"], ["ok.mac", "missing.mac"],
             ["-S", "missing.sym", "ok.mac"], ["-S", "ok.mac", "ok.mac"]]
    for args in cases:
        c_dir, py_dir = tmp_path / "c", tmp_path / "py"
        for folder in (c_dir, py_dir):
            folder.mkdir()
            (folder / "ok.mac").write_text("t\n\tstart 4\n")
        done = subprocess.run(["macro1", *args], executable=MACRO1, cwd=c_dir,
                              capture_output=True, timeout=30)
        buffer = io.BytesIO()
        wrapper = io.TextIOWrapper(buffer, encoding="latin-1")
        with contextlib.chdir(py_dir), contextlib.redirect_stderr(wrapper):
            code = main(args)
        wrapper.flush()
        assert (code, buffer.getvalue()) == (done.returncode, done.stderr), args
        assert sorted(p.name for p in py_dir.iterdir()) == sorted(p.name for p in c_dir.iterdir())
        for folder in (c_dir, py_dir):
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()


def test_macro_help_is_its_usage_and_unknown_flags_stay_macro1s(tmp_path: Path) -> None:
    ours = subprocess.run([sys.executable, "-m", "tools.macro", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert ours.returncode == 0 and ours.stdout.startswith("usage: python -m tools.macro") and ours.stderr == ""
    for flags in (["-q", "x.mac"], ["-h"], []):
        mine = subprocess.run([sys.executable, "-m", "tools.macro", *flags], cwd=ROOT, capture_output=True,
                              timeout=60)
        real = subprocess.run(["/usr/bin/macro1", *flags], cwd=tmp_path, capture_output=True, timeout=60)
        assert mine.returncode == real.returncode == 255
        assert mine.stderr == real.stderr.replace(b"/usr/bin/macro1", b"macro1")


ALPHABET = (b"\t\t\t\n\n\n   ,,==//++--(())[]\\~..abcxyzRiljmp0123456789!&*:;\"'?"
            b"\r\f\x00\x7f\xe9\xff")
WORDS = [b"lac", b"define", b"term", b"repeat", b"text", b"flexo", b"char", b"start",
         b"constants", b"variables", b"decimal", b"octal", b"noinput", b"expunge", b"i",
         b"100/", b"a,", b"x=", b"(", b"law", b"R", b"m"]


def garbage(rng: random.Random) -> bytes:
    out = bytearray(b"title\n")
    for _ in range(rng.randint(0, 60)):
        if rng.random() < 0.3:
            out += rng.choice(WORDS) + rng.choice([b" ", b"\t", b"\n", b""])
        elif rng.random() < 0.05:
            out += bytes(rng.randrange(256) for _ in range(rng.randint(1, 120)))
        else:
            out.append(rng.choice(ALPHABET))
    return bytes(out)


def test_no_input_makes_it_raise() -> None:
    rng = random.Random(1962)
    for case in range(400):
        source = garbage(rng)
        options = {key: rng.random() < 0.3 for key in ("symbol_table", "macro_expansions",
                                                        "rim", "cross_reference",
                                                        "symbol_punch", "permanent_symbols")}
        program = assemble(source, **options)           # must not raise
        assert program.ok == (not program.errors and program.fatal is None)
        assert (program.tape is None) == (not program.ok), case


def test_command_line_never_raises(tmp_path: Path) -> None:
    rng = random.Random(7)
    for case in range(40):
        path = tmp_path / f"g{case}.mac"
        path.write_bytes(garbage(rng))
        with contextlib.redirect_stderr(io.StringIO()):
            assert main(["-dxms", str(path)]) in (0, 1)


def test_unwritable_output_is_a_message(tmp_path: Path) -> None:
    (tmp_path / "p.mac").write_text("t\n\tstart 4\n")
    (tmp_path / "plain").write_text("a file, not a folder")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["-o", str(tmp_path / "plain" / "out"), str(tmp_path / "p.mac")]) == 1
    assert "Not a directory" in err.getvalue()
