"""``python -m python_bridge demo``: the historical demonstration, as shown to an audience.

From nothing, as an operator did it: the front panel set (switch rows), the
paper tape mounted and read in (drawn from the tape's own bytes as SIMH's
reader passes them), then the PDP-1 playing Kalah on its typewriter at 1960
speed -- by default against itself (test word bit 0), with ``--visitor``
against a person -- every move cross-checked, the presenter's captions
between the lines.  At the end the typewriter transcript is written as text
and as a picture of the paper (SVG, red and black ribbon), with the game
record beside them.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from tools.papertape import Tape, TapeError, read_tape

from ..driver.crosscheck import CrossCheckMismatch
from ..driver.driver import GameOutcome
from ..driver.game_records import SavedGame
from ..driver.keyboard import is_terminal, keys_unseen_while_busy, own_foreground
from ..driver.pacing import READER_FRAMES_PER_SECOND, Pacer
from ..driver.record_files import SessionRecords, claim, create_new
from ..driver.record_files import stamp as time_stamp
from ..driver.wording import count
from ..machine.cycles import CYCLES_PER_SECOND
from ..machine.front_panel import (
    SW_DEFERRED_END,
    SW_DIAGNOSTIC,
    SW_EMPTY_CAPTURE,
    SW_PDP1_FIRST,
    SW_PIE_RULE,
    SW_REMAINDER_VOID,
    PanelSettings,
    describe_switches,
    describe_test_word,
)
from ..machine.kalah_program import ROOT, ensure_tape
from ..machine.simh import TYPEWRITER_CHARACTERS_PER_SECOND, SimhError
from .captions import CaptionScript
from .paper import paper_svg, svg_text
from .show import DemoVisitor, Presenter, Show, Style, Thought, VisitorQuit, format_seconds
from .tape_picture import ReadInDisplay, loader_words_line, tape_records, tape_strip, tape_summary

RECORDS = ROOT / "records"
# The default show: a game of a few minutes at 1960 speed (docs/demonstration.md).
DEFAULT_PITS, DEFAULT_SEEDS, DEFAULT_LEVEL = 4, 3, 13

SWITCH_MEANINGS = (
    (SW_PDP1_FIRST, 1, "the PDP-1 moves first"),
    (SW_EMPTY_CAPTURE, 2, "empty capture"),
    (SW_DEFERRED_END, 3, "deferred end"),
    (SW_REMAINDER_VOID, 4, "remainder void"),
    (SW_PIE_RULE, 5, "pie rule"),
    (SW_DIAGNOSTIC, 6, "diagnostic mode"),
)


def panel_lines(panel: PanelSettings) -> list[str]:
    """The front panel as switch rows: the six sense switches and the eighteen test-word switches."""
    switches, word = panel.switches(), panel.test_word()
    on = [f"{n}: {meaning}" for bit, n, meaning in SWITCH_MEANINGS if switches & bit]
    groups = describe_test_word(word)
    digits = "   ".join(f"{word >> shift & 7}" for shift in range(15, -1, -3))
    level = f"search {panel.depth} plies" if panel.depth else "the default level"
    return [
        "  sense switches   1 2 3 4 5 6",
        f"                   {describe_switches(switches)}    "
        + ("on: " + "; ".join(on) if on else "all off: the standard rules"),
        "  test word        bits 0-17, up (^) is a one, in octal digits of three",
        f"                   {groups}",
        f"                    {digits}     = {word:06o}",
        f"                   bit 0 "
        f"{'up: the PDP-1 plays both sides' if panel.demo else 'down: the PDP-1 plays one side'};"
        f" bits 6-11: {level}; bits 12-14: {count(panel.pits, 'pit')}; bits 15-17: {count(panel.seeds, 'seed')}",
    ]


@dataclass
class Saved:
    transcript: Path
    picture: Path
    record: Path


def write_outputs(folder: Path, stamp: str, transcript: str, record: SavedGame) -> Saved:
    """The typewriter transcript (text), the paper (SVG) and the game record, in ``folder``.

    The names are claimed exclusively (``demo-<stamp>``, or ``demo-<stamp>-2``... when a show
    started in the same second took it): no show overwrites another's.
    """
    svg = paper_svg(transcript)
    if svg_text(svg) != transcript:  # the picture must say what the paper says
        raise AssertionError("the paper picture's text differs from the transcript")
    stem, claimed = claim(folder, f"demo-{stamp}", "-typewriter.txt")
    claimed.write_text(transcript, encoding="utf-8")
    return Saved(claimed, create_new(folder / f"{stem}-paper.svg", svg),
                 create_new(folder / f"{stem}-record.txt", record.text() + "\n"))


THOUGHTS_HEADING = ("the PDP-1's choices (1960 seconds: memory cycles of 5 us, counted instruction by instruction; "
                    "depth and positions from the reference engine, which the PDP-1 matches exactly):")


def demo_record(panel: PanelSettings, speed: str, show: Show, outcome: GameOutcome | None,
                thoughts: list[Thought], transcript: str) -> SavedGame | None:
    """The show's game in the one record format, with the pace, the front panel and the PDP-1's thoughts;
    None before the PDP-1 announced its game."""
    checker = show.driver.checker
    if checker is None:
        return None
    if outcome is not None and outcome.end is not None:
        result = outcome.end.result()
    else:
        result = "not finished: the show was stopped before the end"
    players = ("the PDP-1 plays both sides (South black, North red on the paper)" if checker.title.first == "both"
               else "the PDP-1 (red) against a visitor (black)")
    table = ["  move  player  choice  depth  positions  instructions     cycles  seconds"]
    table += [f"  {t.move:4}  {t.player:6}  {t.choice:6}  {t.depth:5}  {t.positions:9}  {t.instructions:12}  "
              f"{t.cycles:9}  {t.seconds:7.2f}" for t in thoughts]
    table.append(f"  thinking in all: {sum(t.seconds for t in thoughts):.1f} s")
    return SavedGame.of(
        checker.title, checker.game.record, result=result, heading="a demonstration game",
        checked=checker.moves_checked, restarts=show.restarts, transcript=transcript,
        fields=(("speed", speed),
                ("front panel", f"sense switches {describe_switches(panel.switches())}, "
                                f"test word {describe_test_word(panel.test_word())} ({panel.test_word():06o})"),
                ("players", players), ("PDP-1 choices checked", str(checker.choices_checked))),
        notes=(THOUGHTS_HEADING, *table))


def run_show(panel: PanelSettings, captions: CaptionScript | None, *, fast: bool, visitor: bool, folder: Path,
             out: TextIO, source: TextIO | None = None, pacer: Pacer | None = None, as_play: bool = False) -> int:
    """The whole show; 0 when it ran to the end, 1 on a failure (mismatch, emulator lost).

    ``pacer``: the show's clock (tests give one with a clock of their own).  ``as_play``: the show
    is ``play --authentic``, a game at the terminal at 1960 speed: its record is play's
    (``records/kalah-<time>-game1.txt``), and no transcript or paper is kept beside it.
    """
    tape_path = ensure_tape()
    data = tape_path.read_bytes()
    try:
        tape = read_tape(data)
    except TapeError as damage:
        print(f"the tape {tape_path} is damaged: {damage}", file=out)
        return 1
    source = source or sys.stdin
    style = Style.for_stream(out)
    pacer = pacer or (Pacer(counted=True) if fast else Pacer.at_1960_speed())
    presenter = Presenter(out, pacer, captions, style, hide_typed_echo=visitor and is_terminal(source),
                          keyboard=source if visitor else None,
                          working=sys.stderr if visitor and is_terminal(sys.stderr) else None)
    speed = ("full speed (--fast)" if fast else
             f"1960 speed: the PDP-1 at {CYCLES_PER_SECOND:,} memory cycles a second (5 us each), "
             f"the typewriter at {TYPEWRITER_CHARACTERS_PER_SECOND} characters a second")
    stamp = time_stamp()
    began = pacer.clock()

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    _opening(say, panel, tape_path, tape, data, speed, as_play)
    display = ReadInDisplay(tape_records(tape), lambda text: (out.write(text), out.flush()))
    show = Show(panel, presenter, DemoVisitor(presenter, source) if visitor else None, tape.start or 0o100,
                display.reader_at)
    outcome: GameOutcome | None = None
    status = 0
    left = ""  # set when the show ended early: by whom
    try:
        with own_foreground(source) if visitor else nullcontext(), \
                keys_unseen_while_busy(source) if visitor else nullcontext(), show:
            show.boot()
            display.finish()
            say()
            say("The program runs. From here on the typewriter is the PDP-1's; beside each of its moves, in brackets,")
            say("the time it thought in 1960 seconds" + ("; lines marked >> are the presenter's." if captions else "."))
            outcome = show.play()
            pacer.typewriter_idle()
            say()
            say(summary(outcome, presenter.thoughts, pacer.clock() - began, show.restarts))
    except (VisitorQuit, KeyboardInterrupt) as leaving:
        if visitor:  # Ctrl-D or Ctrl-C: the visitor leaves, as in plain play (status 0)
            left = "you left"
        elif isinstance(leaving, KeyboardInterrupt):
            left, status = "the show was stopped", 130
        else:
            left = "the show was stopped"
    except CrossCheckMismatch as mismatch:
        say(f"\n{mismatch}")
        status = 1
    except SimhError as failure:
        say(f"\n[the emulator failed and could not be restored: {failure}]")
        status = 1
    finally:
        if as_play:
            _keep_as_play(show, outcome, folder, left, status, say)
        else:
            _keep_as_demo(panel, speed, show, outcome, presenter.thoughts, folder, stamp, left, say)
    return status


def _opening(say: Callable[[str], None], panel: PanelSettings, tape_path: Path, tape: Tape, data: bytes, speed: str,
             as_play: bool) -> None:
    """What the show says before the tape is read in: what it is, its source, its pace, the front panel, the
    tape mounted."""
    say("KALAH ON THE PDP-1 -- " + ("a game at 1960 speed" if as_play else "a demonstration"))
    say("W. J. Champion's Kalah (1940) on a Digital Equipment Corporation PDP-1 (1960), emulated by SIMH;")
    say("every move the PDP-1 types is checked against a reference engine.")
    say("John McCarthy wrote in 1979 (Stanford AI Lab files SHERSH.1 and SHERSH.2[LET,JMC]) that Kalah programs")
    say("were written for the PDP-1 in the early sixties and showed the first player wins with one, two or three")
    say("seeds a pit; that code is lost, and this program is a reconstruction (make demo ARGS=\"--proof\").")
    say(f"Pace: {speed}.")
    say("")
    say("The operator sets the front panel:")
    for line in panel_lines(panel):
        say(line)
    say("")
    name = tape_path.relative_to(ROOT) if tape_path.is_relative_to(ROOT) else tape_path
    say(f"mounts the paper tape {tape_summary(tape, str(name))}:")
    for line in tape_strip(data, max(0, tape.leader - 12), 66):
        say(line)
    say(f"  {loader_words_line(tape)}")
    say(f"and presses READ IN. The reader reads {READER_FRAMES_PER_SECOND} frames a second; the loader sums each block "
        "and halts on a bad checksum.")


def _keep_as_demo(panel: PanelSettings, speed: str, show: Show, outcome: GameOutcome | None,
                  thoughts: list[Thought], folder: Path, stamp: str, left: str, say: Callable[[str], None]) -> None:
    """The show's transcript, paper and record, and one line saying what was kept."""
    transcript = show.driver.transcript.replace("\r", "")
    record = demo_record(panel, speed, show, outcome, thoughts, transcript) if transcript else None
    saved = write_outputs(folder, stamp, transcript, record) if record is not None else None
    if left:  # one line: why it ended, and what was kept
        what = (f"the game is saved in {saved.record}, with its transcript and paper"
                if saved else "no game was begun: nothing to save")
        say(f"\n[{left}; {what}]")
    elif saved:
        say(f"saved: {saved.transcript}  (the typewriter transcript)")
        say(f"       {saved.picture}  (the paper, red and black ribbon: South black, North red;"
            " against a visitor, the visitor black, the PDP-1 red)")
        say(f"       {saved.record}  (the game record)")


def _keep_as_play(show: Show, outcome: GameOutcome | None, folder: Path, left: str, status: int,
                  say: Callable[[str], None]) -> None:
    """``play --authentic``: the game's record as play keeps it, and one line saying where."""
    shelf = SessionRecords(folder)
    finished = outcome is not None and outcome.end is not None
    why = "the visitor left" if left else "stopped by the failure above" if status else "the visitor left"
    path = shelf.save(outcome if finished else show.driver.outcome(), finished=finished, unfinished=why)
    if path or shelf.failure:
        said = shelf.said()
    else:
        begun = show.driver.checker is not None
        said = "no move was made: nothing to save" if begun else "no game was begun: nothing to save"
    say(f"\n[{left}; {said}]" if left else f"[{said}]")
    if shelf.failure:
        say(f"[here is its record instead]\n{shelf.unsaved_text}")



def summary(outcome: GameOutcome, thoughts: list[Thought], wall: float, restarts: int) -> str:
    lines = ["[the show is over]"]
    if outcome.end is not None:
        lines.append(f"  result: {outcome.end.result()}")
    lines.append(f"  {count(len(outcome.record), 'move')}, {outcome.moves_checked} cross-checked against the "
                 "reference engine "
                 f"({outcome.choices_checked} of them the PDP-1's choices)")
    if thoughts:
        longest = max(thoughts, key=lambda t: t.cycles)
        lines.append(f"  the PDP-1 thought {format_seconds(sum(t.seconds for t in thoughts))} s of 1960 time in "
                     f"{count(len(thoughts), 'move')} "
                     f"(longest {format_seconds(longest.seconds)} s, move {longest.move})")
    minutes, seconds = divmod(int(round(wall)), 60)
    restarted = f"; emulator restarts: {restarts}" if restarts else ""
    lines.append(f"  the show took {minutes} min {seconds:02d} s{restarted}")
    return "\n".join(lines)
