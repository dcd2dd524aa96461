"""Records: every game of a session saved, with its result and its true restart count; no two sessions
share a name; the demonstration's transcript exactly what the PDP-1 typed.  Real SIMH throughout."""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pexpect
import pytest

from python_bridge.demo.run import run_show, write_outputs
from python_bridge.driver.driver import play_games
from python_bridge.driver.game_records import SavedGame, read_game_record
from python_bridge.driver.pacing import Pacer
from python_bridge.driver.record_files import SessionRecords, claim
from python_bridge.driver.visitors import RandomVisitor
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.simh import BreakpointReached, Simh
from python_bridge.reference.rules import Variants

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "your move\\? "


def bridge(*args: str, stdin: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_every_game_of_a_session_is_saved_with_its_result(kalah_tape, tmp_path: Path) -> None:
    """Three one-pit games: after each, the PDP-1's "type any key for a new game." is the only question,
    and any line answers it ("n" too: one question, one meaning); end of input leaves."""
    proc = bridge("play", "--pits", "1", "--seeds", "1", "--level", "1", "--records", str(tmp_path), stdin="")
    out, err = proc.communicate("1\nn\n1\n\n1\n", timeout=60)
    assert proc.returncode == 0, out + err
    records = sorted(tmp_path.glob("kalah-*-game*.txt"))
    assert [p.name.rsplit("-", 1)[1] for p in records] == ["game1.txt", "game2.txt", "game3.txt"]
    for number, path in enumerate(records, 1):
        text = path.read_text()
        assert f"(game {number} of the session)" in text
        assert "result: " in text and "result: not finished" not in text
        assert "emulator restarts: 0" in text
        assert "1 pit, 1 seed, level 1." in text  # the program's own title, singular
    assert out.count("[1 move cross-checked against the reference engine; Ctrl-D leaves]") == 3
    assert "another game" not in out and "[y/N]" not in out
    assert out.strip().endswith(f"[3 games are saved in {tmp_path}: {records[0].name} to {records[2].name}]")


def _pdp1_of(pid: int) -> int:
    """The pdp1 process the play command ``pid`` started (its child)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if name == "pdp1" and int(fields[1]) == pid:
            return int(entry)
    raise AssertionError(f"no pdp1 under {pid}")


def test_the_record_counts_every_restart_even_when_the_visitor_leaves_early(kalah_tape, tmp_path: Path) -> None:
    """The pdp1 killed twice mid-game, then Ctrl-D: the record says "emulator restarts: 2"."""
    child = pexpect.spawn(sys.executable, ["-m", "python_bridge", "play", "--pits", "4", "--seeds", "3",
                                           "--level", "6", "--records", str(tmp_path)],
                          cwd=str(ROOT), encoding="utf-8", timeout=60)
    child.delaybeforesend = None
    try:
        child.expect(PROMPT)
        for _ in range(2):  # killed while the visitor thinks: the move is typed to a fresh PDP-1
            pdp1 = _pdp1_of(child.pid)
            pit = _first_pit_with_seeds(child.before)
            os.kill(pdp1, signal.SIGKILL)
            child.send(f"{pit}\r")
            child.expect(r"\[restored: the game goes on from the same position\]")
            child.expect(f"you play {pit}")
            child.expect(PROMPT)
            assert _pdp1_of(child.pid) != pdp1
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    (record,) = tmp_path.glob("kalah-*-game1.txt")
    text = record.read_text()
    assert "emulator restarts: 2" in text and "result: not finished: the visitor left after" in text


def _first_pit_with_seeds(screen: str) -> int:
    rows = re.findall(r"\n +((?:\d+ +)+)you\r\n", screen)
    counts = [int(n) for n in rows[-1].split()]
    return next(i + 1 for i, n in enumerate(counts) if n)


def test_sessions_started_in_the_same_second_never_overwrite_each_other(kalah_tape, tmp_path: Path) -> None:
    """Two play sessions and two shows with the same time stamp, and twelve claims at once: all kept."""
    stamp = "19601101-120000"
    saved = []
    for seed in (1, 2):
        (outcome,) = play_games(PanelSettings(pits=2, seeds=2, depth=1), RandomVisitor(random.Random(seed)), 1)
        saved.append((SessionRecords(tmp_path, started=stamp).save(outcome, finished=True), outcome.transcript))
    (first, first_text), (second, second_text) = saved
    assert first.name == f"kalah-{stamp}-game1.txt" and second.name == f"kalah-{stamp}-2-game1.txt"
    assert first_text.replace("\r", "") in first.read_text() and second_text.replace("\r", "") in second.read_text()

    records = [SavedGame(2, 2, "1", Variants(), [n], "both", transcript=f"paper {n}\n") for n in (1, 2)]
    shows = [write_outputs(tmp_path, stamp, f"paper {n}\n", records[n - 1]) for n in (1, 2)]
    assert shows[0].record.name == f"demo-{stamp}-record.txt" and shows[1].record.name == f"demo-{stamp}-2-record.txt"
    assert [s.transcript.read_text() for s in shows] == ["paper 1\n", "paper 2\n"]

    names: list[str] = []
    threads = [threading.Thread(target=lambda: names.append(claim(tmp_path, "race", ".txt")[0])) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(names)) == 12


def test_two_real_sessions_at_once_keep_both_records(kalah_tape, tmp_path: Path) -> None:
    procs = [bridge("play", "--pits", "1", "--seeds", "1", "--level", "1", "--records", str(tmp_path), stdin="")
             for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate("1\n", timeout=60)
        assert proc.returncode == 0, out + err
    records = list(tmp_path.glob("kalah-*-game1.txt"))
    assert len(records) == 2 and all("result: " in p.read_text() for p in records)


def _blank_lines_are_the_programs(transcript: str) -> None:
    """The program types an empty line only before its title, before a board and before "game over."."""
    lines = transcript.split("\n")
    for number, line in enumerate(lines[:-1]):
        if line == "":
            following = lines[number + 1]
            assert following in ("kalah for the pdp-1", "game over.") or re.fullmatch(r" +(\d +)*\d", following), \
                f"a blank line the program never typed, before {following!r} (line {number + 2})"


def test_the_shows_transcript_is_what_the_pdp1_typed_fast_or_paced(kalah_tape, tmp_path: Path, fake_clock) -> None:
    """Two --fast shows and a paced one (its wall clock simulated) leave the same transcript, paper and
    record game, and no blank line the program did not type (SIMH's break before its stop messages)."""
    panel = PanelSettings(pits=4, seeds=3, depth=7, demo=True)
    transcripts = []
    for n, pacer in enumerate([Pacer(counted=True), Pacer(counted=True),
                               Pacer.at_1960_speed(clock=fake_clock.clock, sleep=fake_clock.sleep)]):
        folder = tmp_path / str(n)
        assert run_show(panel, None, fast=not pacer.paced, visitor=False, folder=folder, out=io.StringIO(),
                        pacer=pacer) == 0
        (transcript,) = folder.glob("demo-*-typewriter.txt")
        (record,) = folder.glob("demo-*-record.txt")
        text = transcript.read_text(encoding="utf-8")
        assert record.read_text(encoding="utf-8").endswith("typewriter transcript:\n" + text + "\n")
        transcripts.append(text)
        if pacer.paced:  # its thinking's 1960 seconds counted
            assert pacer.paced_seconds > 1
        else:
            assert pacer.paced_seconds == 0
    assert transcripts[0] == transcripts[1] == transcripts[2]
    _blank_lines_are_the_programs(transcripts[0])


# Types "ab" and a carriage return, then reaches the breakpoint at brk; started again, does it again.
LINE_THEN_BREAK = """line then break
100/	lio (61
	tyo
	lio (62
	tyo
	lio (77
	tyo
brk,	jmp 100
	constants
	start 100
"""


def test_the_line_break_before_a_stop_message_is_simhs_not_the_programs() -> None:
    """Two hundred stops right after a typed line: read_some gives "ab" CR LF each time, never an extra CR LF."""
    with Simh() as sim:
        program = sim.load_source(LINE_THEN_BREAK)
        sim.set_breakpoint(program.symbols["brk"])
        sim.go(0o100)
        for _ in range(200):  # before the fix about one in 200 stops gave an extra CR LF here
            text = ""
            with pytest.raises(BreakpointReached):
                while True:
                    text += sim.read_some(5)
            assert text == "ab\r\n"
            sim.cont()


def test_a_show_left_early_keeps_its_restart_count(kalah_tape) -> None:
    """The demonstration's record too: the pdp1 killed as the PDP-1 starts thinking, the visitor leaving at
    the question after it; the record says "emulator restarts: 1" and that the show stopped before the end."""
    from python_bridge.demo.run import demo_record
    from python_bridge.demo.show import Presenter, Show
    from python_bridge.demo.tape_picture import ReadInDisplay, tape_records
    from python_bridge.driver.visitors import SearchVisitor, VisitorQuit
    from tools.papertape import read_tape

    class KillingPresenter(Presenter):
        killed = False

        def thinking(self, thought, sim) -> None:  # type: ignore[no-untyped-def]
            if not self.killed:
                self.killed = True
                sim.kill()
            super().thinking(thought, sim)

    out = io.StringIO()
    presenter = KillingPresenter(out, Pacer(counted=True))

    class LeavesAtTheSecondQuestion(SearchVisitor):
        def choose(self, game):  # type: ignore[no-untyped-def]
            if presenter.killed:  # the first question after the restart
                raise VisitorQuit()
            return super().choose(game)

    tape = read_tape(kalah_tape.read_bytes())
    panel = PanelSettings(pits=4, seeds=3, depth=3)
    with Show(panel, presenter, LeavesAtTheSecondQuestion(2), tape.start,
              ReadInDisplay(tape_records(tape), out.write).reader_at) as show:
        with pytest.raises(VisitorQuit):
            show.play()
    assert show.restarts == 1 and "[the emulator failed: " in out.getvalue()
    record = demo_record(panel, "full speed", show, None, presenter.thoughts, "")
    assert record is not None and record.restarts == 1
    assert "result: not finished: the show was stopped before the end" in record.text().splitlines()


def test_a_record_that_cannot_be_written_is_said_in_one_line(kalah_tape, tmp_path: Path) -> None:
    """The folder gone bad during the session (here: a file where the folder should be): no traceback."""
    blocked = tmp_path / "records"
    blocked.write_text("not a folder")
    (outcome,) = play_games(PanelSettings(pits=1, seeds=1, depth=1), RandomVisitor(random.Random(1)), 1)
    shelf = SessionRecords(blocked)
    assert shelf.save(outcome, finished=True) is None
    assert shelf.unsaved_text.startswith("Kalah on the PDP-1: game record")
    assert shelf.said().startswith(f"game 1 could not be saved in {blocked}: ")
    assert "\n" not in shelf.said()


def test_play_authentic_keeps_plays_record_not_a_demonstrations(kalah_tape, tmp_path: Path) -> None:
    """``play --authentic`` is the paced show as a game of play (here counted, not paced): its record is
    ``kalah-<time>-game1.txt`` in the one format, replayable, and nothing promises a presenter."""
    out = io.StringIO()
    panel = PanelSettings(pits=3, seeds=2, depth=2)
    status = run_show(panel, None, fast=True, visitor=True, folder=tmp_path, out=out, source=io.StringIO("1\n"),
                      as_play=True)
    assert status == 0
    (record,) = tmp_path.iterdir()
    assert re.fullmatch(r"kalah-\d{8}-\d{6}-game1\.txt", record.name), record.name
    saved = read_game_record(record.read_text(encoding="utf-8"))
    assert saved.heading == "game record (game 1 of the session)" and saved.first == "you"
    assert saved.moves[0] == 1 and saved.result.startswith("not finished: the visitor left after")
    shown = out.getvalue()
    assert "presenter" not in shown and "demonstration" not in shown, shown
    assert f"[you left; the game is saved in {record}]" in shown
    replayed = subprocess.run([sys.executable, "-m", "python_bridge", "replay", str(record)], capture_output=True,
                              text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stderr
