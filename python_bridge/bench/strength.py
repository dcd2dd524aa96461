"""The default level's strength: games against independent opponents from OpenSpiel.

Our side is the reference engine's ``level_move``, the default level that the PDP-1
mirrors exactly (the same pit, value and node count for every position), so playing
the reference is playing the PDP-1's choices, thousands of times faster than the
emulator.  The opponents are OpenSpiel's (PyPI ``open-spiel``), a code base that
shares nothing with ours, on its own ``mancala`` game (Kalah, 6 pits, 4 seeds,
standard rules: ``tests/bench/test_openspiel_rules.py`` plays the two side by side):

* ``ab4``, ``ab6``, ``ab8``: ``open_spiel.python.algorithms.minimax.alpha_beta_search``
  to depth 4, 6 or 8 plies (every move a ply, extra turns too, as ours).  OpenSpiel
  ships no mancala evaluation (its examples search tic-tac-toe to the end), so the
  leaves are valued by the store difference, the same evaluation ours uses, divided
  by 100: OpenSpiel values a finished game +1, 0 or -1, and the division keeps a won
  game above every unfinished one.  Deterministic: it plays the first best action.
* ``mcts1k``, ``mcts10k``: ``open_spiel.python.algorithms.mcts.MCTSBot`` with 1,000 or
  10,000 simulations, ``RandomRolloutEvaluator`` (one rollout), the settings of
  OpenSpiel's own ``examples/mcts.py`` (UCT constant 2, MCTS-Solver on), its random
  numbers seeded from ``--seed``, the opponent and the game's number.

Each game starts from a 2-ply opening (the first two moves of the game, whoever
makes them) drawn from the seed; every opening is played twice, once with us as
South (moving first) and once as North.  There are 35 distinct 2-ply openings, so
up to 70 games an opponent are all different; more games play the openings again
in the same order (alpha-beta then repeats its games exactly; MCTS, newly seeded,
does not).  Every game is the same for a seed whatever the number of jobs.

May import: ``reference`` (and ``open_spiel``, inside functions: it is an optional
package, installed by ``make bench-strength`` only).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..reference.rules import NORTH, SOUTH, STANDARD, Position, play, start_position
from ..reference.search import MAX_DEPTH, MIN_DEPTH, NODE_BUDGET, level_move
from .openspiel_layout import PITS, STORE_OF, action_of, our_board, pit_of

SEEDS = 4                    # OpenSpiel's mancala: 4 seeds a pit, 6 pits a side
OPENING_PLIES = 2
UCT_C = 2.0                  # OpenSpiel's examples/mcts.py defaults
ROLLOUTS = 1
EVALUATION_SCALE = 100       # store difference / 100 stays inside OpenSpiel's (-1, +1) game results


class OpenSpielMissing(RuntimeError):
    """The optional ``open_spiel`` package is not installed (``make bench-strength`` installs it)."""


class RulesDiverged(RuntimeError):
    """OpenSpiel's game and ours disagree on a position: its opponents would be playing another game."""


@dataclass(frozen=True)
class Opponent:
    """One of OpenSpiel's bots: alpha-beta to a depth, or MCTS with a number of simulations."""

    name: str
    kind: str      # "alpha-beta" or "mcts"
    size: int      # plies, or simulations a move

    def describe(self) -> str:
        if self.kind == "alpha-beta":
            return f"OpenSpiel alpha-beta to depth {self.size}, store difference at the leaves"
        return f"OpenSpiel MCTS, {self.size:,} simulations a move, random rollouts"


OPPONENTS = {o.name: o for o in (
    Opponent("ab4", "alpha-beta", 4), Opponent("ab6", "alpha-beta", 6), Opponent("ab8", "alpha-beta", 8),
    Opponent("mcts1k", "mcts", 1000), Opponent("mcts10k", "mcts", 10_000),
)}


def default_level() -> str:
    """What our side plays, in the reference's own figures (so a new contract names itself)."""
    return (f"default level (reference level_move, which the PDP-1 mirrors): iterative deepening, depths "
            f"{MIN_DEPTH} to {MAX_DEPTH}, within {NODE_BUDGET:,} positions a move")


def require_open_spiel() -> None:
    """Raise ``OpenSpielMissing`` unless ``open_spiel`` (and its ``pyspiel``) can be imported."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts, minimax  # noqa: F401
    except ImportError as missing:
        raise OpenSpielMissing(f"the strength benchmark needs the Python package open-spiel "
                               f"({missing.name or missing}): make bench-strength installs it") from None


# ------------------------------------------------------------------------------ the openings

def all_openings() -> list[tuple[int, ...]]:
    """Every distinct 2-ply opening of Kalah(6,4): the pits of the first two moves, in order."""
    found: list[tuple[int, ...]] = []

    def extend(position: Position, moves: tuple[int, ...]) -> None:
        if len(moves) == OPENING_PLIES or position.over:
            found.append(moves)
            return
        for pit in position.legal_pits():
            extend(play(position, pit, STANDARD).position, moves + (pit,))

    extend(start_position(PITS, SEEDS), ())
    return found


def openings_for(games: int, seed: int) -> list[tuple[int, ...]]:
    """The openings of ``games`` games (one for each pair): distinct while there are enough, in a seeded order."""
    pool = all_openings()
    random.Random(f"openings {seed}").shuffle(pool)
    pairs = games // 2
    return [pool[i % len(pool)] for i in range(pairs)]


# ------------------------------------------------------------------------------ one game

@dataclass(frozen=True)
class GameSpec:
    opponent: str
    number: int                 # 0.. within the opponent's games
    opening: tuple[int, ...]
    our_side: str
    seed: int


@dataclass(frozen=True)
class GameResult:
    opponent: str
    number: int
    our_side: str
    margin: int                 # our final store minus theirs (our engine's finished, swept game)
    moves: tuple[int, ...]      # every pit played, the opening's included


def bot_seed(spec: GameSpec) -> int:
    """The game's own seed for the opponent's random numbers (the same whatever the jobs)."""
    return random.Random(f"{spec.seed} {spec.opponent} {spec.number}").randrange(2**32)


def chooser(opponent: Opponent, spec: GameSpec):
    """A function from an OpenSpiel state to OpenSpiel's chosen action."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts, minimax

    game = pyspiel.load_game("mancala")
    if opponent.kind == "mcts":
        rng = np.random.RandomState(bot_seed(spec))
        bot = mcts.MCTSBot(game, UCT_C, opponent.size, mcts.RandomRolloutEvaluator(ROLLOUTS, rng),
                           solve=True, random_state=rng)
        return game, bot.step

    def choose(state) -> int:
        me = state.current_player()

        def stores(leaf) -> float:
            board = leaf.observation_tensor(me)
            return (board[STORE_OF[me]] - board[STORE_OF[1 - me]]) / EVALUATION_SCALE

        _, action = minimax.alpha_beta_search(game, state, value_function=stores,
                                              maximum_depth=opponent.size, maximizing_player_id=me)
        return action

    return game, choose


def play_game(spec: GameSpec) -> GameResult:
    """Play one game to the end: our level against the opponent, both boards kept in step."""
    opponent = OPPONENTS[spec.opponent]
    game, choose = chooser(opponent, spec)
    state = game.new_initial_state()
    position = start_position(PITS, SEEDS)
    moves: list[int] = []
    while not position.over:
        mover = position.to_move
        if len(moves) < len(spec.opening):
            pit = spec.opening[len(moves)]
        elif mover == spec.our_side:
            pit = level_move(position, STANDARD).pit
        else:
            side, pit = pit_of(choose(state))
            if side != mover:
                raise RulesDiverged(f"OpenSpiel moved for {side} when {mover} was to move")
        position = play(position, pit, STANDARD).position
        state.apply_action(action_of(mover, pit))
        moves.append(pit)
        if not position.over and (state.is_terminal() or our_board(state.observation_tensor(0)) != position.board):
            raise RulesDiverged(f"after moves {moves} OpenSpiel's board differs from ours")
    if not state.is_terminal():
        raise RulesDiverged(f"after moves {moves} our game is over and OpenSpiel's is not")
    return GameResult(spec.opponent, spec.number, spec.our_side, position.margin(spec.our_side), tuple(moves))


# ------------------------------------------------------------------------------ the match

def specs_for(opponents: Sequence[str], games: int, seed: int) -> list[GameSpec]:
    """Every game of the benchmark: for each opponent, each opening once as South and once as North."""
    openings = openings_for(games, seed)
    specs = []
    for name in opponents:
        for pair, opening in enumerate(openings):
            for offset, side in enumerate((SOUTH, NORTH)):
                specs.append(GameSpec(name, 2 * pair + offset, opening, side, seed))
    return specs


@dataclass(frozen=True)
class Tally:
    games: int
    wins: int
    draws: int
    losses: int
    margin_sum: int

    @classmethod
    def of(cls, results: Sequence[GameResult]) -> Tally:
        margins = [r.margin for r in results]
        return cls(len(margins), sum(m > 0 for m in margins), sum(m == 0 for m in margins),
                   sum(m < 0 for m in margins), sum(margins))

    def line(self, label: str) -> str:
        """``vs ab8: 20 games, wins 12, draws 1, losses 7, win rate 62.5%, mean margin +3.4``."""
        rate = 100 * self.wins / self.games if self.games else 0.0
        mean = self.margin_sum / self.games if self.games else 0.0
        return (f"{label}: {self.games} games, wins {self.wins}, draws {self.draws}, losses {self.losses}, "
                f"win rate {rate:.1f}%, mean margin {mean:+.1f}")


def play_all(specs: Sequence[GameSpec], jobs: int) -> Iterator[GameResult]:
    """The games' results in the order of ``specs``, played in ``jobs`` processes (here when 1)."""
    if jobs <= 1 or len(specs) <= 1:
        yield from map(play_game, specs)
        return
    with multiprocessing.get_context("fork").Pool(min(jobs, len(specs))) as pool:
        yield from pool.imap(play_game, specs, chunksize=1)


def header(games: int, seed: int) -> str:
    """The run's first line: what our side plays, on which game, from how many openings."""
    distinct = min(games // 2, len(all_openings()))
    return (f"strength of our {default_level()}; Kalah({PITS},{SEEDS}), {STANDARD.describe()}; "
            f"{games} games an opponent from {distinct} distinct {OPENING_PLIES}-ply openings, each with both "
            f"colours; seed {seed}")


def run(opponents: Sequence[str], games: int, seed: int, jobs: int, out=print) -> list[GameResult]:
    """Play the benchmark and print its lines: the header, one line an opponent as it finishes, the total, the time."""
    require_open_spiel()
    started = time.monotonic()
    out(header(games, seed))
    results: list[GameResult] = []
    current: list[GameResult] = []
    for result in play_all(specs_for(opponents, games, seed), jobs):
        results.append(result)
        current.append(result)
        if len(current) == games:
            out(Tally.of(current).line(f"vs {result.opponent}"))
            current = []
    out(Tally.of(results).line("total"))
    out(f"took {time.monotonic() - started:.1f} s with {jobs} job{'s' if jobs != 1 else ''}")
    return results


__all__ = ["OPPONENTS", "Opponent", "OpenSpielMissing", "RulesDiverged", "GameSpec", "GameResult", "Tally",
           "all_openings", "openings_for", "specs_for", "chooser", "play_game", "run", "default_level", "header"]
