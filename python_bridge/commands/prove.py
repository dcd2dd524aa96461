"""``python -m python_bridge prove``: the PDP-1 proves who wins Kalah(m, n) (argument parsing and printing only).

    prove --pits 6 --seeds N [variants] [--bound B] [--value] [--pace P]

Runs the PDP-1's ``w`` command on the start position with the analysis tape
read in (``checking.proof``),
shows the positions searched so far and the time while it works, checks the
answer and the node count against ``ref prove``, and prints the verdict, the
nodes, the instructions, the memory cycles and the time the 1960 machine
would have taken.  ``--value`` finds the exact margin by a sequence of bound
tests, each on the PDP-1 and checked, and compares it with ``ref solve``.
Exit status 0 when everything agrees, 1 on a disagreement, 2 on bad input, 3
when the proof needs more plies than the PDP-1's frames hold (the PDP-1
answers ``error`` and so does the reference: a limit, not a disagreement).
"""

from __future__ import annotations

import argparse

from ..checking.deepening import DeepeningRun, DepthRun, deepen_start
from ..checking.proof import (
    FREE_SLICE,
    SAMPLE_EVERY,
    SLICE,
    Progress,
    ProofRun,
    clock_text,
    proof_seconds,
    prove_start,
    value_of_start,
)
from ..machine.cycles import seconds
from ..machine.simh import SimhError
from ..reference.estimates import estimate_proof, measured_proof, two_figures
from ..reference.prove import MAX_BOUND, MAX_DEEPEN, MAX_PLIES, ProofError, ProofTooDeep
from .progress import CountTicker, announce
from .validators import (
    EXIT_FAILURE,
    EXIT_OK,
    PITS,
    SEEDS,
    UsageError,
    add_variant_flags,
    bounded_float,
    bounded_int,
    fail,
    new_parser,
    run_guarded,
    variants_from,
)

BOUND = bounded_int(-MAX_BOUND, MAX_BOUND)
PACE = bounded_float(0.0, 1000.0)
DEEPEST = bounded_int(1, MAX_DEEPEN)
MINUTES = bounded_float(0.1, 1440.0)
DEEPEN_MINUTES = 10.0


class _Ticker(CountTicker):
    """The proof's progress: positions so far of the estimate, and the 1960 time so far."""

    def __init__(self, estimate: int, counted: bool) -> None:
        super().__init__("nodes", estimate)
        self.counted = counted

    def __call__(self, p: Progress) -> None:  # type: ignore[override]
        super().__call__(p.nodes, f"  (1960 time so far {clock_text(p.seconds_1960)})" if self.counted else "")


def _who(pits: int, seeds: int, bound: int, above: bool) -> str:
    if bound == 0:
        return "first player wins" if above else "first player does not win"
    return f"first player {'finishes' if above else 'does not finish'} more than {bound} ahead"


def _timing(run: ProofRun) -> str:
    if run.cycles is None:
        return f"  instructions {run.instructions:,}" + (
            f"  cycles about {run.estimated_cycles:,}" if run.estimated_cycles is not None else "")
    return f"  cycles {run.cycles:,}  1960 {clock_text(run.seconds_1960 or 0.0)}"


def _report(run: ProofRun, pits: int, seeds: int) -> None:
    print(f"pdp-1:     w {run.bound} -> {run.pdp1}")
    print(f"reference: ref prove -> {run.reference.line()}  ({'agrees' if run.agrees else 'DISAGREES'})")
    print(_who(pits, seeds, run.bound, run.pdp1.startswith("above yes")))
    print(f"nodes {run.reference.nodes:,}")
    print(f"deepest ply {run.reference.deepest} (the root is ply 0; the frames hold {MAX_PLIES} plies)")
    print(f"instructions {run.instructions:,}")
    if run.cycles is None:
        _estimate(run.instructions, [run.sample])
        print(f"host time {run.host_seconds:.1f} s")
    else:
        print(f"memory cycles {run.cycles:,}")
        print(f"1960 time {clock_text(run.seconds_1960)} (cycles x 5 us)   host time {run.host_seconds:.1f} s")


def _estimate(instructions: int, samples: list[tuple[int, int] | None], what: str = "the proof") -> None:
    """Uncounted: the memory cycles and the 1960 time estimated from the counted samples, said as one."""
    sampled = [sample for sample in samples if sample and sample[0]]
    counted = sum(i for i, _ in sampled)
    if not counted:
        print(f"memory cycles not counted ({what} ended before a sample was counted)")
        return
    cycles = round(instructions * sum(c for _, c in sampled) / counted)
    print(f"memory cycles about {two_figures(cycles):,} (an estimate: {counted:,} instructions counted, "
          f"{counted / instructions:.2%} of them, in slices of {SLICE:,} spread through {what}, "
          f"{sum(c for _, c in sampled) / counted:.3f} cycles an instruction)")
    print(f"1960 time about {_about(seconds(cycles))} (the estimated cycles x 5 us)")


def _about(secs: float) -> str:
    """An estimated time in two figures of its largest unit: ``16 minutes``, ``28 hours``."""
    for unit, size in (("hours", 3600), ("minutes", 60)):
        if secs >= 2 * size:
            return f"{two_figures(secs / size):,} {unit}"
    return f"{two_figures(secs):,} seconds"


def _deepen(args: argparse.Namespace, variants) -> int:
    """``--deepen N``: the analysis tape's ``d N`` from the start, each depth printed as it is found."""
    minutes = DEEPEN_MINUTES if args.minutes is None else args.minutes
    print(f"Kalah({args.pits},{args.seeds}), {variants.describe()}: the PDP-1 (4,096 words), the analysis tape "
          f"build/prove.rim read in, deepens from the start: the value the first player finishes with, looking "
          f"1, 2, ... {args.deepen} plies ahead, for at most {minutes:g} minutes here", flush=True)

    def shown(depth: DepthRun) -> None:
        ref = depth.reference
        check = "agrees" if depth.agrees else f"DISAGREES: the reference {ref.line()!r}"
        print(f"  {depth.pdp1}  ({ref.tests} bound tests, {depth.instructions:,} instructions, "
              f"{depth.host_seconds:.1f} s here)  {check}", flush=True)

    run: DeepeningRun = deepen_start(args.pits, args.seeds, variants, args.deepen, minutes * 60, shown)
    if run.stopped:
        print(f"depth {len(run.depths) + 1} not finished within {minutes:g} minutes: stopped")
    if run.depths:
        last = run.depths[-1].reference
        lead = "level" if last.value == 0 else (f"{abs(last.value)} {'ahead' if last.value > 0 else 'behind'}")
        print(f"looking {last.depth} plies ahead the first player finishes {lead}")
        print(f"instructions {run.instructions:,} (depths 1-{last.depth})")
        _estimate(run.instructions, [run.sample], "the deepening")
    return EXIT_OK if run.agrees else EXIT_FAILURE


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge prove",
                        "The PDP-1 proves the first player's result in Kalah(m, n), cross-checked with the reference.")
    parser.add_argument("--pits", type=PITS, default=6, help="pits a side (default 6)")
    parser.add_argument("--seeds", type=SEEDS, required=True, help="seeds a pit")
    parser.add_argument("--bound", type=BOUND, default=0,
                        help="prove the first player finishes above this margin (default 0: wins)")
    parser.add_argument("--value", action="store_true", help="the exact value by bound tests, compared with ref solve")
    parser.add_argument("--pace", type=PACE, default=0.0,
                        help="1: no faster than the 1960 PDP-1; 10: ten times faster; 0 (default): full speed")
    parser.add_argument("--no-cycles", action="store_true",
                        help=f"run at full speed, counting the memory cycles of a sample only ({SLICE:,} instructions "
                             f"after every {SAMPLE_EVERY} x {FREE_SLICE:,}), for proofs too long to count")
    parser.add_argument("--deepen", type=DEEPEST, metavar="N",
                        help=f"instead of a proof: the value looking 1, 2, ... N plies ahead (1-{MAX_DEEPEN}), "
                             "each depth checked against the reference, for at most --minutes")
    parser.add_argument("--minutes", type=MINUTES, default=None,
                        help=f"with --deepen: stop after this many minutes here (0.1-1440, default {DEEPEN_MINUTES:g})")
    add_variant_flags(parser)
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    variants = variants_from(args)

    def body() -> int:
        try:
            return work()
        except SimhError as failure:
            return fail(f"the emulator failed: {str(failure).splitlines()[0]}", EXIT_FAILURE)
        except ProofTooDeep:
            raise  # both the PDP-1 and the reference reached the frames' limit: run_guarded says so, exit 3
        except ProofError as disagreement:
            return fail(str(disagreement), EXIT_FAILURE)

    def work() -> int:
        if variants.pie_rule:
            raise UsageError("--pie-rule: the proof is about the position as it stands; the swap is no part of it")
        if args.no_cycles and args.pace:
            raise UsageError("--pace needs the cycles: leave out --no-cycles")
        if args.value and args.bound:
            raise UsageError("--value makes its own bounds: leave out --bound")
        if args.minutes is not None and args.deepen is None:
            raise UsageError("--minutes is the time for --deepen: give --deepen N too")
        if args.deepen is not None:
            if args.value or args.bound or args.pace or args.no_cycles:
                raise UsageError("--deepen runs by itself at full speed: leave out --value, --bound, --pace "
                                 "and --no-cycles")
            return _deepen(args, variants)
        print(f"Kalah({args.pits},{args.seeds}), {variants.describe()}: the PDP-1 (4,096 words), the analysis tape "
              "build/prove.rim read in, proves it: null-window alpha-beta to the end of the game, a table of "
              "positions already searched", flush=True)
        positions = estimate_proof(args.pits, args.seeds, args.value, variants, args.bound)
        measured = measured_proof(args.pits, args.seeds, variants, args.value, args.bound) is not None
        announce(f"{'the bound tests of its value' if args.value else 'the proof'} (about {positions:,} positions"
                 f"{', every memory cycle counted' if not args.no_cycles else ''}"
                 f"{f', paced at {args.pace:g} times 1960 speed' if args.pace else ''})",
                 proof_seconds(positions, not args.no_cycles, args.pace),
                 "the count measured for this start" if measured else
                 "a model fitted to the measured proofs of Kalah(6,1), (6,2) and (6,3)")
        ticker = _Ticker(positions, not args.no_cycles)
        sample_every = SAMPLE_EVERY if args.no_cycles else 0
        if not args.value:
            run = prove_start(args.pits, args.seeds, variants, args.bound, progress=ticker, pace=args.pace,
                              count_cycles=not args.no_cycles, sample_every=sample_every)
            ticker.done()
            _report(run, args.pits, args.seeds)
            return EXIT_OK if run.agrees else EXIT_FAILURE

        def tested(run: ProofRun) -> None:
            ticker.done()
            print(f"  w {run.bound:3d}: pdp-1 {run.pdp1}  reference {run.reference.line()}  "
                  f"{'agrees' if run.agrees else 'DISAGREES'}" + _timing(run), flush=True)

        result = value_of_start(args.pits, args.seeds, variants, on_test=tested, progress=ticker, pace=args.pace,
                                count_cycles=not args.no_cycles, sample_every=sample_every)
        ticker.done()
        tests = result.tests
        if result.value > 0:
            verdict = f"first player wins by {result.value}"
        elif result.value == 0:
            verdict = "a draw"
        else:
            verdict = f"second player wins by {-result.value}"
        print(verdict)
        print(f"value {result.value} by {len(tests)} bound tests on the PDP-1; ref solve: value {result.solver}  "
              f"({'agrees' if result.value == result.solver else 'DISAGREES'})")
        print(f"nodes {sum(t.reference.nodes for t in tests):,}")
        print(f"instructions {sum(t.instructions for t in tests):,}")
        if args.no_cycles:
            _estimate(sum(t.instructions for t in tests), [t.sample for t in tests])
        else:
            print(f"memory cycles {sum(t.cycles or 0 for t in tests):,}")
            print(f"1960 time {clock_text(sum(t.seconds_1960 or 0.0 for t in tests))} (cycles x 5 us)")
        print(f"host time {sum(t.host_seconds for t in tests):.1f} s")
        return EXIT_OK if result.agrees else EXIT_FAILURE

    return run_guarded(body, (UsageError,), limit_errors=(ProofTooDeep,))
