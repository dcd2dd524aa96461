"""The reference proof search: the exact specification of the PDP-1's ``w <bound>`` command.

John McCarthy wrote in 1979 that the early-sixties PDP-1 Kalah programs showed
"the game is a win for the first player when it starts with one, two, or three
stones in a pit".  ``prove`` asks the question such a proof answers: does the
side to move, with perfect play by both sides to the end of the game, finish
with a final margin (its store less the other store) greater than ``bound``?
The PDP-1 must give the same answer and the same node count for every
position, bound and variant set, so every detail here is part of the contract.
The readable proof below (``_Prover``; ``spec_prove`` and ``spec_deepen``) is the
specification; ``prove``, ``deepen`` and ``exact_value``, which every caller uses,
give its answers from ``fast_prove``, the same proof on ``fast_board``'s integer
board (the same positions in the same order, the same table entries: Kalah(6,3)'s
proof in about two minutes of a core, where the readable one took over twenty),
tested against it on seeded random positions and bounds under every variant set
(tests/reference/test_fast_prove.py) and measured beside it by ``make bench-ref``.
The contract:

* **Null-window negamax alpha-beta, fail-hard**, to the end of the game: no
  depth limit and no evaluation but the final margin.  The root's window is
  (bound, bound + 1) from the side to move; since no value lies strictly
  inside a null window, alpha never rises and every node either fails high
  (value >= beta: the side to move there can finish above its alpha) or fails
  low (value <= alpha).  ``above`` is the root failing high.
* **Views and windows** as in ``search.best_move``: a child reached by a move
  that keeps the turn (extra turn) or ends the game takes the mover's view
  and window and its value is not negated; a child where the turn passed is
  searched from the opponent's view with the window negated and swapped,
  (-beta, -alpha), and its value negated.  So a node's window depends only on
  its side: (bound, bound + 1) for the root's side, (-bound - 1, -bound) for
  the other.
* **Leaves** are finished games only, valued by the final margin from the
  mover's view (the stores after the end-of-game sweep of the variants).
* **Cut-off**: a move whose value reaches beta ends the node at once (the
  remaining moves are not tried); a node whose moves all stay at or below
  alpha fails low.
* **Nodes**: every position whose moves the search tries counts once -- the
  root and every position reached in which the game goes on.  A finished game
  reached by a move is valued, not counted (unlike ``best``, whose leaves are
  cut by depth and count): the count is the positions searched.
* **Move order** (``proof_order``): the extra-turn pits from pit m down to
  pit 1 (``search.move_order``'s first pass), then the pits whose move
  captures, from pit m down, then every other non-empty pit from pit m down.
  A capture found first is often the move that proves a node: in the order
  of the game's search alone Kalah(6,2) took 243,261 positions, and a
  Kalah(6,3) proof on the PDP-1 ran past 322 million unfinished; with the
  captures brought forward, 24,824 and 65,963,858.  Whether a
  pit captures is read off the board without playing it (``captures``):
  with c seeds in pit k the last one falls in own pit j = k + c when j <= m,
  a capture when pit j is empty and the pit facing it is not (or the
  empty-capture variant is in force); a move that goes round, j = k + c -
  (2m + 1), captures when j = k (the emptied pit gets the last seed) or when
  j < k and pit j is empty (the pit facing it has had a seed on the way).
* **Deepening** (``deepen``): for depth 1, 2, ... n, the value looking that
  many plies ahead, found by bound tests from the value one ply shallower
  (0 for depth 1), g: the test ``g - 1`` first; above it, then ``g``, ``g + 1``
  ... until a bound not passed, which is the value; else ``g - 2``, ``g - 3``
  ... until a bound passed, and the value is one more.  A depth's count is
  the positions of all its tests.
* **The pie rule** is not part of the search (as for ``best``): the question
  is about the position as it stands.
* **The table** (``ProofTable``): the analysis tape keeps the answers of
  positions already searched in a transposition table of ``TABLE_ENTRIES``
  entries in the core the frames leave, emptied at the start of every proof.
  Since a node's window depends only on its side, a position's answer (fails
  high or low for the side to move) is the same wherever the proof meets it.
  Only positions whose twelve pits each hold at most 7 seeds are kept; an
  entry is three words --

  - ``a``: south's pits, 3 bits each, pit 1 highest (pits beyond m are 0);
  - ``b``: north's pits, the same;
  - ``k + answer``: ``k`` = 4 x south's store + 2 x the side to move (0 south,
    1 north), plus 1 if the position fails high.

  The slot is ``h xor (h rotated 9 bits)``, its low 8 bits, where
  ``h = a xor b xor k`` (18-bit words).  Every position reached by a move in
  which the game goes on is first looked up: found (all three words agree),
  its answer is taken and the position is neither counted nor searched.
  Every position searched (the root too) writes its answer into its slot
  when it has one, replacing whatever was there.  An empty entry is zeros,
  which no position kept can match (the side to move has a seed).
* **Looking ahead** (``depth`` d, not 0: the analysis tape's deepening, ``d n``):
  a position reached by a move at ply d (the root is ply 0), the game going
  on, is a leaf valued like a finished game, by its stores' difference from
  the mover's view, and neither counted nor looked up; the table's ``k``
  holds 512 x (d - 1 - ply) more, ply the keyed position's, so that an
  answer is only taken at the same plies left.
* **Depth**: a proof is as deep as the longest line it follows.  The PDP-1
  keeps one frame a ply for ``MAX_PLIES`` plies; a proof that would need more
  is refused (``ProofError``; the PDP-1 answers ``error``), by both sides alike,
  at the first node that would be deeper (a position found in the table is
  not a node).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from .fast_board import fits
from .fast_prove import TooDeep, fast_prove
from .rules import ENDED, NORTH, STANDARD, Position, Variants, opposite_index, other, pit_index, play
from .search import PROGRESS_MASK, move_passes

MAX_PLIES = 140  # frames the PDP-1 keeps (the root is ply 0; a node at ply MAX_PLIES is refused)
MAX_BOUND = 99  # bounds are -99..99: every margin lies within -72..72
TABLE_ENTRIES = 256  # the analysis tape's transposition table: entries of three words
TABLE_PIT_MAX = 7  # a position is kept only when every pit holds at most this many seeds (3 bits)
WORD = 0o777777
PLY_KEY = 0o1000  # deepening: the table's k holds this times the plies left (the PDP-1's frame offset rotated 6)
MAX_DEEPEN = 99  # ``d n``: n is 1 to 99


def _pits_word(cells: tuple[int, ...]) -> int:
    """A row's pits, 3 bits each, pit 1 in the highest field of six (pits beyond m are 0)."""
    word = 0
    for k in range(6):
        word = (word << 3) | (cells[k] if k < len(cells) else 0)
    return word


def table_key(position: Position, plies_left: int = 0) -> tuple[int, int, int] | None:
    """The table's key words ``(a, b, k)`` of a position, or None when a pit holds more than 7 seeds.

    ``plies_left``: deepening, d - 1 - the position's ply (0 in a proof to the end)."""
    m, board = position.pits, position.board
    south, north = board[:m], board[m + 1:2 * m + 1]
    if max(south + north) > TABLE_PIT_MAX:
        return None
    return (_pits_word(south), _pits_word(north),
            4 * board[m] + 2 * (position.to_move == NORTH) + PLY_KEY * plies_left)


def table_slot(key: tuple[int, int, int]) -> int:
    """The entry a key goes in: h xor (h rotated 9 bits), its low 8 bits, h = a xor b xor k."""
    a, b, k = key
    h = a ^ b ^ k
    return (h ^ (((h >> 9) | (h << 9)) & WORD)) & (TABLE_ENTRIES - 1)


class ProofTable:
    """The analysis tape's transposition table, word for word: ``TABLE_ENTRIES`` entries of three words."""

    def __init__(self) -> None:
        self.words = [0] * (3 * TABLE_ENTRIES)

    def probe(self, key: tuple[int, int, int]) -> bool | None:
        """The answer kept for ``key`` (True: fails high), or None when its slot holds another position."""
        at = 3 * table_slot(key)
        a, b, last = self.words[at:at + 3]
        if a == key[0] and b == key[1] and last & ~1 == key[2]:
            return bool(last & 1)
        return None

    def store(self, key: tuple[int, int, int], high: bool) -> None:
        at = 3 * table_slot(key)
        self.words[at:at + 3] = [key[0], key[1], key[2] + high]


def captures(position: Position, pit: int, variants: Variants = STANDARD) -> bool:
    """Whether the side to move's ``pit`` (it holds seeds) captures, read off the board as the PDP-1 reads
    it (the module's docstring), without playing the move: where its last seed falls, and what lies
    there and opposite."""
    m, board = position.pits, position.board
    first = pit_index(m, position.to_move, 1)
    seeds = board[first + pit - 1]
    land = pit + seeds
    if land <= m:
        return board[first + land - 1] == 0 and (variants.empty_capture
                                                  or board[opposite_index(m, first + land - 1)] > 0)
    land -= 2 * m + 1
    return land == pit or (1 <= land < pit and board[first + land - 1] == 0)


def proof_order(position: Position, variants: Variants = STANDARD) -> list[int]:
    """The proof's move order: the extra-turn pits, then the capturing pits, then the rest, each from pit
    m down."""
    extra, rest = move_passes(position)
    taking = [pit for pit in rest if captures(position, pit, variants)]
    return extra + taking + [pit for pit in rest if pit not in taking]


class ProofError(ValueError):
    """A proof the contract does not define (finished game, bound out of range, too deep)."""


class ProofTooDeep(ProofError):
    """A legal question whose proof needs more than ``MAX_PLIES`` plies: a limit of the PDP-1's frames
    (which the reference keeps too), not a mistake in the question."""


@dataclass(frozen=True)
class ProofResult:
    above: bool
    nodes: int
    deepest: int  # the deepest ply reached (the root is ply 0); not part of the answer line

    def line(self) -> str:
        """The answer line shared by ``ref prove`` and the PDP-1's ``w`` command."""
        return f"above {'yes' if self.above else 'no'} nodes {self.nodes}"


class _Prover:
    """One proof: holds the variants, the table, the node counter and the deepest ply while recursing."""

    def __init__(self, variants: Variants, progress: Callable[[int], None] | None = None,
                 depth: int = 0, table: ProofTable | None = None) -> None:
        self.variants = variants
        self.depth = depth  # 0: to the end of the game; else the horizon's ply
        self.table = ProofTable() if table is None else table
        self.nodes = 0
        self.deepest = 0
        self.progress = progress  # told the nodes so far every 65,536 nodes (a long proof's progress)

    def key(self, position: Position, ply: int) -> tuple[int, int, int] | None:
        return table_key(position, self.depth - 1 - ply if self.depth else 0)

    def child(self, position: Position, view: str, ply: int, alpha: int, beta: int) -> int:
        """A position reached by a move, the game going on: the table's answer, else its search."""
        key = self.key(position, ply)
        if key is not None:
            high = self.table.probe(key)
            if high is not None:
                return beta if high else alpha
        return self.negamax(position, view, ply, alpha, beta, key)

    def negamax(self, position: Position, view: str, ply: int, alpha: int, beta: int,
                key: tuple[int, int, int] | None) -> int:
        """Fail-hard value of ``position`` (not finished) from ``view``, the side to move."""
        self.nodes += 1
        if not self.nodes & PROGRESS_MASK and self.progress is not None:
            self.progress(self.nodes)
        if ply >= MAX_PLIES:
            raise ProofTooDeep(f"the proof needs more than {MAX_PLIES} plies")
        self.deepest = max(self.deepest, ply)
        value = self._search(position, view, ply, alpha, beta)
        if key is not None:
            self.table.store(key, value >= beta)
        return value

    def _search(self, position: Position, view: str, ply: int, alpha: int, beta: int) -> int:
        for pit in proof_order(position, self.variants):
            child = play(position, pit, self.variants).position
            if child.to_move == ENDED or ply + 1 == self.depth:
                value = child.margin(view)
            elif child.to_move == view:
                value = self.child(child, view, ply + 1, alpha, beta)
            else:
                value = -self.child(child, other(view), ply + 1, -beta, -alpha)
            if value >= beta:
                return beta
            if value > alpha:
                alpha = value  # never happens in a null window; kept to show it is plain alpha-beta
        return alpha


def prove(position: Position, bound: int, variants: Variants = STANDARD,
          progress: Callable[[int], None] | None = None, depth: int = 0,
          table: ProofTable | None = None) -> ProofResult:
    """Does the side to move finish with a margin above ``bound`` under perfect play?

    ``progress``: told the positions searched so far every 65,536 (it changes nothing in the proof).
    ``depth`` d: looking only d plies ahead (deepening's tests; 0, the default: to the end).
    ``table``: an empty ``ProofTable`` to leave as the proof leaves it (a fresh one by default).

    The answer is ``spec_prove``'s, found by ``fast_prove`` (the same positions in the same order, the
    same table, seven to eleven times sooner); a board past ``fast_board`` (more than 255 seeds, more than 6
    pits), or a table of another kind than ``ProofTable`` or not empty, goes to the readable proof itself.
    """
    check_proof(position, bound)
    return _bound_test(position, bound, variants, progress, depth, table)


def spec_prove(position: Position, bound: int, variants: Variants = STANDARD,
               progress: Callable[[int], None] | None = None, depth: int = 0,
               table: ProofTable | None = None) -> ProofResult:
    """``prove`` by the readable proof alone (``_Prover``): the specification the fast proof is tested
    against, and the other side of ``make bench-ref``'s proof rows."""
    check_proof(position, bound)
    return _spec_bound_test(position, bound, variants, progress, depth, table)


def check_proof(position: Position, bound: int) -> None:
    """ProofError unless ``position`` can be proved against ``bound`` (checked before any work)."""
    if position.to_move == ENDED:
        raise ProofError("the game is over")
    if not -MAX_BOUND <= bound <= MAX_BOUND:
        raise ProofError(f"the bound must be -{MAX_BOUND} to {MAX_BOUND}, not {bound}")


def _bound_test(position: Position, bound: int, variants: Variants, progress: Callable[[int], None] | None,
                depth: int, table: ProofTable | None = None) -> ProofResult:
    """``prove`` without the checks of its question (deepening's tests may pass any bound), by the fast
    proof when it can take the question."""
    if not fits(position) or (table is not None and (type(table) is not ProofTable or any(table.words))):
        return _spec_bound_test(position, bound, variants, progress, depth, table)
    kept: list[tuple[int, Position, int, bool]] | None = None if table is None else []
    try:
        above, nodes, deepest = fast_prove(position, bound, variants, depth, MAX_PLIES, progress,
                                           PROGRESS_MASK + 1, kept)
    except TooDeep as refusal:
        raise ProofTooDeep(str(refusal)) from None
    if table is not None and kept is not None:
        for slot, found, plies_left, high in kept:
            key = table_key(found, plies_left)
            table.words[3 * slot:3 * slot + 3] = [key[0], key[1], key[2] + high]  # type: ignore[index]
    return ProofResult(above, nodes, deepest)


def _spec_bound_test(position: Position, bound: int, variants: Variants, progress: Callable[[int], None] | None,
                     depth: int, table: ProofTable | None = None) -> ProofResult:
    """``spec_prove`` without the checks of its question: the readable proof."""
    prover = _Prover(variants, progress, depth, table)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * MAX_PLIES + 200))
    try:
        value = prover.negamax(position, position.to_move, 0, bound, bound + 1, prover.key(position, 0))
    finally:
        sys.setrecursionlimit(limit)
    return ProofResult(value > bound, prover.nodes, prover.deepest)


@dataclass(frozen=True)
class DepthValue:
    """One line of the deepening: the value looking ``depth`` plies ahead, and the positions its tests searched."""

    depth: int
    value: int
    nodes: int
    tests: int

    def line(self) -> str:
        """The line the PDP-1's ``d n`` types for this depth."""
        return f"depth {self.depth} value {self.value} nodes {self.nodes}"


BoundTest = Callable[[Position, int, Variants, Callable[[int], None] | None, int], ProofResult]


def deepen(position: Position, deepest: int, variants: Variants = STANDARD,
           on_depth: Callable[[DepthValue], None] | None = None) -> list[DepthValue]:
    """The values looking 1, 2, ... ``deepest`` plies ahead, each by bound tests from the one before
    (the contract in this module's docstring); ``on_depth`` is told each as it is found.  Each test is
    ``prove``'s (the fast proof); ``spec_deepen`` makes them by the readable one."""
    return _deepen(position, deepest, variants, on_depth, _bound_test)


def spec_deepen(position: Position, deepest: int, variants: Variants = STANDARD,
                on_depth: Callable[[DepthValue], None] | None = None) -> list[DepthValue]:
    """``deepen`` by the readable proof's tests: the specification the fast one is tested against."""
    return _deepen(position, deepest, variants, on_depth, _spec_bound_test)


def _deepen(position: Position, deepest: int, variants: Variants, on_depth: Callable[[DepthValue], None] | None,
            bound_test: BoundTest) -> list[DepthValue]:
    """``deepen`` with each bound test made by ``bound_test``."""
    if position.to_move == ENDED:
        raise ProofError("the game is over")
    if not 1 <= deepest <= MAX_DEEPEN:
        raise ProofError(f"the depth must be 1 to {MAX_DEEPEN}, not {deepest}")
    found: list[DepthValue] = []
    guess = 0
    for depth in range(1, deepest + 1):
        nodes = tests = 0

        def above(bound: int, depth: int = depth) -> bool:
            nonlocal nodes, tests
            result = bound_test(position, bound, variants, None, depth)
            nodes += result.nodes
            tests += 1
            return result.above

        if above(guess - 1):
            bound = guess
            while above(bound):
                bound += 1
            guess = bound
        else:
            bound = guess - 2
            while not above(bound):
                bound -= 1
            guess = bound + 1
        found.append(DepthValue(depth, guess, nodes, tests))
        if on_depth is not None:
            on_depth(found[-1])
    return found


def margin_step(variants: Variants = STANDARD) -> int:
    """2 when every final margin has the parity of the seeds on the board, else 1: without the remainder-void
    variant every seed ends in a store, so a margin is twice a store less all the seeds."""
    return 1 if variants.remainder_void else 2


def exact_value(position: Position, variants: Variants = STANDARD, low: int = -72, high: int = 72,
                test=None) -> tuple[int, list[tuple[int, ProofResult]]]:
    """The exact final margin by bound tests: the value in [low, high].

    Only margins the game can end with are candidates (``margin_step``: of one parity, unless seeds can
    go to nobody), and a test of ``b`` splits them into those above ``b`` and the rest.  The first test
    asks whether the side to move wins (``w 0``); the next ones go outward from 0 in strides that double,
    in the direction the answers point (a value is usually near 0, and the tests near it cost the
    most), until an answer turns; then a binary search between the two.  A test whose candidates are
    split where 0 would split them asks 0.  ``test(bound)`` answers one bound test (by default ``prove``
    here; ``prove --value`` passes one that runs the PDP-1).  Returns the value and every test made, in
    order, so the caller can show and check each one.
    """
    ask = test or (lambda b: prove(position, b, variants))
    step = margin_step(variants)
    seeds = sum(position.board) % step

    def down(v: int) -> int:
        """The largest candidate at most ``v``."""
        return v - (v - seeds) % step

    least, most = down(low + step - 1), down(high)  # the value is a candidate in [least, most]
    tests: list[tuple[int, ProofResult]] = []
    bound, stride, turned, first = down(0), step, False, None
    while least < most:
        bound = min(max(bound, least), most - step)
        asked = 0 if bound <= 0 < bound + step else bound
        result = ask(asked)
        tests.append((asked, result))
        first = result.above if first is None else first
        turned = turned or result.above != first
        if result.above:
            least = bound + step
        else:
            most = bound
        if turned:
            bound = down((least + most) // 2)
        else:
            bound += stride if result.above else -stride
            stride *= 2
    return least, tests
