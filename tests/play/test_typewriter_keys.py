"""The visitor at the typewriter, as a user meets it: the real ``play`` command on a pty, real SIMH.

Keys the Flexowriter lacks are refused and the game goes on; type-ahead never
answers a question not yet asked; spaces around a pit number and a capital S
are accepted; every number that is no pit gets the same message; Ctrl-C and
Ctrl-D end plain and authentic play alike, the game saved, exit status 0.
"""

from __future__ import annotations

import io
import re
import sys
import termios
import time
from pathlib import Path

import pexpect
import pytest

from python_bridge.exhibit.procinfo import descendants
from python_bridge.machine.simh import Simh, UntypableKeys, untypable
from tests.processes import as_at_a_terminal, name_and_state

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "your move(, or s to swap)?\\? "
REFUSED = re.compile(r"\[the PDP-1's typewriter has no key [^\r\n]*\]\r\nyour move(, or s to swap)?\? ")

# keys with no FIO-DEC code, each typed as a line of its own (some with a pit number beside them)
NO_CODE_LINES = ["€3", "é", "ж", "2😀", "\x1b[A", "\x05", "3;", "{1}", "ß", "\u00a0 3", "日本", "\x01"]


def play(*args: str, records: Path, timeout: float = 30) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "python_bridge", "play", "--records", str(records), *args],
                          cwd=str(ROOT), encoding="utf-8", timeout=timeout, dimensions=(50, 120),
                          preexec_fn=as_at_a_terminal)
    child.delaybeforesend = None
    child.logfile_read = io.StringIO()  # the whole screen, for reading boards back
    return child


def question(child: pexpect.spawn) -> None:
    """Wait for the PDP-1's question and for the bridge to be reading the answer (the terminal's echo
    comes on then): keys sent earlier would be type-ahead, rightly thrown away."""
    child.expect(PROMPT)
    deadline = time.monotonic() + 10
    while not termios.tcgetattr(child.child_fd)[3] & termios.ECHO:
        assert time.monotonic() < deadline, "the bridge never reads the answer"
        time.sleep(0.01)


def leave_saved(child: pexpect.spawn, key: str) -> None:
    """At the next question, Ctrl-``key`` (d or c): the game saved, exit status 0."""
    question(child)
    child.sendcontrol(key)
    child.expect(r"\[you left; the game is saved in ")
    assert finish(child) == 0


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_keys_without_a_fiodec_code_are_refused_and_the_game_goes_on(kalah_tape, tmp_path: Path) -> None:
    child = play("--pits", "4", "--seeds", "3", "--level", "2", records=tmp_path)
    try:
        question(child)
        for line in NO_CODE_LINES:
            child.send(line + "\r")
            child.expect(REFUSED)
            assert "Traceback" not in child.before
        child.send("1\r")
        child.expect("you play 1")
        leave_saved(child, "d")
    finally:
        child.close(force=True)
    (record,) = tmp_path.glob("kalah-*-game1.txt")
    text = record.read_text()
    assert "record: 1" in text and "you play 1" in text
    assert "type a pit number" not in text  # no refused key ever reached the PDP-1 (é never became i)


@pytest.mark.parametrize("keys, named", [
    ("\x1b[A", "the up arrow"), ("\x1bOD", "the left arrow"), ("3\x1b[C", "the right arrow"),
    ("\x1b[5~", "Page Up"), ("\x1b", "Esc"), ("\x07", "Ctrl-G"), ("é€", "\u201cé\u201d, \u201c€\u201d"),
])
def test_a_refused_key_is_named_as_the_visitor_knows_it(keys: str, named: str) -> None:
    """An arrow key reaches the host as ESC [ A: it is named the arrow, never "Ctrl-[" and two more keys."""
    from python_bridge.driver.keyboard import refusal, refused_keys

    said = refusal(refused_keys(keys))
    assert said == f"[the PDP-1's typewriter has no key {named}: nothing was typed. Type a pit number.]"
    assert "Ctrl-[" not in said


def test_the_wrapper_refuses_keys_it_cannot_type_without_typing_any() -> None:
    """Simh.type never raises UnicodeEncodeError nor turns é into i: it names the keys and types nothing."""
    assert untypable("3\r") == "" and untypable("ab;$ \t\x7f") == ""
    assert untypable("€é3é\x05") == "€é\x05"
    with Simh() as sim:
        with pytest.raises(UntypableKeys, match="'€'"):
            sim.type("€3\r")


@pytest.mark.parametrize("first", ["you", "pdp-1"])
def test_spaces_capitals_and_numbers_that_are_no_pit(kalah_tape, tmp_path: Path, first: str) -> None:
    """ " 3" and "3 " play 3 (a pit with seeds); "33", "9" and "0" are all "no such pit"; S swaps when the pie
    rule offers it."""
    child = play("--pits", "6", "--seeds", "3", "--level", "2", "--pie-rule", "--first", first,
                 records=tmp_path)
    try:
        if first == "pdp-1":  # the PDP-1 opens as South; the visitor, North, may swap with a capital S
            child.expect("your move, or s to swap\\? ")
            child.send("  S \r")
            child.expect("you swap\\.")
        question(child)
        for line in ("33", "9", "0", "  07 ", "123"):
            child.send(line + "\r")
            child.expect("no such pit\\.\r\n")
            question(child)
        child.send("S\r")
        child.expect("no swap now\\.\r\n")
        question(child)
        child.send("3 4\r")
        child.expect("type a pit number\\.\r\n")
        question(child)
        legal = _legal_pit(child)
        child.send(f" {legal}\r")
        child.expect(f"you play {legal}")
        question(child)
        child.send("\t")  # a tab is a key the typewriter has: the PDP-1 refuses it itself
        child.send("\r")
        child.expect("type a pit number\\.\r\n")
        question(child)
        legal = _legal_pit(child)
        child.send(f"{legal} \r")
        child.expect(f"you play {legal}")
        leave_saved(child, "c")
    finally:
        child.close(force=True)


def _legal_pit(child: pexpect.spawn) -> int:
    """A pit of the visitor's with seeds in it, from the last board on the screen."""
    rows = re.findall(r"\n +((?:\d+ +)+)you\r\n", child.logfile_read.getvalue())
    counts = [int(n) for n in rows[-1].split()]
    return next(i + 1 for i, n in enumerate(counts) if n)


def test_type_ahead_never_answers_a_later_question(kalah_tape, tmp_path: Path) -> None:
    """A line typed while the PDP-1 thinks is thrown away: the question waits for a line typed after it."""
    child = play("--first", "pdp-1", "--level", "12", records=tmp_path, timeout=90)
    try:
        child.expect("the pdp-1 moves first\\.")
        child.expect("1  2  3  4  5  6\r\n")  # the first board: the PDP-1 thinks, the bridge checks it
        child.send("2\r")
        child.send("5\r")
        question(child)
        with pytest.raises(pexpect.TIMEOUT):
            child.expect("you play", timeout=1.5)
        assert "2\r\n" not in child.before and "5\r\n" not in child.before  # never even echoed
        child.send("4\r")
        child.expect("you play 4")
        leave_saved(child, "c")
    finally:
        child.close(force=True)
    (record,) = tmp_path.glob("kalah-*-game1.txt")
    assert "you play 4" in record.read_text() and "you play 2" not in record.read_text()


@pytest.mark.parametrize("key", ["c", "d"])
def test_ctrl_c_and_ctrl_d_at_the_question_save_the_game_and_exit_0(kalah_tape, tmp_path: Path, key: str) -> None:
    child = play("--pits", "3", "--seeds", "2", "--level", "2", records=tmp_path)
    try:
        question(child)
        child.send("1\r")
        question(child)
        child.sendcontrol(key)
        child.expect(r"\[you left; the game is saved in (\S+)\]\r\n")
        saved = Path(child.match.group(1))
        rest = child.read()
        assert finish(child) == 0
    finally:
        child.close(force=True)
    assert not rest.strip(), rest  # one line says it, nothing after
    assert "result: not finished: the visitor left after" in saved.read_text()


@pytest.mark.parametrize("key", ["c", "d"])
def test_the_same_in_the_demonstrations_visitor_play(kalah_tape, tmp_path: Path, key: str) -> None:
    """``demo --visitor`` is what ``play --authentic`` runs (at 1960 speed; here --fast): same keys, same end."""
    child = pexpect.spawn(sys.executable, ["-m", "python_bridge", "demo", "--visitor", "--fast", "--no-captions",
                                           "--pits", "4", "--seeds", "3", "--level", "2",  # thinks in moments
                                           "--records", str(tmp_path)], cwd=str(ROOT), encoding="utf-8", timeout=60,
                          preexec_fn=as_at_a_terminal)
    child.delaybeforesend = None
    try:
        question(child)
        child.send("€1\r")
        child.expect(REFUSED)
        child.send(" 1 \r")
        child.expect("you play 1")
        question(child)
        child.sendcontrol(key)
        child.expect(r"\[you left; the game is saved in (\S+), with its transcript and paper\]\r\n")
        record = Path(child.match.group(1))
        rest = child.read()
        assert finish(child) == 0
    finally:
        child.close(force=True)
    assert not rest.strip(), rest
    assert "you play 1" in record.read_text() and "Traceback" not in rest


def test_ctrl_c_during_the_authentic_read_in_exits_0(kalah_tape, tmp_path: Path) -> None:
    child = play("--authentic", records=tmp_path)
    try:
        child.expect("block +3 ")  # the tape is being read at 400 frames a second
        child.sendcontrol("c")
        child.expect(r"\[you left; no game was begun: nothing to save\]")
        assert finish(child) == 0
    finally:
        child.close(force=True)


def test_echo_is_on_at_the_question_and_the_terminal_is_left_as_it_was(kalah_tape, tmp_path: Path) -> None:
    """Echo is off while the PDP-1 types and thinks, on while a question waits, and as it was at the end."""
    child = play("--pits", "3", "--seeds", "2", "--level", "2", records=tmp_path)
    try:
        assert termios.tcgetattr(child.child_fd)[3] & termios.ECHO
        question(child)
        deadline = time.monotonic() + 5
        while not termios.tcgetattr(child.child_fd)[3] & termios.ECHO:  # the question is being asked
            assert time.monotonic() < deadline, "echo stays off at the question"
            time.sleep(0.02)
        child.send("1\r")
        child.expect("you play 1")
        question(child)
        child.sendcontrol("c")
        child.expect(r"\[you left")
        assert termios.tcgetattr(child.child_fd)[3] & termios.ECHO
        assert finish(child) == 0
    finally:
        child.close(force=True)


def test_a_script_on_a_pipe_with_keys_the_typewriter_lacks(kalah_tape, tmp_path: Path) -> None:
    """Lines on a pipe are refused alike, bytes that are no UTF-8 included: no traceback, the game goes on."""
    import subprocess

    script = "€3\n".encode() + b"\xff\xfe2\n" + "é\n1\n".encode()
    done = subprocess.run([sys.executable, "-m", "python_bridge", "play", "--pits", "4", "--seeds", "3", "--level", "2",
                           "--records", str(tmp_path)], cwd=ROOT, input=script, capture_output=True, timeout=60)
    out = done.stdout.decode()
    assert done.returncode == 0 and b"Traceback" not in done.stderr, out + done.stderr.decode()
    assert out.count("[the PDP-1's typewriter has no key ") == 3 and "U+FFFD" in out
    assert "you play 1" in out and "you play 2" not in out and "you play 3" not in out


def test_sigterm_at_the_question_leaves_as_ctrl_c_does(kalah_tape, tmp_path: Path) -> None:
    """Stopped by SIGTERM (a shutdown): the game saved, one line, exit 0, the terminal's echo back on."""
    import signal

    child = play("--pits", "3", "--seeds", "2", "--level", "2", records=tmp_path)
    try:
        question(child)
        child.send("1\r")
        question(child)
        child.kill(signal.SIGTERM)
        child.expect(r"\[you left; the game is saved in ")
        assert termios.tcgetattr(child.child_fd)[3] & termios.ECHO
        assert finish(child) == 0
    finally:
        child.close(force=True)
    (record,) = tmp_path.glob("kalah-*-game1.txt")
    assert "result: not finished" in record.read_text()


def _pdp1_state(player_pid: int) -> str:
    """The one pdp1 below the play command: its state letter (T: stopped)."""
    (pid,) = [p for p in descendants(player_pid) if Path(f"/proc/{p}/exe").resolve().name == "pdp1"]
    return name_and_state(pid)[1]


def test_the_pdp1_sleeps_while_the_person_thinks_and_wakes_for_each_key(kalah_tape, tmp_path: Path) -> None:
    child = play("--pits", "4", "--seeds", "3", "--level", "2", records=tmp_path)
    try:
        for _ in range(2):  # twice: a woken machine goes back to sleep at its next question
            question(child)
            deadline = time.monotonic() + 5
            while _pdp1_state(child.pid) != "T":  # its key loop would spin a core while the person thinks
                assert time.monotonic() < deadline, "the pdp1 runs while the person thinks"
                time.sleep(0.02)
            legal = _legal_pit(child)
            child.send(f"{legal}\r")
            child.expect(f"you play {legal}")
        leave_saved(child, "d")
    finally:
        child.close(force=True)
