"""How many positions a search or a proof will visit, estimated before it starts.

Why: a depth-20 search of a 6x6 position, or a proof of Kalah(6,4), runs for days;
a person must be told so before the work starts, not find out after an hour.

* A search is estimated from a **measured probe**: the same position searched at
  depths 1, 2, 3 ... for about ``PROBE_SECONDS``, the positions per ply growing
  by the last two-ply ratio's square root (alpha-beta's counts alternate between
  odd and even depths), and the rate the probe measured.  When the probe
  reaches the depth asked for, the count is exact.
* A proof is estimated from a **model** fitted to the proofs measured from the
  6-pit starts under the standard rule (``ref prove`` and the PDP-1 give the
  same counts): Kalah(6,1) 190 positions, (6,2) 24,824, (6,3) 65,963,858.
  The positions grow about tenfold for every 4.3 seeds on the board,
  log10(positions) = -0.71 + 0.231 x seeds on the board (least squares).
  Within a factor of three of each of the three; the growth steepens with
  the seeds, so the model can only be low beyond them.  Empty capture proves
  with fewer.
* A proof from a start that has been measured is not estimated: its count is
  the measured one (``MEASURED_PROOFS``, the proof contract's counts, which
  the tests and ``make figures`` keep true); the model serves the others.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .rules import Position, Variants
from .search import MAX_DEPTH, MIN_DEPTH, best_move, check_search

PROBE_SECONDS = 0.5
PROOF_LOG_INTERCEPT, PROOF_LOG_SLOPE = -0.71, 0.231  # the proof model (see the docstring)
# ``--value``'s tests weigh a few proofs: Kalah(6,2) 156,316 positions in four tests (6.3 proofs), (6,3) two (1.4)
BOUND_TESTS = 4
# Proofs from the start measured (docs/figures.md, the prove-* and value-* sections): (pits, seeds, empty capture,
# value) -> positions, for the bound 0 (value: every bound test of the exact value).  Only the standard rule and
# empty capture are here; the other variants change the counts.
MEASURED_PROOFS = {
    (6, 1, False, False): 190, (6, 2, False, False): 24_824, (6, 3, False, False): 65_963_858,
    (6, 1, True, False): 119, (6, 2, True, False): 2_632, (6, 3, True, False): 22_264_266,
    (6, 2, False, True): 156_316, (6, 3, False, True): 93_864_975,
}


def two_figures(count: float) -> int:
    """An estimate as it deserves to be said: two significant figures (1,832,257,654 -> 1,800,000,000)."""
    if count < 100:
        return round(count)
    scale = 10 ** (len(str(round(count))) - 2)
    return round(count / scale) * scale


@dataclass(frozen=True)
class SearchEstimate:
    """The positions a search will visit (exact when the probe ran it all) and the probe's rate."""

    nodes: int
    exact: bool
    per_second: float
    probed: int  # the deepest depth the probe searched

    def basis(self) -> str:
        """Where the figure comes from, for the note that states it."""
        if self.exact:
            return f"measured: the whole search ran in the probe, {self.per_second:,.0f} positions a second"
        return (f"extrapolated from the same position searched to depth {self.probed}, "
                f"{self.per_second:,.0f} positions a second")

    @property
    def seconds(self) -> float:
        return self.nodes / self.per_second


def estimate_search(position: Position, depth: int, variants: Variants) -> SearchEstimate:
    """Search ``position`` ever deeper for about PROBE_SECONDS and extrapolate to ``depth``."""
    check_search(position, depth)
    counts: list[int] = []
    spent, visited = 0.0, 0
    for probe in range(MIN_DEPTH, depth + 1):
        began = time.perf_counter()
        nodes = best_move(position, probe, variants).nodes
        spent += time.perf_counter() - began
        counts.append(nodes)
        visited += nodes
        if spent >= PROBE_SECONDS:
            break
    per_second = visited / max(spent, 1e-6)
    if len(counts) == depth - MIN_DEPTH + 1:
        return SearchEstimate(counts[-1], True, per_second, depth)
    if len(counts) >= 3:
        growth = (counts[-1] / counts[-3]) ** 0.5
    else:
        growth = counts[-1] / counts[-2] if len(counts) == 2 else 4.0
    probed = MIN_DEPTH + len(counts) - 1
    return SearchEstimate(two_figures(counts[-1] * max(growth, 1.0) ** (depth - probed)), False, per_second, probed)


def measured_proof(pits: int, seeds: int, variants: Variants, value: bool = False, bound: int = 0) -> int | None:
    """The positions a proof from the start of Kalah(pits, seeds) was measured to visit, when it was."""
    only_capture = Variants(empty_capture=variants.empty_capture) == variants
    if bound or not only_capture:
        return None
    return MEASURED_PROOFS.get((pits, seeds, variants.empty_capture, value))


def estimate_proof(pits: int, seeds: int, value: bool = False, variants: Variants | None = None,
                   bound: int = 0) -> int:
    """How many positions a proof from the start of Kalah(pits, seeds) visits (``value``: all the bound tests
    of an exact value): the measured count when there is one, else the model's."""
    measured = measured_proof(pits, seeds, variants or Variants(), value, bound)
    if measured is not None:
        return measured
    return two_figures(proof_positions(2 * pits * seeds) * (BOUND_TESTS if value else 1))


def proof_positions(seeds_on_board: int) -> float:
    """The model's positions for a proof of a position with ``seeds_on_board`` seeds in its pits."""
    return 10 ** (PROOF_LOG_INTERCEPT + PROOF_LOG_SLOPE * seeds_on_board)


def position_proof_positions(position: Position) -> int:
    """The model's positions for proving ``position``: those of a start with as many seeds in the pits."""
    in_pits = sum(position.board) - position.board[position.pits] - position.board[2 * position.pits + 1]
    return two_figures(proof_positions(in_pits))


def estimate_position_proof(position: Position, variants: Variants) -> SearchEstimate:
    """``position_proof_positions``, at the rate a short probe of the reference searching the same position
    measures here (a proof's position costs about a search's)."""
    probe = estimate_search(position, MAX_DEPTH, variants)
    return SearchEstimate(position_proof_positions(position), False, probe.per_second, probe.probed)
