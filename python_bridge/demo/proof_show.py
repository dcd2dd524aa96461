"""``make demo ARGS="--proof"``: McCarthy's result re-enacted -- the PDP-1 proves the 1-seed and 2-seed games.

Why a segment of its own: John McCarthy wrote in 1979 that the early-sixties
PDP-1 Kalah programs showed the first player wins with one, two or three
seeds a pit.  Those programs are lost; here the operator sets the panel for
diagnostic mode, types the proof command ``w 0`` ("does the side to move
finish more than 0 ahead?") and the PDP-1 answers, while the audience sees the
positions searched so far and the 1960 time passing.  The proof is a program
of its own on a tape of its own (``build/prove.rim``): the operator takes the
game's tape off the reader and reads the analysis tape in, as the period's
separate programs were punched on separate tapes.  The proof runs at 1960
pace (the cycles counted exactly, 5 us each) unless ``--fast``, which runs it
at full speed without counting cycles.  Every answer and node count is
checked against the reference (``ref prove``).  Then, beside McCarthy's
"strong indications" for four, five and six seeds, the analysis tape deepens
from each of those starts (its ``d`` command) for a stated time, typing the
value it finds looking 1, 2, ... plies ahead, every line checked too.

The captions quote only what the letters say (docs/history.md names the
sources) and report only what this run measures.
"""

from __future__ import annotations

import sys
import textwrap
import time
from typing import TextIO

from tools.papertape import read_tape

from ..checking.deepening import DeepeningRun, deepen_position
from ..checking.proof import Progress, ProofMachine, ProofRun, clock_text
from ..driver.keyboard import is_terminal
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import ANALYSIS, GAME, ROOT, ensure_tape
from ..machine.simh import TYPEWRITER_CHARACTERS_PER_SECOND, SimhError
from ..reference.notation import format_position
from ..reference.rules import STANDARD, Variants, start_position
from .run import panel_lines
from .tape_picture import tape_summary

WIDTH = 78
PROOF_PACE = 1.0  # the proof no faster than the 1960 machine
SEEDS_WORDS = {1: "One seed", 2: "Two seeds", 3: "Three seeds", 4: "Four seeds", 5: "Five seeds", 6: "Six seeds"}
DEEPEN_SECONDS = 30.0  # each deepening's time here (the operator stops the machine then)
DEEPEN_FAST_SECONDS = 5.0
DEEPEN_TO = 40  # the depth typed in d n: more than the time allows

STORY = [
    "On 2 January 1979 John McCarthy wrote to Harry Shershow of Personal Computing (Stanford AI Lab "
    "file SHERSH.1[LET,JMC]): \"In the early sixties, programs for playing Kalah were written for the "
    "PDP-1 computer ... We were able to show that the game is a win for the first player when it starts "
    "with one, two, or three stones in a pit.\"",
    "A month later (SHERSH.2[LET,JMC]) he added that the programs were \"written in the early 60s for the "
    "now defunct PDP-1 computer in machine language, and I can't readily lay my hands on them.\" They are "
    "lost. What follows is a reconstruction: this program's own proof search, on the basic PDP-1 with "
    "4,096 words of core and no multiply or divide.",
]
METHOD = ("The question: with perfect play by both sides to the end of the game, does the player to move "
          "finish more than 0 seeds ahead? The PDP-1 searches by alpha-beta with the narrowest window there "
          "is, (0, 1), every line to the end of the game, keeping 8 words a ply: the board, two pits a word, "
          "and where its list of moves stands; the answers of positions already searched "
          "are kept in a table of 256 entries in the rest of core. \"above yes\" means the first player wins.")


def change_tapes(show: "ProofShow") -> None:
    """The operator takes the game's tape off the reader and mounts the analysis tape: two programs, two tapes."""
    game, analysis = ensure_tape(program=GAME), ensure_tape(program=ANALYSIS)
    name = analysis.relative_to(ROOT) if analysis.is_relative_to(ROOT) else analysis
    show.note("")
    show.note(f"The operator takes the game's tape ({game.name}) off the reader and mounts the analysis tape, "
              f"a program of its own:")
    show.note(f"  {tape_summary(read_tape(analysis.read_bytes()), str(name))}.")


class ProofShow:
    """The segment's output: captions, the typewriter's lines, the progress of a proof."""

    def __init__(self, out: TextIO, fast: bool) -> None:
        self.out = out
        self.fast = fast
        self.tty = is_terminal(out)
        self.last_progress = 0.0

    def say(self, text: str = "") -> None:
        for line in textwrap.wrap(text, WIDTH - 6) or [""]:
            self.out.write(f"   >> {line}\n" if text else "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def typewriter(self, text: str) -> None:
        """A line on the typewriter paper, at the typewriter's pace unless fast."""
        for ch in text:
            self.out.write(ch)
            self.out.flush()
            if not self.fast:
                time.sleep(1 / TYPEWRITER_CHARACTERS_PER_SECOND)
        self.out.write("\n")
        self.out.flush()

    def progress(self, p: Progress) -> None:
        clock = f"  1960 time {clock_text(p.seconds_1960)}" if p.seconds_1960 else ""
        text = f"   [the PDP-1 is proving: {p.nodes:,} positions so far{clock}; host {p.elapsed:.0f} s]"
        if self.tty:
            self.out.write("\r" + text + "\x1b[K")
            self.out.flush()
        elif p.elapsed - self.last_progress >= 30:
            self.last_progress = p.elapsed
            self.note(text)

    def end_progress(self) -> None:
        if self.tty:
            self.out.write("\r\x1b[K")
            self.out.flush()


def _prove_one(show: ProofShow, seeds: int, variants: Variants) -> ProofRun:
    panel = PanelSettings(pits=6, seeds=seeds, variants=variants, diagnostic=True)
    show.note("")
    show.note(f"The operator sets the panel for Kalah(6,{seeds}):")
    for line in panel_lines(panel):
        show.note(line)
    show.note("reads in the analysis tape, and types on the typewriter:")
    start = start_position(6, seeds)
    with ProofMachine(6, seeds, variants) as machine:
        show.typewriter("p " + format_position(start))
        show.typewriter("ok")
        show.typewriter("w 0")
        run = machine.run(start, 0, progress=show.progress, pace=0.0 if show.fast else PROOF_PACE,
                          count_cycles=not show.fast)
    show.end_progress()
    show.typewriter(run.pdp1)
    check = "agrees" if run.agrees else f"DISAGREES ({run.reference.line()})"
    timing = (f"{run.instructions:,} instructions, {run.cycles:,} memory cycles: "
              f"{clock_text(run.seconds_1960 or 0.0)} on a real PDP-1" if run.cycles is not None
              else f"{run.instructions:,} instructions (cycles not counted with --fast)")
    show.note(f"   [reference engine, searching the same way: {run.reference.line()} -- {check}; {timing}]")
    return run


def run_proof_show(out: TextIO | None = None, *, fast: bool = False, variants: Variants = STANDARD,
                   seeds: tuple[int, ...] = (1, 2), deepen_seeds: tuple[int, ...] = (4, 5, 6),
                   deepen_to: int = DEEPEN_TO, deepen_seconds: float | None = None) -> int:
    """The segment: the story, the 1-seed and the 2-seed proofs, the verdicts, then the deepenings from
    the 4-, 5- and 6-seed starts.  0 when all agreed.

    ``seeds``: the games proved (tests prove only the 1-seed game, which takes about a second of 1960 time);
    ``deepen_seeds``: the starts deepened from, each for ``deepen_seconds`` (by default DEEPEN_SECONDS,
    DEEPEN_FAST_SECONDS when fast) or to depth ``deepen_to``, whichever comes first.
    """
    out = out or sys.stdout
    show = ProofShow(out, fast)
    show.note("KALAH ON THE PDP-1 -- McCarthy's result, re-enacted")
    show.note("Pace: " + ("full speed (--fast), memory cycles not counted" if fast else
                          "the proofs at 1960 speed (every memory cycle counted, 5 us each), "
                          f"the typewriter at {TYPEWRITER_CHARACTERS_PER_SECOND} characters a second"))
    show.note(f"Rules: {variants.describe()}.")
    show.note("")
    for paragraph in STORY:
        show.say(paragraph)
    show.say(METHOD)
    change_tapes(show)
    runs = []
    for n in seeds:
        try:
            run = _prove_one(show, n, variants)
        except SimhError as failure:
            show.end_progress()
            show.note(f"[the emulator failed: {str(failure).splitlines()[0]}]")
            return 1
        runs.append(run)
        won = run.pdp1.startswith("above yes")
        time_text = f" in {clock_text(run.seconds_1960)} of a real PDP-1's time" if run.seconds_1960 else ""
        show.say(f"{SEEDS_WORDS.get(n, f'{n} seeds')} a pit: "
                 + (f"the first player wins. The PDP-1 proved it by searching {run.reference.nodes:,} "
                    f"positions{time_text}." if won else "the PDP-1 finds no win for the first player."))
    show.say("McCarthy's letter also claims \"strong indications that it is a win for the first player starting "
             "with four, five or six in a pit.\"")
    seconds = deepen_seconds if deepen_seconds is not None else DEEPEN_FAST_SECONDS if fast else DEEPEN_SECONDS
    show.say(f"What such an indication looks like: the analysis tape's d command finds the value looking 1, 2, 3 "
             f"... plies ahead (a position that far ahead valued by its stores), each depth by the same bound "
             f"tests. The operator lets it run {seconds:g} seconds of this computer's time from each start.")
    deepenings = []
    for n in deepen_seeds:
        try:
            deepenings.append(_deepen_one(show, n, variants, seconds, deepen_to))
        except SimhError as failure:
            show.note(f"[the emulator failed: {str(failure).splitlines()[0]}]")
            return 1
    return 0 if all(r.agrees for r in runs) and all(d.agrees for d in deepenings) else 1


def _deepen_one(show: ProofShow, seeds: int, variants: Variants, seconds: float, deepest: int) -> DeepeningRun:
    """The operator sets Kalah(6, seeds), types ``d deepest`` and stops the machine after ``seconds``."""
    show.note("")
    show.note(f"The operator sets the test word for Kalah(6,{seeds}) and types:")
    start = start_position(6, seeds)
    show.typewriter("p " + format_position(start))
    show.typewriter("ok")
    show.typewriter(f"d {deepest}")
    with ProofMachine(6, seeds, variants) as machine:
        run = deepen_position(machine, start, deepest, seconds, on_depth=lambda d: show.typewriter(d.pdp1))
    if run.stopped:
        show.note(f"   [the operator stops the machine after {seconds:g} s, in depth {len(run.depths) + 1}]")
    wrong = [d.reference.line() for d in run.depths if not d.agrees]
    show.note("   [reference engine, deepening the same way: "
              + (f"every line agrees ({len(run.depths)} depths)]" if not wrong else f"DISAGREES: {wrong[0]}]"))
    if run.depths:
        last = run.depths[-1].reference
        lead = (f"finishes {last.value} ahead" if last.value > 0 else
                "finishes level" if last.value == 0 else f"finishes {-last.value} behind")
        show.say(f"{SEEDS_WORDS[seeds]} a pit: looking {last.depth} plies ahead, the first player {lead}. "
                 "An indication, not a proof.")
    return run
