"""Figures for curators: how many played, when, in which language, on which board, at which strength, and
who won -- from the games' database, whichever it is, in words and as a chart for a report.

Why from the records: each game's record is what the exhibit keeps anyway (its board, level, moves, result
and, for online games, the page's language); no other log of visitors is kept.  Days are UTC days.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from ..driver.game_records import RecordError, read_game_record
from ..exhibit.settings import GAME_CHOICES, STRENGTH_CHOICES
from .store import GameStore

DAY_S = 86_400
RESULTS = ("visitor won", "pdp-1 won", "draw", "unfinished")


@dataclass(frozen=True)
class Played:
    """One game as the figures count it."""

    day: dt.date
    language: str
    board: str
    strength: str
    result: str
    moves: int
    minutes: float


def played(rows: Iterable[tuple[float, float, bool, str]]) -> list[Played]:
    """The games among ``rows`` (created, updated, finished, record) whose records can be read."""
    games = []
    for created, updated, finished, text in rows:
        try:
            record = read_game_record(text)
        except RecordError:
            continue
        size = (record.pits, record.seeds)
        board = next((name for name, choice in GAME_CHOICES.items() if choice == size), f"{size[0]}x{size[1]}")
        level = 0 if record.level == "auto" else int(record.level)
        strength = next((name for name, lv in STRENGTH_CHOICES.items() if lv == level), f"level {level}")
        games.append(Played(dt.datetime.fromtimestamp(created, dt.timezone.utc).date(),
                            record.value_of("language", "unknown"), board, strength,
                            _result(record.result) if finished else "unfinished", len(record.moves),
                            max(0.0, updated - created) / 60))
    return games


def _result(text: str) -> str:
    if text.endswith("a draw"):
        return "draw"
    return "visitor won" if text.endswith("you win") else "pdp-1 won"


def rows_between(store: GameStore, since: dt.date | None, until: dt.date | None) -> list:
    """The played games made from ``since`` to ``until`` (UTC days, both included; None: no bound)."""
    start = _epoch(since) if since else 0.0
    end = _epoch(until) + DAY_S if until else float("inf")
    return store.games_made(start, end)


def _epoch(day: dt.date) -> float:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc).timestamp()


def report(games: list[Played], since: dt.date | None, until: dt.date | None) -> str:
    """The figures in words: a line a count, the busiest first."""
    span = f"{since or 'the first game'} to {until or 'today'}"
    finished = [g for g in games if g.result != "unfinished"]
    lines = [f"games from {span}: {len(games)} ({len(finished)} finished)"]
    if not games:
        return lines[0] + "\n"
    lines.append("by day: " + ", ".join(f"{day} {n}" for day, n in sorted(Counter(g.day for g in games).items())))
    weeks = Counter(f"{g.day.isocalendar()[0]}-W{g.day.isocalendar()[1]:02d}" for g in games)
    lines.append("by week: " + ", ".join(f"{week} {n}" for week, n in sorted(weeks.items())))
    for what in ("language", "board", "strength", "result"):
        counts = Counter(getattr(g, what) for g in games)
        lines.append(f"by {what}: " + ", ".join(f"{name} {n}" for name, n in counts.most_common()))
    if finished:
        lines.append(f"the median finished game: {statistics.median(g.minutes for g in finished):.1f} minutes, "
                     f"{statistics.median(g.moves for g in finished):g} moves")
    return "\n".join(lines) + "\n"


def chart(games: list[Played], since: dt.date | None, until: dt.date | None) -> str:
    """An SVG a curator can put in a report: games a day as bars, each split by its result."""
    days = sorted({g.day for g in games})
    first = since or (days[0] if days else dt.date.today())
    last = until or (days[-1] if days else first)
    span = [first + dt.timedelta(n) for n in range((last - first).days + 1)][:366]
    by_day = {day: Counter(g.result for g in games if g.day == day) for day in span}
    tallest = max([sum(c.values()) for c in by_day.values()] + [1])
    step, bar, left, bottom, top, height = 22, 16, 44, 44, 34, 280
    width = max(520, left + 4 + step * len(span) + 10)
    scale = (height - bottom - top) / tallest
    colours = {"visitor won": "#2e7d32", "pdp-1 won": "#b71c1c", "draw": "#6d6d6d", "unfinished": "#c9a227"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 24}" '
             f'viewBox="0 0 {width} {height + 24}" font-family="DejaVu Sans, sans-serif" font-size="11">',
             f"<title>Kalah on the PDP-1: games a day, {first} to {last}</title>",
             f'<rect width="{width}" height="{height + 24}" fill="#fff"/>',
             f'<text x="{left}" y="18" font-size="13">Games a day, {first} to {last}, by result (UTC days)</text>']
    for count in sorted({0, (tallest + 1) // 2, tallest}):  # the scale: none, half, the busiest day
        y = height - bottom - count * scale
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" stroke="#ccc"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{count}</text>')
    for n, day in enumerate(span):
        x, y = left + 4 + step * n, height - bottom
        for result in RESULTS:
            count = by_day[day][result]
            if count:
                y -= count * scale
                parts.append(f'<rect class="bar" data-day="{day}" data-result="{result}" x="{x}" y="{y:.1f}" '
                             f'width="{bar}" height="{count * scale:.1f}" fill="{colours[result]}"/>')
        if len(span) <= 31 or day.day in (1, 15):
            label = day.strftime("%b %-d") if day.day == 1 and n else str(day.day)
            parts.append(f'<text x="{x + bar / 2}" y="{height - bottom + 15}" text-anchor="middle" '
                         f'font-size="10">{label}</text>')
    for n, result in enumerate(RESULTS):
        x = left + 118 * n
        parts.append(f'<rect x="{x}" y="{height - 6}" width="11" height="11" fill="{colours[result]}"/>'
                     f'<text x="{x + 15}" y="{height + 4}">{result}</text>')
    return "\n".join(parts + ["</svg>"]) + "\n"
