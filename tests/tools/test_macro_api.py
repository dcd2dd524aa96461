"""tools.macro as a library: ``assemble(source) -> Program`` without files.

Why: tests and the SIMH bridge assemble sources in memory and look at words, symbols
and the start address directly.  These tests pin the API's shape and check that it
gives exactly what the command line writes (which the differential tests compare
with macro1).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.macro import Program, SymbolTapeError, assemble
from tools.macro.cli import main

SOURCE = """\
api test
100/
go,\tlac (5
\tadd (5
\tadd (7
\tdac sum
\tlac x\\
\tjmp go
sum,\t0
k=go+2
\tconstants
\tvariables
\tstart go
"""


def tape_words(tape: bytes) -> list[int]:
    frames = [b & 0o77 for b in tape if b & 0o200]
    return [(a << 12) | (b << 6) | c for a, b, c in zip(frames[::3], frames[1::3], frames[2::3], strict=True)]


def test_program_fields() -> None:
    program = assemble(SOURCE)
    assert isinstance(program, Program)
    assert program.ok and program.errors == [] and program.fatal is None
    assert program.title == "api test"
    assert program.start == 0o100
    assert program.symbols == {"go": 0o100, "sum": 0o106, "k": 0o102, "x": 0o112}
    # literals pooled: (5 twice is one word; constants at 107, variables after them
    assert program.words[0o100] == 0o200107
    assert program.words[0o101] == 0o400107
    assert program.words[0o102] == 0o400110
    assert program.words[0o107] == 5 and program.words[0o110] == 7
    assert program.word(0o104) == 0o200112 and program.word(0o7000) == 0
    assert "    3 00100 200107      go,\tlac (5\n" in program.listing
    assert program.listing.endswith("\n      No errors detected\n")
    assert program.messages == "api test - pass 1\napi test - pass 2\n"


def test_tape_is_what_the_command_line_writes(tmp_path: Path) -> None:
    (tmp_path / "prog.mac").write_text(SOURCE)
    for options, kwargs in (([], {}), (["-r"], {"rim": True}), (["-d", "-x"],
                            {"symbol_table": True, "cross_reference": True})):
        out = tmp_path / ("out" + "".join(options))
        assert main([*options, "-o", str(out), str(tmp_path / "prog.mac")]) == 0
        program = assemble(SOURCE, name="prog.mac", **kwargs)
        assert (out / "prog.rim").read_bytes() == program.tape
        assert (out / "prog.lst").read_text(encoding="latin-1") == program.listing


def test_block_tape_layout() -> None:
    tape = assemble(SOURCE).tape
    assert tape is not None
    assert tape[:240] == bytes(240)
    words = tape_words(tape)
    assert words[0] == 0o320000 + 0o7751 and words[1] == 0o730002    # loader, in RIM form
    assert words[42] == 0o607751                                     # jmp into the loader
    # one block, 100-110: the third literal slot (a pooled duplicate) and the
    # variable x are reserved but not punched
    assert words[43:45] == [0o320100, 0o320111]
    assert words[45:54] == [program_word for _, program_word in sorted(assemble(SOURCE).words.items())]
    assert sum(words[43:54]) % 0o777777 == words[54] % 0o777777      # ones'-complement checksum
    assert words[-1] == 0o600100                                     # jmp go


def test_rim_tape_holds_every_word() -> None:
    program = assemble(SOURCE, rim=True)
    words = tape_words(program.tape or b"")
    pairs = dict(zip((w & 0o7777 for w in words[0:-1:2]), words[1:-1:2], strict=True))
    assert pairs == program.words
    assert words[-1] == 0o600100


def test_several_files_are_one_source() -> None:
    program = assemble([("main.mac", "main\n100/\tjmp sub\n"),
                        ("sub.mac", "sub file\nsub,\tlac und\n\tstart 100\n")])
    assert program.symbols["sub"] == 0o101
    assert not program.ok and program.tape is None
    (error,) = program.errors
    assert (error.file, error.line, error.column, error.symbol) == ("main.mac", 4, 10, "und")
    assert error.text == 'main.mac:4:10     : error:  undefined symbol "und" at Loc = 00101'
    assert program.undefined == ["und"]


def test_options_symbol_table_xref_permanent() -> None:
    program = assemble(SOURCE, symbol_table=True, cross_reference=True, permanent_symbols=True)
    assert "Symbol Table" in program.listing and "Cross Reference" in program.listing
    assert " go     000100\n" in program.listing
    assert program.permanent_symbols is not None
    assert program.permanent_symbols.startswith("/ PERMANENT SYMBOL TABLE\n/\n        expunge\n")
    assert "\tlac=200000\n" in program.permanent_symbols


def test_symbol_tape_round_trip() -> None:
    first = assemble(SOURCE, symbol_punch=True)
    assert first.symbol_tape is not None
    second = assemble("user\n200/\tjmp go\n\tlac sum\n", symbol_tapes=[first.symbol_tape])
    assert second.ok, second.messages
    assert second.words == {0o200: 0o600100, 0o201: 0o200106}
    with pytest.raises(SymbolTapeError):
        assemble("x\n", symbol_tapes=[b"not a tape"])


def test_bytes_and_non_ascii_sources() -> None:
    assert assemble(SOURCE.encode()).words == assemble(SOURCE).words
    program = assemble("t\n\tlac é\n")             # two bytes in UTF-8
    assert not program.ok
    assert [(e.column, e.message) for e in program.errors] == [
        (6, "illegal character"), (7, "illegal expression")]


def test_fatal_conditions_are_reported_not_raised() -> None:
    source = "t\n" + "\tlac (1\n\tconstants\n" * 10 + "\tlac (2\n"
    program = assemble(source)
    assert not program.ok and program.tape is None
    assert program.fatal == "too many 'constants'; increase MAX_CONSTANTS"
    looping = assemble("t\n\ttext /a;b/\n")        # macro1 itself never finishes this one
    assert not looping.ok and "for ever" in (looping.fatal or "")


def test_command_line_default_output_beside_the_source(tmp_path: Path) -> None:
    sub = tmp_path / "src"
    sub.mkdir()
    (sub / "p.mac").write_text(SOURCE)
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert main(["src/p.mac"]) == 0
    finally:
        os.chdir(here)
    assert (sub / "p.rim").exists() and (sub / "p.lst").exists()
