"""``python -m python_bridge fuzz``: the diagnostic-mode differential fuzz, PDP-1 against the reference.

Cases come in groups that share one panel setting (pits, seeds, variants)
and one tape (the game's, whose own command is ``b``, or the analysis tape,
whose own is ``w``); each group is a run of typed command lines -- legal and
illegal positions, moves, searches or proofs, the other tape's command, and
garbage -- and every answer of the PDP-1 must equal the reference model's
(``machine.diagnostic``).  The case list depends only on the
seed, never on the number of jobs: groups are dealt out to the emulators by
index.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..driver.wording import count
from ..machine.diagnostic import DEL, DiagnosticModel
from ..machine.front_panel import PanelSettings
from ..machine.kalah_program import ANALYSIS, GAME, CoreBoard, DiagnosticConsole, KalahMachine, Program, program_symbols
from ..machine.simh import SimhError
from ..reference.notation import MAX_COUNT, format_position
from ..reference.rules import ENDED, NORTH, SOUTH, Position, Variants, play, start_position
from .parallel import deal

GROUP_SIZE = 40  # command lines per panel setting
ANALYSIS_SHARE = 0.3  # the groups typed on the analysis tape
BRIEF_SHARE = 0.3  # the groups typed in the brief form
GARBAGE = "abcdefghijklmnopqrstuvwxyz0123456789   -.,/()ABSPMXYZ\t;:$%" + DEL


@dataclass
class FuzzGroup:
    """Command lines typed under one panel setting, starting from the opening position."""

    index: int
    pits: int
    seeds: int
    variants: Variants
    program: Program = GAME
    brief: bool = False  # the brief form: each move's position is read from core, not typed
    lines: list[str] = field(default_factory=list)

    def panel(self) -> PanelSettings:
        return PanelSettings(pits=self.pits, seeds=self.seeds, variants=self.variants, diagnostic=True,
                             brief=self.brief)

    def model(self) -> DiagnosticModel:
        """The reference's side of this group, at the opening position."""
        return DiagnosticModel.fresh(self.pits, self.seeds, self.variants, self.program, self.brief)


@dataclass
class Mismatch:
    """One answer that differs; carries everything needed to reproduce it."""

    group: FuzzGroup
    before: Position
    line: str
    pdp1: str
    reference: str
    tail: str

    def report(self, seed: int) -> str:
        flags = " ".join(self.group.variants.flags())
        return "\n".join([
            f"MISMATCH in group {self.group.index} (seed {seed}, {self.group.program.tape.name}): "
            f"{count(self.group.pits, 'pit')}, {count(self.group.seeds, 'seed')}, {self.group.variants.describe()}"
            + (", the brief form" if self.group.brief else ""),
            f"  position before: {format_position(self.before)}",
            f"  typed:           {self.line!r}",
            f"  PDP-1 answered:  {self.pdp1!r}",
            f"  reference:       {self.reference!r}",
            "  transcript tail:",
            *("    | " + ln for ln in self.tail.replace("\r", "").splitlines()[-6:]),
            f"  reproduce: python -m python_bridge fuzz --seed {seed} --group {self.group.index}"
            + (f"   (reference: python -m python_bridge ref ... {flags})" if flags else ""),
        ])


# -- generating cases ------------------------------------------------------------------------

def _random_position(rng: random.Random, pits: int, seeds: int, variants: Variants) -> Position:
    """A legal position: usually reached by random play, sometimes a free distribution of seeds."""
    kind = rng.random()
    if kind < 0.55:
        pos = start_position(pits, seeds)
        for _ in range(rng.randrange(0, 40)):
            legal = pos.legal_pits()
            if not legal:
                break
            nxt = play(pos, rng.choice(legal), variants).position
            if nxt.to_move == ENDED:
                break
            pos = nxt
        return pos
    total = rng.randrange(1, MAX_COUNT + 1) if kind < 0.85 else rng.randrange(1, 8)
    board = [0] * (2 * pits + 2)
    for _ in range(total):
        board[rng.randrange(len(board))] += 1
    side = rng.choice((SOUTH, NORTH))
    first = 0 if side == SOUTH else pits + 1
    if rng.random() < 0.15:  # gather the mover's seeds in one pit: sowing laps the board
        heap = sum(board[first:first + pits])
        board[first:first + pits] = [0] * pits
        board[first + rng.randrange(pits)] = heap
    if sum(board[first:first + pits]) == 0:  # the mover needs a seed: take one from elsewhere
        donor = max(range(len(board)), key=lambda i: board[i])
        board[donor] -= 1
        board[first + rng.randrange(pits)] += 1
    return Position(tuple(board), side)


def _bad_position_text(rng: random.Random, pos: Position) -> str:
    """A ``p`` argument that must be refused, made from a good one."""
    fields = format_position(pos).split(" ")
    choice = rng.randrange(8)
    if choice == 0:
        del fields[rng.randrange(len(fields) - 1)]  # a count short
    elif choice == 1:
        fields.insert(rng.randrange(len(fields)), str(rng.randrange(10)))  # a count too many
    elif choice == 2:
        fields[rng.randrange(len(fields) - 1)] = str(rng.randrange(100, 1000))  # three digits
    elif choice == 3:
        fields[-1] = rng.choice("xqSN1 ")  # no such side
    elif choice == 4:
        fields[0] = str(MAX_COUNT)  # too many seeds in all (unless the rest are empty)
        fields[1] = str(rng.randrange(1, 40))
    elif choice == 5:
        fields[-1] = ENDED  # a finished game with seeds in the pits (usually)
    elif choice == 6:
        return " ".join(fields) + rng.choice((" ", "x", " 0"))  # trailing characters
    else:
        return " ".join(fields).replace(" ", "  ", 1)  # a double space
    return " ".join(fields)


def _garbage(rng: random.Random) -> str:
    return "".join(rng.choice(GARBAGE) for _ in range(rng.randrange(0, 12)))


def _line(rng: random.Random, group: FuzzGroup, model: DiagnosticModel) -> str:
    """One typed command line, legal most of the time."""
    pos = model.position
    roll = rng.random()
    if roll < 0.18:
        return "p " + format_position(_random_position(rng, group.pits, group.seeds, group.variants))
    if roll < 0.26:
        return "p " + _bad_position_text(rng, _random_position(rng, group.pits, group.seeds, group.variants))
    if roll < 0.62:
        legal = pos.legal_pits()
        if legal and rng.random() < 0.85:
            return f"m {rng.choice(legal)}"
        return f"m {rng.choice(['0', '7', '9', '03', str(rng.randrange(1, group.pits + 1)), '', '1 2', '99'])}"
    proofs = 0.8 if group.program is ANALYSIS else 0.3  # the game's tape answers w with error
    if roll < 0.90 and rng.random() < 0.02:  # a proof asked for wrongly
        return f"w {rng.choice(['', '-', '--1', '- 1', '+1', '123', '-123', '1-', 'x'])}"
    if roll < 0.90 and _small(pos) and rng.random() < proofs:  # a proof, on an endgame small enough
        if rng.random() < DEEPENINGS:  # or a deepening (the game's tape answers d with error)
            return f"d {rng.choice(('1', '2', '3', '4', '5', '03', str(rng.randrange(1, 9)), '0', '100', ''))}"
        return f"w {rng.choice(('0', '0', '-1', '1', '2', '-3', '-0', '05', '-99', str(rng.randrange(-9, 10))))}"
    if roll < 0.90:
        depth = rng.choice((1, 1, 2, 2, 3, 3, 4)) if rng.random() < 0.95 else rng.choice((0, 5, 21, 99))
        return f"b {depth}"
    if roll < 0.94:  # a good line spoilt by a rubbed-out character, or mended by one
        return f"m{DEL} {rng.randrange(1, 7)}" if rng.random() < 0.5 else f"b 1x{DEL}"
    return _garbage(rng)


DEEPENINGS = 0.25  # of the proof commands, the share that deepen instead (d n)
PROOF_SEEDS = 9  # the fuzz asks for proofs only with this many seeds left in the pits, or fewer


def _small(pos: Position) -> bool:
    """A position whose proof is quick for the reference (few seeds left to sow)."""
    m = pos.pits
    return pos.to_move != ENDED and sum(pos.board[:m]) + sum(pos.board[m + 1:2 * m + 1]) <= PROOF_SEEDS


def generate(seed: int, cases: int) -> list[FuzzGroup]:
    """The cases for ``seed``: ``cases`` command lines in groups of GROUP_SIZE."""
    rng = random.Random(seed)
    groups = []
    remaining = cases
    index = 0
    while remaining > 0:
        variants = Variants(*(rng.random() < 0.5 for _ in range(4)))
        group = FuzzGroup(index, rng.randint(1, 6), rng.randint(1, 6), variants,
                          ANALYSIS if rng.random() < ANALYSIS_SHARE else GAME, rng.random() < BRIEF_SHARE)
        model = group.model()
        for _ in range(min(GROUP_SIZE, remaining)):
            line = _line(rng, group, model)
            group.lines.append(line)
            model.answer(line)
        groups.append(group)
        remaining -= len(group.lines)
        index += 1
    return groups


# -- running ----------------------------------------------------------------------------------

@dataclass
class FuzzOutcome:
    cases: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def run_groups(groups: list[FuzzGroup], stop_at_first: bool = True) -> FuzzOutcome:
    """Type every group's lines into an emulator with its tape read in (one emulator a tape, re-panelled
    per group) and compare each answer."""
    outcome = FuzzOutcome()
    consoles: dict[str, DiagnosticConsole] = {}
    try:
        for group in groups:
            console = consoles.get(group.program.name)
            if console is None:
                machine = KalahMachine(group.panel(), program=group.program)
                try:
                    console = DiagnosticConsole(machine)
                except BaseException:
                    machine.close()
                    raise
                consoles[group.program.name] = console
            else:
                console.machine.set_panel(group.panel())
                console.sync()
                # a fresh opening position for the new panel, on both sides
                console.set_position(start_position(group.pits, group.seeds))
            model = group.model()
            symbols = program_symbols(group.program) if group.brief else {}
            for line in group.lines:
                before = model.position
                expected = model.answer(line)
                got = console.ask(line, timeout=60).text
                if got == expected == "=":  # the brief form: the move's position is in core
                    core = _core_board(console, symbols)
                    if not core.holds(model.position):
                        got, expected = (f"= {core.position(group.pits)} (in core)",
                                         f"= {format_position(model.position)}")
                outcome.cases += 1
                if got != expected:
                    outcome.mismatches.append(Mismatch(group, before, line, got, expected, console.sim.tail()))
                    if stop_at_first:
                        return outcome
    except SimhError as exc:
        outcome.errors.append(str(exc))
    finally:
        for console in consoles.values():
            console.machine.close()
    return outcome


def _core_board(console: DiagnosticConsole, symbols: dict[str, int]) -> CoreBoard:
    """The board in core, read while the program waits for the next command line."""
    console.sim.stop()
    try:
        return CoreBoard.read(console.sim, symbols)
    finally:
        console.sim.cont()
        console.sync()  # cont flushes the keyboard: type again only once the program reads


def run_fuzz(seed: int, cases: int, jobs: int, only_group: int | None = None) -> tuple[FuzzOutcome, float]:
    groups = generate(seed, cases)
    if only_group is not None:
        groups = [g for g in groups if g.index == only_group]
    began = time.perf_counter()
    outcome = FuzzOutcome()
    for part in deal(groups, jobs, run_groups):
        outcome.cases += part.cases
        outcome.mismatches += part.mismatches
        outcome.errors += part.errors
    return outcome, time.perf_counter() - began
