"""The exact value of a Kalah(m, n) start: the first player's final margin under perfect play.

Called by ``python -m python_bridge ref solve``.  The search is MTD(f) -- a
sequence of zero-window alpha-beta searches closing in on the value -- over the
compact boards of ``kalah_fast``, with

* a **transposition table** of bounds.  Boards carry no stores, so a table
  entry holds the value of *the rest of the game* (the mover's future store
  gains minus the opponent's) and is shared by every position that differs only
  in its stores.  Each entry keeps a lower and an upper bound and the best pit
  found, which the next MTD(f) pass tries first;
* a **seed bound**: the rest of the game is worth at most the seeds still on
  the board to either side, which settles many zero-window tests at once;
* an **exact table for few seeds** (a lazily built endgame database): a board
  with at most ``exact_seeds`` seeds is solved outright by plain negamax and
  memoised, which costs less than keeping bounds where the trees are tiny;
* **move ordering**: the table's best pit, then extra-turn moves, then the rest
  by their immediate gain.

The value is the same whatever the ordering or the tables do; they only decide
how fast it comes.  The tests check it against a plain minimax over
``kalah_rules.play`` on small boards and against the published values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .fast_rules import END, EXTRA, PASS, Child, FastRules
from .rules import SOUTH, Variants, start_position


@dataclass
class SolveStats:
    """What a solve cost, for the reports in ``solve_report``."""

    nodes: int = 0
    passes: int = 0
    table_size: int = 0
    exact_size: int = 0
    table_clears: int = 0


@dataclass
class Solver:
    """Exact values of boards of one size under one variant set (tables persist between calls)."""

    m: int
    variants: Variants
    exact_seeds: int = 8
    max_table: int = 12_000_000  # about 2.5 GB; the machine is shared
    rules: FastRules = field(init=False)
    table: dict[int, tuple[int, int, int]] = field(init=False, default_factory=dict)
    exact_table: dict[int, int] = field(init=False, default_factory=dict)
    stats: SolveStats = field(init=False, default_factory=SolveStats)

    def __post_init__(self) -> None:
        self.rules = FastRules(self.m, self.variants)

    # --- exact values of small boards ----------------------------------------

    def exact(self, board: int) -> int:
        """The value of the rest of the game on ``board`` (few seeds): full negamax, memoised."""
        known = self.exact_table.get(board)
        if known is not None:
            return known
        self.stats.nodes += 1
        best = -1000
        for _pit, kind, gain, after in self.rules.children(board):
            if kind == EXTRA:
                gain += self.exact(after)
            elif kind == PASS:
                gain -= self.exact(after)
            if gain > best:
                best = gain
        self.exact_table[board] = best
        return best

    # --- zero-window search with a bound table -------------------------------

    def _ordered(self, board: int, first: int) -> list[Child]:
        """Children in search order: the table's best pit, extra turns, then by immediate gain."""
        kids = self.rules.children(board)
        kids.sort(key=_order_key, reverse=True)
        if first and kids[0][0] != first:
            for index, child in enumerate(kids):
                if child[0] == first:
                    kids.insert(0, kids.pop(index))
                    break
        return kids

    def _transposition_cut(self, kids: list[Child], beta: int) -> tuple[int, int] | None:
        """Enhanced transposition cut-off: a child whose known bounds already reach ``beta``.

        Looking all children up before searching any of them finds cut-offs
        that the first child in move order would only find after a search.
        Returns (a lower bound >= beta, its pit), or None.
        """
        table, exact_table = self.table, self.exact_table
        for pit, kind, gain, after in kids:
            if kind == END:
                if gain >= beta:
                    return gain, pit
                continue
            known = exact_table.get(after)
            if known is not None:
                lower = upper = known
            else:
                entry = table.get(after)
                if entry is None:
                    continue
                lower, upper = entry[0], entry[1]
            value = gain + lower if kind == EXTRA else gain - upper
            if value >= beta:
                return value, pit
        return None

    def bound(self, board: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value of ``board`` within (alpha, beta)."""
        seeds = self.rules.seeds(board)
        if seeds <= self.exact_seeds:
            return self.exact(board)
        # The rest of the game is worth between -seeds and +seeds.
        if seeds <= alpha:
            return seeds
        if -seeds >= beta:
            return -seeds
        lower, upper, first = self.table.get(board, (-seeds, seeds, 0))
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        self.stats.nodes += 1
        kids = self._ordered(board, first)
        cut = self._transposition_cut(kids, beta)
        if cut is not None:
            value, pit = cut
            self.table[board] = (max(lower, value), upper, pit)
            return value
        a, b = max(alpha, lower), min(beta, upper)
        best, best_pit = -1000, first
        for pit, kind, gain, after in kids:
            if kind == EXTRA:
                gain += self.bound(after, a - gain, b - gain)
            elif kind == PASS:
                gain -= self.bound(after, gain - b, gain - a)
            if gain > best:
                best, best_pit = gain, pit
                if best >= b:
                    break
                if best > a:
                    a = best
        # Fail-soft: best is exact inside the window, a lower bound above it, an upper bound below it.
        if best >= beta:
            lower = max(lower, best)
        elif best <= alpha:
            upper = min(upper, best)
        else:
            lower = upper = best
        table = self.table
        if len(table) >= self.max_table:
            table.clear()  # forgetting bounds costs time, never correctness
            self.stats.table_clears += 1
        table[board] = (lower, upper, best_pit)
        return best

    def value(self, board: int, guess: int = 0) -> int:
        """The exact value of the rest of the game on ``board``, by MTD(f) from ``guess``."""
        seeds = self.rules.seeds(board)
        if seeds <= self.exact_seeds:
            return self.exact(board)
        lower, upper = -seeds, seeds
        g = max(lower, min(upper, guess))
        while lower < upper:
            beta = g + 1 if g == lower else g
            self.stats.passes += 1
            g = self.bound(board, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        self.stats.table_size = len(self.table)
        self.stats.exact_size = len(self.exact_table)
        return g

    # --- the pie rule --------------------------------------------------------

    def first_turns(self, board: int, gained: int = 0) -> list[tuple[int, int, bool]]:
        """Every way South's first turn can end: (South's gain so far, board, game over?).

        The board is seen from North (the side to move) unless the game is over.
        """
        outcomes: list[tuple[int, int, bool]] = []
        for _pit, kind, gain, after in self.rules.children(board):
            if kind == END:
                outcomes.append((gained + gain, 0, True))
            elif kind == EXTRA:
                outcomes.extend(self.first_turns(after, gained + gain))
            else:
                outcomes.append((gained + gain, after, False))
        return outcomes

    def pie_value(self, board: int) -> int:
        """The opener's value when North may swap after South's first turn.

        After South's first turn North sees margin x = (value of the rest for
        North) - (South's gain).  Keeping its seat North gets x; swapping, it
        takes over South's side of the same board and gets -x.  So North gets
        |x| and the opener -|x|, unless the first turn already ended the game.
        The opener picks the first turn that is best for it.
        """
        best = -1000
        for gained, after, over in self.first_turns(board):
            if over:
                best = max(best, gained)
            else:
                best = max(best, -abs(self.value(after, guess=gained) - gained))
        return best


def _order_key(child: Child) -> int:
    """Extra turns first (they keep the initiative), then the larger immediate gain."""
    return child[2] + (100 if child[1] == EXTRA else 0)


def default_exact_seeds(m: int) -> int:
    """How many seeds the exact table covers: more pits mean more boards per seed count."""
    return {1: 72, 2: 16, 3: 12, 4: 10, 5: 8, 6: 8}[m]


def solve_start(pits: int, seeds: int, variants: Variants) -> int:
    """The first player's final margin under perfect play from the Kalah(pits, seeds) start."""
    return solve_report(pits, seeds, variants)[0]


def solve_report(pits: int, seeds: int, variants: Variants) -> tuple[int, SolveStats]:
    """``solve_start`` with the search's statistics (nodes, MTD(f) passes, table sizes)."""
    start = start_position(pits, seeds)  # validates m and n (RulesError)
    assert start.to_move == SOUTH
    solver = Solver(pits, variants, exact_seeds=default_exact_seeds(pits))
    board = solver.rules.encode(start)
    if variants.pie_rule:
        value = solver.pie_value(board)
    else:
        value = solver.value(board)
    solver.stats.table_size = len(solver.table)
    solver.stats.exact_size = len(solver.exact_table)
    return value, solver.stats
