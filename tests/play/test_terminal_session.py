"""The terminal session around the games: one question at a game's end, leaving at any moment with the
terminal and make left as they were, records true to what was checked, a record that cannot be saved shown.

The real ``play`` command on a pty, the real SIMH.
"""

from __future__ import annotations

import os
import re
import shutil
import termios
import threading
import time
from pathlib import Path

import pexpect

from python_bridge.play.terminal import EchoFilter, Spinner
from tests.driver.test_session_records import _first_pit_with_seeds
from tests.play.test_typewriter_keys import PROMPT, ROOT, as_at_a_terminal, finish, play, question


def test_ctrl_d_at_the_first_question_saves_nothing(kalah_tape, tmp_path: Path) -> None:
    """No move made, nothing to keep: no record file, and one line saying so."""
    child = play("--pits", "3", "--seeds", "2", "--level", "2", records=tmp_path)
    try:
        question(child)
        child.sendcontrol("d")
        child.expect(r"\[you left; no move was made: nothing to save\]\r\n")
        assert finish(child) == 0
    finally:
        child.close(force=True)
    assert not list(tmp_path.glob("kalah-*"))


def test_an_unfinished_record_holds_what_was_checked_and_no_more(kalah_tape, tmp_path: Path) -> None:
    """Every move line in the saved transcript is in the record, and the other way round."""
    child = play("--pits", "4", "--seeds", "3", "--level", "3", records=tmp_path)
    try:
        for _ in range(3):
            question(child)
            child.send(f"{_first_pit_with_seeds(child.logfile_read.getvalue())}\r")
        question(child)
        child.sendcontrol("d")
        assert finish(child) == 0
    finally:
        child.close(force=True)
    (saved,) = tmp_path.glob("kalah-*-game1.txt")
    text = saved.read_text()
    record = re.search(r"^record: (.*)$", text, re.M).group(1).split()
    transcript = text.split("typewriter transcript:\n", 1)[1]
    typed = re.findall(r"^(?:you play|pdp-1 plays) (\d)", transcript, re.M)
    assert typed == record and len(record) >= 3


def test_at_a_games_end_the_pdp1s_question_is_the_only_one(kalah_tape, tmp_path: Path) -> None:
    """"type any key for a new game.": one key (here "n", no Enter) starts the next game; no y/N question."""
    child = play("--pits", "1", "--seeds", "1", "--level", "1", records=tmp_path)
    try:
        question(child)
        child.send("1\r")
        child.expect("type any key for a new game.")
        child.expect(r"\[1 move cross-checked against the reference engine; Ctrl-D leaves\]\r\n")
        time.sleep(0.2)
        child.send("n")  # the key alone, as the question says
        child.expect("kalah for the pdp-1")  # a new game, not an exit
        question(child)
        child.sendcontrol("d")
        assert finish(child) == 0
        assert "[y/N]" not in child.logfile_read.getvalue()
    finally:
        child.close(force=True)
    assert len(list(tmp_path.glob("kalah-*-game*.txt"))) == 1  # the second game had no move


def test_ctrl_backslash_while_the_pdp1_thinks_leaves_as_ctrl_c_does(kalah_tape, tmp_path: Path) -> None:
    """SIGQUIT is no crash: the game saved, status 0, and the terminal's echo on again."""
    child = play("--pits", "6", "--seeds", "6", "--level", "9", records=tmp_path)
    try:
        question(child)
        child.send("2\r")  # six seeds from pit 2 end on the PDP-1's side: its turn, it thinks
        child.expect("you play 2.")
        child.expect(r" 1  2  3  4  5  6\r\n")  # the board after the move: the move is checked by now
        child.sendcontrol("\\")
        child.expect(r"\[you left; the game is saved in ")
        child.expect(pexpect.EOF)
        echo_after = termios.tcgetattr(child.child_fd)[3] & termios.ECHO
        child.close()
    finally:
        child.close(force=True)
    assert child.signalstatus is None and child.exitstatus == 0
    assert echo_after, "the terminal was left without echo"


def test_ctrl_c_at_make_plays_question_ends_make_with_status_0(kalah_tape, tmp_path: Path) -> None:
    """Ctrl-C reaches the game alone (its own process group in the foreground), so make does not die of
    it: the status the documentation promises is the one make returns."""
    make = shutil.which("make")
    assert make is not None
    child = pexpect.spawn(make, ["-s", "play", f"ARGS=--pits 3 --seeds 2 --level 2 --records {tmp_path}"],
                          cwd=str(ROOT), encoding="utf-8", timeout=120, preexec_fn=as_at_a_terminal)
    try:
        child.expect(PROMPT)
        time.sleep(0.3)
        child.sendcontrol("c")
        child.expect(r"\[you left; ")
        child.expect(pexpect.EOF)
        child.close()
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    assert "Interrupt" not in child.before


def test_a_record_that_cannot_be_saved_is_shown_instead(kalah_tape, tmp_path: Path) -> None:
    """The records folder replaced by a file mid-game: one line, the record on the terminal, status 1."""
    folder = tmp_path / "records"
    folder.mkdir()
    child = play("--pits", "1", "--seeds", "1", "--level", "1", records=folder)
    try:
        question(child)
        folder.rename(tmp_path / "moved")
        folder.write_text("a file where the folder was")
        child.send("1\r")
        child.expect(r"\[game 1 could not be saved in [^\]]*; here is its record instead\]\r\n")
        child.expect(r"Kalah on the PDP-1: game record \(game 1 of the session\)")
        child.expect(r"record: 1\r\n")
        child.expect("type any key for a new game.")
        assert finish(child) == 1
    finally:
        child.close(force=True)


def test_the_spinner_never_draws_over_a_line_the_paper_has_begun() -> None:
    """A question on the paper ("your move? ") and a long check: the status line waits for an empty line."""
    master, slave = os.openpty()
    err = os.fdopen(slave, "w")
    paper = open(os.devnull, "w")
    echo = EchoFilter(paper)
    spinner = Spinner(err, paper=echo)
    echo.spinner = spinner
    drawn: list[bytes] = []
    reader = threading.Thread(target=lambda: drawn.append(os.read(master, 4096)), daemon=True)
    try:
        with spinner:
            echo("your move? ")
            spinner.ask(False)
            spinner.quiet_since -= 10  # quiet long enough to show itself, were the line empty
            reader.start()
            time.sleep(1.0)
            assert not drawn, drawn  # nothing over the question
            echo("3\r\n")  # the line is ended (the visitor's answer): now it may
            spinner.quiet_since -= 10
            reader.join(10)
        assert drawn and b"checking the PDP-1's move" in drawn[0]
    finally:
        err.close()
        paper.close()
        os.close(master)
