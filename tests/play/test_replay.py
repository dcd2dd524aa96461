"""``python -m python_bridge replay FILE``: a saved record shown again move by move, every move checked.

The records are real: one written by ``play`` on SIMH in this test, and two kept in
``tests/play/records/`` as ``play`` and the demonstration wrote them.  A record whose move
breaks the rules is one line naming the move, and so is a record missing moves it claims; these, and a
file that is no record, are bad input: exit 2, as everywhere.  The tests of what the reference shows and checks
pass ``--no-pdp1``; playing the record again on Debian's pdp1 is test_replay_on_pdp1.py's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.driver.game_records import RecordError, read_game_record, replay_steps
from python_bridge.reference.rules import Variants

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent / "records"
DEMO = RECORDS / "demo-sample-record.txt"
PLAY = RECORDS / "kalah-sample-game1.txt"


def bridge(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "python_bridge", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, input=stdin)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole 3-pit, 1-seed game against the PDP-1 on SIMH, the keys from a pipe, its record saved by play."""
    folder = tmp_path_factory.mktemp("records")
    keys = "1\n2\n3\n" * 30  # a refused pit is answered "that pit is empty." and asked again
    done = bridge("play", "--pits", "3", "--seeds", "1", "--records", str(folder), stdin=keys)
    assert done.returncode == 0, done.stderr
    (record,) = folder.glob("kalah-*-game1.txt")
    return record


@pytest.mark.simh
def test_a_game_play_saved_replays_move_by_move_to_its_result(played: Path) -> None:
    saved = read_game_record(played.read_text())
    done = bridge("replay", str(played))
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert out.startswith("Kalah(3,1), standard rules, level auto:")
    assert out.count("\nmove ") == len(saved.moves) > 0
    assert out.count("\n        3  2  1\n") == len(saved.moves) + 1  # a board before the first move and after each
    assert "the game is over: " in out and f"the record says: {saved.result}" in out
    assert f"every move checked against the reference: {len(saved.moves)} move" in out
    assert out.splitlines()[-1].startswith("checked on Debian's pdp1 (SIMH 3.8.1): ")  # played again there too


def test_the_demonstrations_record_replays_with_its_rules() -> None:
    saved = read_game_record(DEMO.read_text())
    assert (saved.pits, saved.seeds, saved.variants, saved.first) == (4, 2, Variants(empty_capture=True), "both")
    done = bridge("replay", "--no-pdp1", str(DEMO))
    assert done.returncode == 0, done.stderr
    assert "the game is over: south 11, north 5; south wins" in done.stdout
    assert "move 1: south (south) plays pit 4" in done.stdout


def test_the_players_are_named_from_the_record() -> None:
    steps = list(replay_steps(read_game_record(PLAY.read_text())))
    assert [(s.player, s.side_name) for s in steps][:2] == [("you", "south"), ("pdp-1", "north")]
    assert steps[0].south == "you" and steps[0].north == "pdp-1"


def test_a_move_that_breaks_the_rules_is_named_in_one_line(tmp_path: Path) -> None:
    text = DEMO.read_text().replace("record: 4 4 3 4 1 3 4 2 3 3", "record: 4 4 3 4 4 3 4 2 3 3")
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    done = bridge("replay", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "move 5 (south plays 4) breaks the rules: pit 4 is empty" in done.stderr
    assert done.stdout.count("\nmove ") == 4  # the moves before it were shown


def test_a_result_the_reference_does_not_reach_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(DEMO.read_text().replace("result: south 11, north 5", "result: south 10, north 6"))
    done = bridge("replay", str(bad))
    assert done.returncode == 2 and "is not the reference's end (south 11, north 5)" in done.stderr


@pytest.mark.parametrize("cut", [
    ("record: 4 4 3 4 1 3 4 2 3 3", "record: 4 4 3 4 1 3 4"),  # an old record, no count: its result tells
    ("record: 4 4 3 4 1 3 4 2 3 3", "record: 4 4 3 4 1 3 4 2 3 3\nmoves: 12"),
])
def test_a_record_missing_moves_it_claims_is_flagged_exit_2(tmp_path: Path, cut: tuple[str, str]) -> None:
    bad = tmp_path / "cut.txt"
    bad.write_text(DEMO.read_text().replace(*cut))
    done = bridge("replay", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "moves are missing" in done.stderr


def test_an_unfinished_game_cut_short_is_flagged_by_its_count(tmp_path: Path) -> None:
    text = PLAY.read_text().replace("record: 3 2 1 2", "record: 3 2 1 2\nmoves: 5")
    (tmp_path / "cut.txt").write_text(text)
    done = bridge("replay", str(tmp_path / "cut.txt"))
    assert done.returncode == 2 and "says 5 moves but holds 4: moves are missing" in done.stderr


def test_a_record_with_a_byte_order_mark_and_windows_line_ends_replays(tmp_path: Path) -> None:
    edited = tmp_path / "edited.txt"
    edited.write_bytes(b"\xef\xbb\xbf" + DEMO.read_text().replace("\n", "\r\n").encode())
    done = bridge("replay", "--no-pdp1", str(edited))
    assert done.returncode == 0, done.stderr
    assert "the game is over: south 11, north 5; south wins" in done.stdout


def test_the_one_writer_round_trips_and_reads_the_older_records() -> None:
    for old in (DEMO, PLAY):
        saved = read_game_record(old.read_text())
        again = read_game_record(saved.text())
        assert again == saved, old.name
        assert again.stated_count == len(saved.moves) and saved.stated_count is None
    demo = read_game_record(DEMO.read_text())
    assert demo.heading == "a demonstration game" and demo.checked == 10 and demo.restarts == 0
    assert demo.value_of("speed") == "full speed (--fast)" and demo.notes[0].startswith("the PDP-1's choices")


@pytest.mark.parametrize("content, words", [
    ("hello\n", "not a game record"),
    ("Kalah on the PDP-1: game record\nrecord: 1\n", "has no 'pits' line"),
    ("Kalah on the PDP-1: game record\npits 6  seeds 4  level auto  rules: standard rules\nrecord: 7 x\n",
     "'7' is not a pit or swap"),
    ("Kalah on the PDP-1: game record\npits 6  seeds 4  level auto  rules: warp drive\nrecord: 1\n",
     "name no variant 'warp drive'"),
    (b"\xff\xfe".decode("latin-1"), "not UTF-8 text"),
])
def test_a_file_that_is_no_record_is_exit_2(tmp_path: Path, content: str, words: str) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content.encode("latin-1"))
    done = bridge("replay", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "record.fifo")
    done = bridge("replay", str(tmp_path / "record.fifo"))
    assert done.returncode == 2 and "FIFO" in done.stderr


def test_step_waits_for_enter_before_each_move() -> None:
    moves = len(read_game_record(PLAY.read_text()).moves)
    done = bridge("replay", "--no-pdp1", "--step", str(PLAY), stdin="\n" * moves)
    assert done.returncode == 0 and done.stdout.count("[Enter: the next move]") == moves
    with pytest.raises(RecordError):
        read_game_record("")


def test_version_names_the_package() -> None:
    from importlib.metadata import version

    done = bridge("--version")
    assert done.returncode == 0 and done.stdout == f"pdp1-kalah {version('pdp1-kalah')}\n" and done.stderr == ""
