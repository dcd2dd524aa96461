"""Reading back a saved game record, and replaying it move by move against the reference.

Why here, beside ``record_files`` (which names the files): the records ``play``
and the demonstration write are read by ``replay``, so what a record holds is
stated once, for both sides.  A record is text; before the line
``typewriter transcript:`` it has ``key: value`` lines.  The reader needs:

* the game's size and rules: ``pits 6  seeds 4  level auto  rules: standard rules``
  (``play``) or ``settings: 6 pits, 4 seeds, level auto, empty capture`` (the
  demonstration); the rules as ``Variants.describe`` words them;
* the moves: ``record: 3 4 swap 6 ...`` (``reference.notation``'s record; empty
  or ``(no move)`` for a game left before its first move);
* who sat South (who moved first): ``first: you|pdp-1`` (``play``), or else the
  title the PDP-1 typed at the head of the transcript (``you move first.``,
  ``the pdp-1 moves first.``, ``the pdp-1 plays both sides.``);
* the ``result:`` line, shown as written.

``replay_steps`` plays the moves from the start position with the reference's
rules; a move the rules refuse is a ``RecordError`` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from ..machine.transcript import VARIANT_WORDS, ParseError, Title, TranscriptParser
from ..reference.game import Game
from ..reference.notation import NotationError, parse_record
from ..reference.rules import ENDED, NORTH, SOUTH, MoveResult, Position, RulesError, Variants, start_position

TRANSCRIPT_HEADING = "typewriter transcript:"
_PLAY_SETTINGS = re.compile(r"pits (\d+)  seeds (\d+)  level (\d+|auto)  rules: (.+)")
_DEMO_SETTINGS = re.compile(r"settings: (\d+) pits?, (\d+) seeds?, level (\d+|auto), (.+)")
NO_MOVE = "(no move)"
SIDE_NAMES = {SOUTH: "south", NORTH: "north"}


class RecordError(ValueError):
    """A text that is not a game record, or a record the rules refuse: the message is one line."""


@dataclass(frozen=True)
class SavedGame:
    """What a record says: the game's size, rules, moves, who moved first, and the result as written."""

    pits: int
    seeds: int
    level: str
    variants: Variants
    moves: list[int | str]
    first: str  # "you", "pdp-1", "both", or "" when the record does not say
    result: str

    def player(self, side: str, game: Game) -> str:
        """Who sits on ``side`` now (after a pie-rule swap the opener sits North)."""
        if self.first not in ("you", "pdp-1"):  # both sides the PDP-1's, or not said: the sides' names
            return SIDE_NAMES[side]
        other = "pdp-1" if self.first == "you" else "you"
        return self.first if side == game.opener_side() else other


@dataclass(frozen=True)
class Step:
    """One move replayed: its number, what was played, by whom, and the position after it."""

    number: int
    move: int | str
    side: str  # the side that moved (the side that swapped, for a swap)
    player: str
    result: MoveResult | None  # None for a swap
    position: Position
    north: str  # who sits North after the move (a swap exchanges the seats)
    south: str

    @property
    def side_name(self) -> str:
        return SIDE_NAMES[self.side]


def variants_from_words(words: str) -> Variants:
    """``Variants.describe``'s words back into Variants (``standard rules``; ``empty capture, pie rule``)."""
    if words.strip() == "standard rules":
        return Variants()
    names = [w.strip() for w in words.split(",")]
    unknown = [n for n in names if n not in VARIANT_WORDS]
    if unknown:
        raise RecordError(f"the rules {words.strip()!r} name no variant {unknown[0]!r}")
    return Variants(**{VARIANT_WORDS[n]: True for n in names})


def _header(text: str) -> dict[str, str]:
    """The ``key: value`` lines before the transcript (the first line, the record's title, has no key)."""
    fields: dict[str, str] = {}
    for line in text.split(TRANSCRIPT_HEADING, 1)[0].splitlines():
        settings = _PLAY_SETTINGS.fullmatch(line) or _DEMO_SETTINGS.fullmatch(line)
        if settings:
            fields.update(zip(("pits", "seeds", "level", "rules"), settings.groups(), strict=True))
        elif ": " in line or line.endswith(":"):
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    return fields


def _first_from_transcript(text: str) -> str:
    """Who moved first, from the title the PDP-1 typed (``""`` when the transcript has none)."""
    transcript = text.split(TRANSCRIPT_HEADING, 1)[1] if TRANSCRIPT_HEADING in text else ""
    parser = TranscriptParser()
    for line in transcript.splitlines(keepends=True)[:12]:  # the title is in the first lines
        try:
            events = parser.feed(line)
        except ParseError:
            return ""
        titles = [e for e in events if isinstance(e, Title)]
        if titles:
            return titles[0].first
    return ""


def read_game_record(text: str) -> SavedGame:
    """The game a record's text holds; RecordError (one line) when it is not a record ``play`` or the demo wrote."""
    if not text.startswith("Kalah on the PDP-1:"):
        raise RecordError("not a game record: it does not begin with 'Kalah on the PDP-1:' "
                          "(the records play and the demo save)")
    fields = _header(text)
    missing = [key for key in ("pits", "record") if key not in fields]
    if missing:
        raise RecordError(f"the record has no {missing[0]!r} line")
    pits, seeds = int(fields["pits"]), int(fields["seeds"])
    try:
        start_position(pits, seeds)
    except RulesError as bad:
        raise RecordError(f"the record's game is no Kalah game: {bad}") from None
    moves_text = "" if fields["record"] == NO_MOVE else fields["record"]
    try:
        moves = parse_record(moves_text)
    except NotationError as bad:
        raise RecordError(f"the record's moves: {bad}") from None
    first = fields.get("first") or _first_from_transcript(text)
    return SavedGame(pits, seeds, fields["level"], variants_from_words(fields["rules"]), moves, first,
                     fields.get("result", "not given"))


_RESULT = re.compile(r"(\S+) (\d+), (\S+) (\d+); ")


def check_result(saved: SavedGame, final: Position, north: str, south: str) -> None:
    """The scores the record's ``result:`` line gives must be the reference's stores at the end (RecordError)."""
    stated = _RESULT.match(saved.result)
    if final.to_move != ENDED or not stated:
        return  # an unfinished game states no scores
    scores = {stated.group(1): int(stated.group(2)), stated.group(3): int(stated.group(4))}
    reference = {south: final.store(SOUTH), north: final.store(NORTH)}
    if scores != reference:
        shown = ", ".join(f"{who} {n}" for who, n in reference.items())
        raise RecordError(f"the record's result ({saved.result}) is not the reference's end ({shown})")


def replay_steps(saved: SavedGame) -> Iterator[Step]:
    """Each move of ``saved`` played by the reference's rules, in order; RecordError at the first it refuses."""
    game = Game.new(saved.pits, saved.seeds, saved.variants)
    for number, move in enumerate(saved.moves, 1):
        side = game.position.to_move
        player = saved.player(side, game)
        try:
            result = game.apply(move)
        except RulesError as refused:
            raise RecordError(f"move {number} ({player} plays {move}) breaks the rules: {refused}") from None
        yield Step(number, move, side, player, result, game.position, saved.player(NORTH, game),
                   saved.player(SOUTH, game))
