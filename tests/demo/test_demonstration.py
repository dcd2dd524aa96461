"""The historical demonstration (``demo``) on the real SIMH: end to end, its files, its read-in, its pace."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from python_bridge.demo.captions import DEFAULT_SCRIPT, CaptionScript
from python_bridge.demo.paper import BLACK, RED, svg_colours, svg_text
from python_bridge.demo.run import run_show
from python_bridge.driver.pacing import READER_TIME, Pacer
from python_bridge.machine.cycles import CycleCounter
from python_bridge.machine.front_panel import PanelSettings, describe_switches, describe_test_word
from python_bridge.machine.kalah_program import KalahMachine, program_symbols
from python_bridge.machine.simh import PERIOD_RATE, BreakpointReached
from python_bridge.machine.transcript import Move, TranscriptParser
from tools.papertape import read_tape

SHORT = ["--pits", "3", "--seeds", "2", "--level", "2"]
_BLOCK = re.compile(r"block +(\d+) +frames +(\d+)-(\d+) +([0-7]{4})-([0-7]{4}) +(\d+) words +checksum ([0-7]{6}), "
                    r"summed ([0-7]{6}) +ok")


def outputs(folder: Path) -> tuple[str, str, str]:
    (transcript,) = folder.glob("demo-*-typewriter.txt")
    (picture,) = folder.glob("demo-*-paper.svg")
    (record,) = folder.glob("demo-*-record.txt")
    return (transcript.read_text(encoding="utf-8"), picture.read_text(encoding="utf-8"),
            record.read_text(encoding="utf-8"))


def test_the_show_runs_end_to_end_at_full_speed(bridge, kalah_tape, tmp_path: Path) -> None:
    result = bridge("demo", "--fast", *SHORT, "--records", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    transcript, picture, record = outputs(tmp_path)
    assert transcript and picture and record
    assert "kalah for the pdp-1" in transcript and "game over." in transcript
    assert svg_text(picture) == transcript  # the picture says exactly what the paper says
    assert "record:" in record and transcript in record

    # the panel as switch rows, the settings the program then reports
    panel = PanelSettings(pits=3, seeds=2, depth=2, demo=True)
    assert f"   {describe_switches(panel.switches())} " in result.stdout
    assert f"   {describe_test_word(panel.test_word())}\n" in result.stdout
    assert f"= {panel.test_word():06o}" in result.stdout
    assert "3 pits, 2 seeds, level 2." in transcript and "the pdp-1 plays both sides." in transcript

    # the read-in is drawn from the real tape: its blocks, in order, with their checksums
    tape = read_tape(kalah_tape.read_bytes())
    shown = [m.groups() for m in _BLOCK.finditer(result.stdout)]
    assert [(int(n), int(first), low, high, int(words), checksum, summed)
            for n, first, _last, low, high, words, checksum, summed in shown] == \
           [(i, b.offset, f"{b.first:04o}", f"{b.last:04o}", len(b.words), f"{b.checksum:06o}", f"{b.computed:06o}")
            for i, b in enumerate(tape.blocks, 1)]
    assert f"leader   frames     0-{tape.leader - 1}" in result.stdout
    assert f"jmp {tape.start:04o}: the program starts" in result.stdout

    # every PDP-1 move has its thinking time beside it; the captions are there
    moves = [e for e in TranscriptParser().feed(transcript.replace("\n", "\r\n")) if isinstance(e, Move)]
    assert moves and len(re.findall(r"(?:plays \d|swaps)[^\n]*\[thinking: \d+\.\d+ s\]", result.stdout)) == len(moves)
    assert "   >> " in result.stdout
    assert "[the show is over]" in result.stdout


def test_the_same_show_twice_is_the_same_paper(bridge, kalah_tape, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        assert bridge("demo", "--fast", *SHORT, "--no-captions", "--records", str(folder)).returncode == 0
    assert outputs(first)[0] == outputs(second)[0]
    assert outputs(first)[1] == outputs(second)[1]


def test_a_visitor_plays_one_side_from_a_pipe(bridge, kalah_tape, tmp_path: Path) -> None:
    keys = "".join(f"{pit}\n" for pit in [1, 2, 3] * 8)
    result = bridge("demo", "--fast", "--visitor", *SHORT, "--records", str(tmp_path), stdin=keys)
    assert result.returncode == 0, result.stdout + result.stderr
    transcript, picture, _record = outputs(tmp_path)
    assert "you move first." in transcript and "your move? " in transcript
    assert svg_text(picture) == transcript
    for line in svg_colours(picture):  # the ribbon: the PDP-1 red, the visitor black
        text = "".join(t for t, _ in line)
        if text.startswith("pdp-1 plays"):
            assert {c for _, c in line} == {RED}
        elif text.startswith("you play"):
            assert {c for _, c in line} == {BLACK}
    assert re.search(r"pdp-1 plays \d[^\n]*\[thinking: ", result.stdout)
    assert not re.search(r"you play \d[^\n]*\[thinking", result.stdout)


@pytest.mark.parametrize("args", [
    ["--pits", "9"],
    ["--level", "x"],
    ["--first", "pdp-1"],
    ["--script", "/nonexistent/captions.txt"],
    ["--seeds", "0"],
])
def test_bad_command_lines_get_one_clear_line_and_exit_2(bridge, args: list[str]) -> None:
    result = bridge("demo", *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_bad_caption_script_is_one_line_naming_the_line(bridge, tmp_path: Path) -> None:
    script = tmp_path / "captions.txt"
    script.write_text("# fine\non think: {Player} thinks.\non lunch: sandwiches\n")
    result = bridge("demo", "--script", str(script))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert f"{script}:3" in result.stderr and "lunch" in result.stderr


def test_the_paced_show_keeps_1960_time(kalah_tape, tmp_path: Path, fake_clock) -> None:
    """The authentic show with the wall clock simulated: the real SIMH, stepped and paced as at 1960 speed."""
    fake = fake_clock
    out = io.StringIO()
    panel = PanelSettings(pits=3, seeds=2, depth=6, demo=True)
    status = run_show(panel, CaptionScript.load(DEFAULT_SCRIPT), fast=False, visitor=False, folder=tmp_path,
                      out=out, pacer=Pacer.at_1960_speed(clock=fake.clock, sleep=fake.sleep))
    assert status == 0, out.getvalue()
    transcript, _picture, record = outputs(tmp_path)
    thinking = [float(s) for s in re.findall(r"^ +\d+ +(?:south|north) +(?:pit \d|swap) .* ([\d.]+)$", record, re.M)]
    typed = len(transcript.replace("\n", "")) + transcript.count("\n")  # CR LF is one code
    tape = read_tape(kalah_tape.read_bytes())
    read_in = (tape.start_offset + 3 - (tape.loader[-1].offset + 9)) * READER_TIME / PERIOD_RATE
    # the reader at 400 frames a second, the typewriter at 10 characters, the thinking at 200,000 cycles
    expected = read_in + typed / 10 + sum(thinking)
    assert expected - 0.5 < fake.slept < expected + 0.5, (fake.slept, expected)
    assert "the show took" in out.getvalue()


def test_thinking_times_are_the_machines_own_cycle_counts(kalah_tape, tmp_path: Path) -> None:
    """What the show puts beside each move equals a count between think/thx on a machine of its own."""
    panel = PanelSettings(pits=4, seeds=3, depth=5, demo=True)
    out = io.StringIO()
    assert run_show(panel, None, fast=True, visitor=False, folder=tmp_path, out=out) == 0
    record = outputs(tmp_path)[2]
    shown = [(int(i), int(c), float(s)) for i, c, s in
             re.findall(r"^ +\d+ +\w+ +pit \d +\d+ +\d+ +(\d+) +(\d+) +([\d.]+)$", record, re.M)]
    beside = [float(s) for s in re.findall(r"\[thinking: ([\d.]+) s\]", out.getvalue())]
    symbols = program_symbols()
    measured: list[tuple[int, int]] = []
    with KalahMachine(panel, breakpoints=(symbols["think"], symbols["thx"])) as machine:
        sim = machine.sim
        while True:  # the PDP-1 plays itself: counted here between think and thx, on a loop of the test's own
            try:
                sim.expect("type any key for a new game", timeout=60)
                break
            except BreakpointReached as stop:
                if stop.pc == symbols["think"]:
                    counter = CycleCounter(sim)
                    counter.run_to(symbols["thx"], 10_000_000)
                    measured.append((counter.instructions, counter.cycles))
                sim.cont()
    assert [(i, c) for i, c, _ in shown] == measured and len(shown) > 5
    assert [s for _, _, s in shown] == [round(c * 5e-6, 2) for _, c in measured]
    assert len(beside) == len(shown) and all(abs(b - s) < 0.051 for b, (_, _, s) in zip(beside, shown, strict=True))


def test_a_killed_emulator_is_replaced_and_the_show_goes_on(kalah_tape, tmp_path: Path) -> None:
    """The pdp1 process killed as the PDP-1 starts its third choice: a fresh one plays on, the paper whole."""
    from python_bridge.demo.show import Presenter, Show
    from python_bridge.demo.tape_picture import ReadInDisplay, tape_records

    class KillingPresenter(Presenter):
        thinks = 0

        def thinking(self, thought, sim) -> None:  # type: ignore[no-untyped-def]
            self.thinks += 1
            if self.thinks == 3:
                sim.kill()
            super().thinking(thought, sim)

    out = io.StringIO()
    presenter = KillingPresenter(out, Pacer(counted=True))
    tape = read_tape(kalah_tape.read_bytes())
    display = ReadInDisplay(tape_records(tape), out.write)
    panel = PanelSettings(pits=4, seeds=3, depth=4, demo=True)
    with Show(panel, presenter, None, tape.start, display.reader_at) as show:
        outcome = show.play()
        transcript = show.driver.transcript
    assert show.restarts == 1 and "[the emulator failed: " in out.getvalue()
    assert outcome.end is not None and outcome.moves_checked == len(outcome.record)
    assert [t.move for t in presenter.thoughts] == list(range(1, len(outcome.record) + 1))
    events = TranscriptParser().feed(transcript)
    assert sum(isinstance(e, Move) for e in events) == len(outcome.record)
