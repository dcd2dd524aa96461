"""The PDP-1 program's diagnostic mode on the real SIMH, against the reference engine."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest

from python_bridge.checking.fuzz import generate, run_fuzz
from python_bridge.machine.diagnostic import DEL, DiagnosticModel
from python_bridge.machine.front_panel import PanelSettings
from python_bridge.machine.kalah_program import (
    ANALYSIS,
    CoreBoard,
    DiagnosticConsole,
    KalahMachine,
    ProtocolError,
    program_symbols,
)
from python_bridge.reference.notation import format_position
from python_bridge.reference.rules import Position, Variants, play, start_position


@pytest.fixture(scope="module")
def console(kalah_tape):
    machine = KalahMachine(PanelSettings(diagnostic=True))
    try:
        yield DiagnosticConsole(machine)
    finally:
        machine.close()


@pytest.fixture(scope="module")
def analysis(kalah_tape):
    """The analysis tape (build/prove.rim) read in: p, m and w."""
    machine = KalahMachine(PanelSettings(diagnostic=True), program=ANALYSIS)
    try:
        yield DiagnosticConsole(machine)
    finally:
        machine.close()


@pytest.fixture(autouse=True)
def no_simulator_left_behind():  # the module's machine outlives single tests by design
    yield


def test_protocol_examples(console: DiagnosticConsole) -> None:
    ask = lambda line: console.ask(line).text  # noqa: E731
    assert ask("p 4 4 4 4 4 4 0 4 4 4 4 4 4 0 s") == "ok"
    assert ask("m 3") == "= 4 4 0 5 5 5 1 4 4 4 4 4 4 0 s"
    assert ask("m 4") == "= 4 4 0 0 6 6 2 5 5 4 4 4 4 0 n"
    assert ask("b 1") == "best 3 value -1 nodes 7"
    assert ask("b 4") == "best 3 value 0 nodes 111"
    for bad in ("", "x", "m", "m 0", "m 7", "m 3 ", "b 0", "b 21", "p 4 4 s", "P 4", "m  3"):
        assert ask(bad) == "error", bad
    assert ask("m 1") == "= 4 4 0 0 6 6 2 0 6 5 5 5 5 0 s"  # the errors changed nothing


def test_a_game_over_refuses_moves_and_searches(console: DiagnosticConsole) -> None:
    assert console.ask("p 0 0 0 0 0 0 20 0 0 0 0 0 0 28 e").text == "ok"
    assert console.ask("m 1").text == "error"
    assert console.ask("b 3").text == "error"
    assert console.ask("p 0 0 0 0 0 0 20 0 0 0 0 1 0 28 e").text == "error"  # e with seeds left


def test_each_tape_answers_its_own_command_and_refuses_the_others(console: DiagnosticConsole,
                                                                  analysis: DiagnosticConsole) -> None:
    """The game's tape searches (b) and has no proof; the analysis tape proves (w), deepens (d) and has no
    search."""
    for tape in (console, analysis):
        tape.machine.set_panel(PanelSettings(pits=6, seeds=1, diagnostic=True))
        tape.sync()
        assert tape.ask("p 1 1 1 1 1 1 0 1 1 1 1 1 1 0 s").text == "ok"
        assert tape.ask("m 6").text == "= 1 1 1 1 1 0 1 1 1 1 1 1 1 0 s"
    assert console.ask("w 0").text == "error"
    assert console.ask("d 1").text == "error"
    assert analysis.ask("b 1").text == "error"
    assert console.ask("b 1").text.startswith("best ")
    assert analysis.ask("w 0").text.startswith("above ")
    assert analysis.ask("d 1").text.startswith("depth 1 value ")


@pytest.mark.parametrize("pits", range(1, 7))
def test_seventy_two_seeds_in_one_pit(console: DiagnosticConsole, pits: int) -> None:
    """Sowing laps the board many times and every count keeps up."""
    model = DiagnosticModel.fresh(pits, 4, Variants())
    board = ["0"] * (2 * pits + 2)
    board[pits - 1] = "72"
    for line in ("p " + " ".join(board) + " s", "m " + str(pits), "b 3"):
        # the machine reads m from the test word: set it, then compare with the model
        if line.startswith("p"):
            console.machine.set_panel(PanelSettings(pits=pits, diagnostic=True))
            console.sync()
        assert console.ask(line).text == model.answer(line), line


def test_a_whole_line_typed_at_once_loses_no_key(console: DiagnosticConsole) -> None:
    """Lines typed in one burst, as long as the buffer takes, with rubouts: every key arrives."""
    console.machine.set_panel(PanelSettings(diagnostic=True))
    console.sync()
    model = DiagnosticModel.fresh(6, 4, Variants())
    lines = [
        "p 4 4 4 4 4 4 0 4 4 4 4 4 4 0 s",
        "x" * 75 + DEL * 75 + "m 3",  # 153 keys, 3 of them count
        "p 10 11 12 13 14 00 01 02 03 04 05 1 1 1 n",
        "b 3",
        "m" + DEL + "m 6",
        "q" * 80,  # exactly full: refused as an unknown command
        "m" * 81,  # overflowing: refused
        "b 2",
    ]
    for line in lines:
        assert console.ask(line).text == model.answer(line), line


def test_the_brief_form_answers_a_move_with_equals_and_leaves_the_position_in_core(kalah_tape) -> None:
    panel = PanelSettings(pits=3, seeds=2, variants=Variants(empty_capture=True), diagnostic=True, brief=True)
    with KalahMachine(panel) as machine:
        console = DiagnosticConsole(machine)
        model = DiagnosticModel.fresh(3, 2, panel.variants, brief=True)
        answers = []
        for line in ("m 3", "m 1", "m 9", "p 0 0 1 0 0 1 0 3 n", "m 2"):
            answers.append(console.ask(line).text)
            assert answers[-1] == model.answer(line), line
            machine.sim.stop()
            core = CoreBoard.read(machine.sim, program_symbols())
            machine.sim.cont()
            console.sync()
            assert core.holds(model.position), (line, core.position(3))
        assert answers == ["=", "=", "error", "ok", "="] and model.position.over


STALL = 0.5  # seconds the host keeps the simulator from running: longer than any wait for an answer once was


def _stalled_once(console: DiagnosticConsole) -> threading.Timer:
    """The next keys typed on ``console`` reach a ``pdp1`` the host does not run for STALL seconds (a busy host's
    worst, made certain: the process is stopped before the keys are sent, so it cannot answer them sooner)."""
    sim = console.sim
    pid = sim.pid
    wake = threading.Timer(STALL, lambda: os.kill(pid, signal.SIGCONT))
    real_type = sim.type

    def type_on_a_busy_host(keys: str) -> None:
        del sim.type  # once
        sim.wait_gone_on(time.monotonic() + 5)  # SIMH's flush after cont is over: the keys are not lost to it
        os.kill(pid, signal.SIGSTOP)
        real_type(keys)
        wake.start()

    sim.type = type_on_a_busy_host  # type: ignore[method-assign]
    return wake


def test_a_late_answer_to_sync_is_answered_once_and_never_taken_for_a_later_line(kalah_tape) -> None:
    """A host too busy to run the simulator for a while after sync's empty line: the line is answered once, late,
    and the lines after it get their own answers.  (sync once typed the line again after a quarter of a second;
    both were answered, and every later line was credited with the answer to the line before it.)"""
    with KalahMachine(PanelSettings(pits=3, seeds=2, diagnostic=True)) as machine:
        console = DiagnosticConsole(machine)
        machine.set_panel(PanelSettings(pits=3, seeds=2, variants=Variants(empty_capture=True), diagnostic=True))
        wake = _stalled_once(console)
        try:
            console.sync()
        finally:
            wake.join()
        assert console.ask("p 2 2 2 0 2 2 2 0 s").text == "ok"
        assert console.ask("m 3").text == "= 2 2 0 1 3 2 2 0 n"
        assert console.ask("m 9").text == "error"


def test_an_answer_nobody_asked_for_is_never_taken_for_the_next_line(console: DiagnosticConsole) -> None:
    """Output before the echo of the line typed (here the answer to a stray empty line) is refused, not
    returned as that line's answer; sync then reads past it."""
    console.machine.set_panel(PanelSettings(diagnostic=True))
    console.sync()
    console.sim.type("\r")  # answered error, and nobody reads that answer
    with pytest.raises(ProtocolError, match="output before the answer"):
        console.ask("p 4 4 4 4 4 4 0 4 4 4 4 4 4 0 s")
    console.sync()
    assert console.ask("p 4 4 4 4 4 4 0 4 4 4 4 4 4 0 s").text == "ok"
    assert console.ask("m 3").text == "= 4 4 0 5 5 5 1 4 4 4 4 4 4 0 s"


def test_differential_fuzz_against_the_reference(kalah_tape) -> None:
    """1,500 seeded cases (make fuzz runs 100,000) over every pits value and variant set, both tapes, both forms (the
    brief form's positions read from core), on two emulators."""
    groups = generate(2026, 1500)
    assert {(g.program.name, g.brief) for g in groups} == {("kalah", False), ("kalah", True), ("prove", False),
                                                          ("prove", True)}
    outcome, _ = run_fuzz(seed=2026, cases=1500, jobs=2)
    assert not outcome.errors, outcome.errors
    assert not outcome.mismatches, outcome.mismatches[0].report(2026)
    assert outcome.cases == 1500


# -- the proof: w <bound> ----------------------------------------------------------------------

def _panel(analysis: DiagnosticConsole, pits: int, seeds: int, variants: Variants) -> DiagnosticModel:
    analysis.machine.set_panel(PanelSettings(pits=pits, seeds=seeds, variants=variants, diagnostic=True))
    analysis.sync()
    return DiagnosticModel.fresh(pits, seeds, variants, analysis.machine.program)


@pytest.mark.parametrize("variants, nodes", [(Variants(), 190), (Variants(empty_capture=True), 119)])
def test_the_pdp1_proves_kalah_6_1(analysis: DiagnosticConsole, variants: Variants, nodes: int) -> None:
    """McCarthy's first result: with one seed a pit the first player wins (the margin is above 0)."""
    _panel(analysis, 6, 1, variants)
    start = "p 1 1 1 1 1 1 0 1 1 1 1 1 1 0 s"
    assert analysis.ask(start).text == "ok"
    assert analysis.ask("w 0").text == f"above yes nodes {nodes}"
    assert analysis.ask("w 2").text.startswith("above no ")  # the value is 2: not above 2
    assert analysis.ask("m 6").text == "= 1 1 1 1 1 0 1 1 1 1 1 1 1 0 s"  # the board is as it was


def test_proof_answers_and_errors(analysis: DiagnosticConsole) -> None:
    model = _panel(analysis, 6, 1, Variants())
    lines = ["p 0 0 0 1 0 2 10 3 0 0 0 1 0 7 n", "w -3", "w -0", "w 05", "w -99", "w 99",
             "w", "w ", "w -", "w --1", "w - 1", "w +1", "w 100", "w -100", "w 1x", "w 1 ", "W 1",
             "p 0 0 0 0 0 0 12 0 0 0 0 0 0 12 e", "w 0"]
    for line in lines:
        assert analysis.ask(line).text == model.answer(line), line


def _endgames(count: int, seed: int) -> list[tuple[int, Variants, str, str]]:
    """Positions of random games with few seeds left, under random variants, and a bound each."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        pits = rng.randint(1, 6)
        variants = Variants(*(rng.random() < 0.5 for _ in range(3)))
        position = start_position(pits, rng.randint(1, 3))
        while not position.over and sum(position.board) - position.board[pits] - position.board[-1] > 9:
            position = play(position, rng.choice(position.legal_pits()), variants).position
        if not position.over:
            cases.append((pits, variants, "p " + format_position(position), f"w {rng.randint(-6, 6)}"))
    return cases


def _going_round(count: int, seed: int) -> list[tuple[int, Variants, str, str]]:
    """Positions where a pit of the side to move holds enough seeds to go round the board and end in its
    own row (on itself, before itself, after itself), with few seeds elsewhere, under random variants."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        pits = rng.randint(1, 4)
        variants = Variants(empty_capture=rng.random() < 0.5)
        cells = [rng.choice((0, 0, 1, 2)) for _ in range(2 * pits + 2)]
        side = rng.choice("sn")
        first = 0 if side == "s" else pits + 1
        pit = rng.randint(1, pits)
        cells[first + pit - 1] = 2 * pits + 1 - pit + rng.randint(1, pits + 1)  # lands in own row 1..m, or past it
        position = Position(tuple(cells), side)
        cases.append((pits, variants, "p " + format_position(position), f"w {rng.randint(-4, 4)}"))
    return cases


def test_proofs_where_a_move_goes_round_match_the_reference(analysis: DiagnosticConsole) -> None:
    """The proof brings captures forward, read off the board: a move that goes round and ends in its own
    row captures on an empty pit before its own, on the emptied pit itself, and never after it."""
    _answers_match(analysis, _going_round(60, seed=1962))


def test_proofs_of_endgames_match_the_reference(analysis: DiagnosticConsole) -> None:
    _answers_match(analysis, _endgames(80, seed=1961))


def _answers_match(analysis: DiagnosticConsole, cases: list[tuple[int, Variants, str, str]]) -> None:
    """Each case's position and question typed on the PDP-1, grouped by panel, answered as the model answers."""
    model = None
    for pits, variants, position, ask in sorted(cases, key=lambda c: (c[0], c[1].flags())):
        if model is None or model.pits != pits or model.variants != variants:
            model = _panel(analysis, pits, 4, variants)
        for line in (position, ask):
            assert analysis.ask(line).text == model.answer(line), (variants.describe(), line)


@pytest.mark.parametrize("variants, nodes", [(Variants(), 24824), (Variants(empty_capture=True), 2632)])
def test_the_pdp1_proves_kalah_6_2(analysis: DiagnosticConsole, variants: Variants, nodes: int) -> None:
    _panel(analysis, 6, 2, variants)
    assert analysis.ask("p 2 2 2 2 2 2 0 2 2 2 2 2 2 0 s").text == "ok"
    assert analysis.ask("w 0", timeout=120).text == f"above yes nodes {nodes}"


def test_deepening_answers_and_errors(analysis: DiagnosticConsole) -> None:
    """d n: a line a depth then ok; no depth, depth 0, three digits, a finished game: error."""
    model = _panel(analysis, 6, 1, Variants())
    lines = ["p 1 1 1 1 1 1 0 1 1 1 1 1 1 0 s", "d 3", "d 05", "d", "d ", "d 0", "d 100", "d -1", "d 1x", "d 2 ", "D 1",
             "p 0 0 0 1 0 2 10 3 0 0 0 1 0 7 n", "d 12", "w 0",
             "p 0 0 0 0 0 0 12 0 0 0 0 0 0 12 e", "d 1"]
    answers = {}
    for line in lines:
        answers[line] = analysis.ask(line, timeout=60).text
        assert answers[line] == model.answer(line), line
    assert answers["d 3"].split("\n")[::3] == ["depth 1 value 1 nodes 3", "ok"]  # three depths, then ok


def test_deepening_of_midgames_matches_the_reference(analysis: DiagnosticConsole) -> None:
    """Every depth's value and count, under every variant, from positions a few moves into 3- to 6-pit
    games: the looking-ahead leaves, the table's plies-left key and the bound tests' steps."""
    rng = random.Random(1964)
    cases = []
    for _ in range(16):
        pits, variants = rng.randint(3, 6), Variants(*(rng.random() < 0.5 for _ in range(4)))
        position = start_position(pits, rng.randint(1, 4))
        for _ in range(rng.randint(0, 6)):
            if position.over:
                break
            position = play(position, rng.choice(position.legal_pits()), variants).position
        if not position.over:
            cases.append((pits, variants, "p " + format_position(position), f"d {rng.randint(1, 7)}"))
    model = None
    for pits, variants, position, ask in sorted(cases, key=lambda c: (c[0], c[1].flags())):
        if model is None or model.pits != pits or model.variants != variants:
            model = _panel(analysis, pits, 4, variants)
        for line in (position, ask):
            assert analysis.ask(line, timeout=60).text == model.answer(line), (variants.describe(), line)
