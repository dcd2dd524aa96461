"""``python -m python_bridge ref ...``: the reference engine on the command line, for scripts and people.

    ref move "<position>" <pit> [variants]    -> the resulting position
    ref best "<position>" <depth> [variants]  -> best <pit> value <v> nodes <k>
    ref best "<position>" level [variants]    -> the same for the default level, then depth <d>
    ref prove "<position>" <bound> [variants] -> above <yes|no> nodes <k> (the PDP-1's w command)
    ref solve --pits m --seeds n [variants]   -> the game value and the time it took
    ref batch [variants]                      -> one answer line for each stdin line, in order

Bad input prints one line to stderr and exits 2; a legal question that passes a
limit of the reference (``ref prove`` needing more plies than the PDP-1's frames hold)
prints one line and exits 3 (``tools.cli_args.EXIT_LIMIT``).  In batch mode a bad
line (an empty one too) answers a line starting ``error`` and the batch goes on: the n-th answer is
always the n-th line's.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..reference.estimates import estimate_position_proof, estimate_search, position_proof_positions
from ..reference.notation import NotationError, format_position, parse_position
from ..reference.prove import MAX_BOUND, ProofError, ProofTooDeep, prove
from ..reference.rules import ENDED, RulesError, Variants, play
from ..reference.search import MAX_DEPTH, MIN_DEPTH, SearchError, best_move, level_move
from .progress import CountTicker, announce
from .validators import (
    EXIT_OK,
    PITS,
    SEEDS,
    UsageError,
    add_variant_flags,
    new_parser,
    run_guarded,
    shown,
    variants_from,
)

INPUT_ERRORS = (NotationError, RulesError, SearchError, ProofError, UsageError)
MAX_DIGITS = 18          # pits and depths are small; a longer number is refused before int() sees it
# The largest starts solved in minutes here (pits x seeds): Kalah(4,5), (5,4), (6,3) take minutes,
# Kalah(6,6) grows by 30 MB every 5 s for hours.  Larger ones need --anyway.
SOLVE_LIMIT = 20
WATCHED_FROM_DEPTH = 9   # shallower searches take well under a second: no probe, no estimate
WATCHED_FROM_POSITIONS = 100_000  # a proof the model makes smaller takes seconds: no probe, no estimate


def _int_arg(text: str, what: str, allowed: str) -> int:
    """A decimal integer with at most one leading minus sign; ``allowed`` words the range for a refusal
    (the range itself is checked by the rules, the search or the proof, which say it too)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        raise UsageError(f"{what} must be {allowed}, not {shown(text)}")
    return int(text)


DEPTHS = f"{MIN_DEPTH} to {MAX_DEPTH}, or level (the PDP-1's default level)"
BOUNDS = f"a whole number from {-MAX_BOUND} to {MAX_BOUND}"


def answer_move(position_text: str, pit_text: str, variants: Variants) -> str:
    position = parse_position(position_text)
    return format_position(play(position, _int_arg(pit_text, "pit", f"1 to {position.pits}"), variants).position)


def answer_best(position_text: str, depth_text: str, variants: Variants, watched: bool = False) -> str:
    """``best <pit> value <v> nodes <k>``; with the depth ``level``, the PDP-1's default level,
    the nodes are those of every search and ``depth <d>`` follows (the deepest finished search).

    ``watched`` (the ``best`` command, not a batch line): a deep search is first estimated and
    announced on stderr when long, and shows its progress there."""
    position = parse_position(position_text)
    if depth_text == "level":
        chosen = level_move(position, variants)
        return f"best {chosen.pit} value {chosen.value} nodes {chosen.nodes} depth {chosen.depth}"
    depth = _int_arg(depth_text, "depth", DEPTHS)
    if not MIN_DEPTH <= depth <= MAX_DEPTH:
        raise UsageError(f"depth must be {DEPTHS}, not {depth}")
    if not watched or depth < WATCHED_FROM_DEPTH:
        return best_move(position, depth, variants).line()
    estimate = estimate_search(position, depth, variants)
    announce(f"the depth-{depth} search (about {estimate.nodes:,} positions)", estimate.seconds, estimate.basis())
    ticker = CountTicker("positions", estimate.nodes)
    try:
        return best_move(position, depth, variants, progress=ticker).line()
    finally:
        ticker.done()


def answer_prove(position_text: str, bound_text: str, variants: Variants) -> str:
    """``above <yes|no> nodes <k>``: does the side to move finish above the bound (``reference.prove``)?

    A long proof is announced first (a model of its size, the rate measured here) and shows its progress."""
    position = parse_position(position_text)
    bound = _int_arg(bound_text, "bound", BOUNDS)
    if (position.to_move == ENDED or not -MAX_BOUND <= bound <= MAX_BOUND
            or position_proof_positions(position) < WATCHED_FROM_POSITIONS):
        return prove(position, bound, variants).line()  # refused at once, or short: no probe, no estimate
    estimate = estimate_position_proof(position, variants)
    announce(f"the proof (about {estimate.nodes:,} positions)", estimate.seconds,
             f"a model fitted to the measured proofs, at {estimate.per_second:,.0f} positions a second measured "
             f"searching this position")
    ticker = CountTicker("positions", estimate.nodes)
    try:
        return prove(position, bound, variants, progress=ticker).line()
    finally:
        ticker.done()


BATCH_FORM = "expected 'move <position> <pit>' or 'best <position> <depth>'"
BATCH_HELP = ("Answer move/best commands read from stdin, one a line, with one line each, in order: a line "
              "'move <position> <pit>' is answered with the position after the move, 'best <position> <depth>' "
              "(depth 1-20 or level) with 'best <pit> value <v> nodes <k>'; a position is written as for "
              "the move command, e.g. 'best 4 4 4 4 4 4 0 4 4 4 4 4 4 0 s 6'.  Any other line, an empty one "
              "too, is answered 'error <why>' and the batch goes on; the rule options apply to every line.")


def answer_batch_line(line: str, variants: Variants) -> str:
    """Answer one batch command: ``move <position> <pit>`` or ``best <position> <depth>``.

    Whatever the line holds, the answer is one line: ``error ...`` for a bad one, so a
    batch goes on past it."""
    if not line.strip():
        return f"error an empty line: {BATCH_FORM}"
    words = line.strip().split(" ", 1)
    if len(words) != 2 or words[0] not in ("move", "best"):
        return f"error {BATCH_FORM}"
    head, _, last = words[1].rpartition(" ")
    try:
        if words[0] == "move":
            return answer_move(head, last, variants)
        return answer_best(head, last, variants)
    except INPUT_ERRORS as exc:
        return "error " + " ".join(str(exc).split())


def _stdin_lines():
    """stdin's lines as text; bytes that are not UTF-8 become U+FFFD (answered ``error``, not a traceback)."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:
        yield from sys.stdin
        return
    for raw in binary:
        yield raw.decode("utf-8", "replace")


def check_solve_size(pits: int, seeds: int, anyway: bool) -> None:
    if pits * seeds > SOLVE_LIMIT and not anyway:
        raise UsageError(f"Kalah({pits},{seeds}) would run for hours and take gigabytes: starts up to "
                         f"pits x seeds = {SOLVE_LIMIT} are solved in minutes (--anyway to try)")


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge ref", "The Kalah reference engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=type(parser), metavar="COMMAND")

    p_move = sub.add_parser("move", help="play a pit and print the resulting position",
                            description="Play a pit and print the resulting position.")
    p_move.add_argument("position", help='a position, e.g. "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"')
    p_move.add_argument("pit", help="the pit to play, 1 to the pits a side")
    add_variant_flags(p_move)

    p_best = sub.add_parser("best", help="search a position: best <pit> value <v> nodes <k>",
                            description="Search a position: best <pit> value <v> nodes <k>.")
    p_best.add_argument("position", help='a position, e.g. "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"')
    p_best.add_argument("depth", help="plies to search, 1 to 20, or 'level' for the PDP-1's default level")
    add_variant_flags(p_best)

    p_prove = sub.add_parser("prove", help="prove a bound to the end of the game: above <yes|no> nodes <k>",
                             description="Does the side to move, with perfect play by both to the end of the game, "
                                         "finish above the bound? above <yes|no> nodes <k>.")
    p_prove.add_argument("position", help='a position, e.g. "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"')
    p_prove.add_argument("bound", help="the final margin to beat, a signed whole number such as 0, 5 or -3")
    add_variant_flags(p_prove)

    p_solve = sub.add_parser("solve", help="the exact value of a starting position",
                             description="The exact value of a starting position under perfect play.")
    p_solve.add_argument("--pits", type=PITS, required=True, help="pits a side")
    p_solve.add_argument("--seeds", type=SEEDS, required=True, help="seeds a pit")
    p_solve.add_argument("--anyway", action="store_true",
                         help=f"solve even a start larger than pits x seeds = {SOLVE_LIMIT} (hours, gigabytes)")
    add_variant_flags(p_solve)

    p_batch = sub.add_parser("batch", help="answer move/best commands read from stdin, one line for each line",
                             description=BATCH_HELP)
    add_variant_flags(p_batch)
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    variants = variants_from(args)

    def run() -> int:
        if args.command == "move":
            print(answer_move(args.position, args.pit, variants))
        elif args.command == "best":
            print(answer_best(args.position, args.depth, variants, watched=True))
        elif args.command == "prove":
            print(answer_prove(args.position, args.bound, variants))
        elif args.command == "solve":
            from ..reference.solver import solve_start

            check_solve_size(args.pits, args.seeds, args.anyway)
            began = time.perf_counter()
            value = solve_start(args.pits, args.seeds, variants)
            took = time.perf_counter() - began
            print(f"value {value} pits {args.pits} seeds {args.seeds} time {took:.2f}s")
        else:
            for line in _stdin_lines():
                print(answer_batch_line(line.rstrip("\n"), variants), flush=True)
        return EXIT_OK

    return run_guarded(run, INPUT_ERRORS, limit_errors=(ProofTooDeep,))
