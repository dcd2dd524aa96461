"""What a server of the browser edition spends on the records it receives: ``N`` finished games' records sent
to a real server (``--edition browser``, SQLite, its search worker), the server and its worker kept to one
core, each request timed from its sending to its answer.

Why these records: the browser edition's records are the games a page sends, the PDP-1's choices in them
its own.  The PDP-1 chooses as the reference does (every game of the cross-check, the fuzz and the proofs
shows it), so the records here are played by the reference for the PDP-1 and a seeded random visitor,
at the site's shipped game sizes and strengths in turn, each with a line of paper a move (a page's paper is
longer: parsing it is not what costs); the server cannot tell them from a page's, and checks each in full.
"""

from __future__ import annotations

import random
import statistics
import time
import urllib.request
from dataclasses import dataclass

from ..driver.game_records import SavedGame
from ..driver.search_pool import reference_decision
from ..driver.visitors import RandomVisitor
from ..exhibit.settings import GAME_CHOICES, STRENGTH_CHOICES
from ..machine.transcript import Title
from ..reference.game import Game
from ..reference.notation import format_position
from ..reference.rules import NORTH, SOUTH, Variants, winner
from .online_load import Measured, _tree_cpu, one_server

TARGET_P95_S = 0.050  # the row: each record received and checked within 50 ms (p95), on one core
CORE = 0  # the one core the server and its worker are kept to


@dataclass(frozen=True)
class Intake:
    """The requests' times (seconds) and the server's CPU seconds (its worker's included) over them."""

    seconds: list[float]
    cpu: float

    def row(self) -> str:
        s = sorted(self.seconds)
        p95 = s[max(0, round(0.95 * len(s)) - 1)]
        met = "met" if p95 <= TARGET_P95_S else "NOT met"
        return (f"{len(s)} records: median {statistics.median(s) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
                f"max {s[-1] * 1000:.1f} ms; the server's CPU {self.cpu / len(s) * 1000:.1f} ms a record "
                f"(target p95 <= {TARGET_P95_S * 1000:.0f} ms, one core: {met})")


def browser_record(number: int, rng: random.Random) -> str:
    """Game ``number``: the shipped choices in turn (size, strength, who moves first), played to its end."""
    sizes, strengths = list(GAME_CHOICES.values()), list(STRENGTH_CHOICES.values())
    pits, seeds = sizes[number % len(sizes)]
    level = strengths[(number // len(sizes)) % len(strengths)]
    first = "pdp-1" if (number // (len(sizes) * len(strengths))) % 2 else "you"
    game = Game.new(pits, seeds, Variants())
    pdp1 = SOUTH if first == "pdp-1" else NORTH
    visitor = RandomVisitor(rng)
    paper = []
    while not game.position.over:
        if game.position.to_move == pdp1:
            game.move(reference_decision(game.position, game.variants, level, False)[1])
        else:
            game.move(int(visitor.choose(game)))
        paper.append(f"{len(game.record)}. {game.record[-1]}  {format_position(game.position)}")
    end = game.position
    scores = {"pdp-1": end.store(pdp1), "you": end.store(SOUTH if pdp1 == NORTH else NORTH)}
    won = winner(end)
    said = "a draw" if won is None else ("pdp-1 wins" if won == pdp1 else "you win")
    result = f"pdp-1 {scores['pdp-1']}, you {scores['you']}; {said}"
    title = Title(pits, seeds, level, Variants(), first)
    return SavedGame.of(title, list(game.record), result=result, heading="game record",
                        fields=(("language", "en"),), transcript="\n".join(paper)).text()


def send(url: str, text: str) -> float:
    """One record sent; the seconds to its answer (which must be the server's 201)."""
    request = urllib.request.Request(url + "/records", data=text.encode(), method="POST",
                                     headers={"Content-Type": "text/plain; charset=utf-8"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as answer:
        answer.read()
        if answer.status != 201:
            raise RuntimeError(f"the server answered {answer.status} to a record it should keep")
    return time.perf_counter() - started


def measure_intake(records: int, seed: int) -> Intake:
    """``records`` records sent one after another to a server kept to one core (after one unmeasured record,
    which starts its search worker)."""
    rng = random.Random(seed)
    texts = [browser_record(n, rng) for n in range(records + 1)]
    with one_server("fast", None, options=("--edition", "browser"), extra_settings="workers = 1\n",
                    cpus={CORE}) as (site, _games):
        send(site.url, texts[0])
        before = _server_cpu(site)
        seconds = [send(site.url, text) for text in texts[1:]]
        return Intake(seconds, _server_cpu(site) - before)


def _server_cpu(site: Measured) -> float:
    return sum(_tree_cpu(pid) for _url, pid in site.servers)
