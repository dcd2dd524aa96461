"""The disassembler against the real macro1: every one of the 2^18 words must assemble
back to itself, and macro1's own permanent symbols must come out by name."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.tools.tape_support import assemble
from tools.disasm import disassemble
from tools.papertape import read_tape

BANK = 0o10000


def test_every_word_round_trips_through_macro1(tmp_path: Path) -> None:
    # 64 banks of 4096 words, each assembled at 0000-7777 on one RIM tape; the RIM
    # records come back in punch order, one per word.
    lines = ["/ every 18-bit word, disassembled"]
    for bank in range(0, 1 << 18, BANK):
        lines.append("0/")
        lines += [f"\t{disassemble(word)}" for word in range(bank, bank + BANK)]
    lines.append("\tstart 0")
    tape = read_tape(assemble("\n".join(lines) + "\n", tmp_path, "all", rim=True).read_bytes())
    assembled = [record.word for record in tape.records]
    assert len(assembled) == 1 << 18
    wrong = [(f"{w:06o}", disassemble(w), f"{a:06o}")
             for w, a in zip(range(1 << 18), assembled, strict=True) if w != a]
    assert not wrong, f"{len(wrong)} words do not round-trip, e.g. {wrong[:10]}"


@pytest.mark.parametrize(("word", "text"), [
    (0o200123, "lac 123"), (0o210123, "lac i 123"), (0o600100, "jmp 100"),
    (0o540017, "mul 17"), (0o560000, "div 0"), (0o160123, "cal 123"), (0o170123, "jda 123"),
    (0o700005, "law 5"), (0o710005, "law i 5"),
    (0o640100, "sza"), (0o650100, "sza i"), (0o640500, "sza!sma"), (0o650500, "sza i!sma"),
    (0o640020, "szs 20"), (0o650020, "szs i 20"), (0o640003, "szf 3"), (0o650001, "szf i 1"),
    (0o650023, "szs i 20!szf 3"), (0o641000, "szo"), (0o642000, "spi"), (0o640000, "skp"),
    (0o650000, "skp i"),
    (0o760000, "nop"), (0o760200, "cla"), (0o761200, "clc"), (0o762200, "lat"),
    (0o763200, "lat!cma"), (0o764200, "cla!cli"), (0o760400, "hlt"),
    (0o765613, "clc!cli!hlt!stf 3"), (0o760003, "clf 3"), (0o760017, "stf 7"),
    (0o661007, "ral 3s"), (0o671777, "rar 9s"), (0o675001, "sar 1s"), (0o663777, "rcl 9s"),
    (0o665005, "sal 5"), (0o677000, "scr 0"),
    (0o730003, "tyo"), (0o720004, "tyi"), (0o730004, "tyi i"), (0o730001, "rpa"),
    (0o730002, "rpb"), (0o720030, "rrb"), (0o730005, "ppa"), (0o730006, "ppb"),
    (0o720033, "cks"), (0o730007, "dpy"), (0o724074, "eem"), (0o720003, "iot 3"),
    (0o730000, "iot i"),
    # No macro1 name: plain octal.
    (0o000000, "000000"), (0o120000, "120000"), (0o360000, "360000"), (0o740001, "740001"),
    (0o760100, "760100"), (0o762000, "762000"), (0o770000, "770000"), (0o644000, "644000"),
    (0o660777, "660777"), (0o674001, "674001"),
])
def test_known_forms(word: int, text: str) -> None:
    assert disassemble(word) == text


def test_macro1_permanent_symbols_come_out_by_name(tmp_path: Path) -> None:
    # `macro1 -p` writes the installed binary's permanent symbol table as `name=value`.
    (tmp_path / "p.mac").write_text("/ p\n\tstart 0\n")
    subprocess.run(["/usr/bin/macro1", "-p", "p.mac"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    symbols = dict(re.findall(r"^\t(\w+)=([0-7]+)$", (tmp_path / "p.prm").read_text(), re.M))
    aliases = {"mus": "mul", "dis": "div", "xx": "hlt", "opr": "nop", "skip": "skp",
               "szs": "skp", "szf": "skp", "clf": "nop", "stf": "stf 0", "iot": "iot"}
    checked = 0
    for name, value in symbols.items():
        word = int(value, 8)
        if word < 0o020000:   # i and the shift counts 1s..9s are operands
            continue
        expected = aliases.get(name, name)
        assert disassemble(word).split()[0] == expected.split()[0], (name, value)
        checked += 1
    assert checked > 70


def test_rejects_non_words() -> None:
    with pytest.raises(ValueError):
        disassemble(1 << 18)
    with pytest.raises(ValueError):
        disassemble(-1)
