"""The one game-record format: written for every game play, the demonstration, the kiosk and the online
exhibit keep, read back by ``replay``, which checks every move against the reference.

Why one format: a record is what a visitor takes home and what ``replay`` checks, so a second writer
would be a second thing to keep true.  A record is text:

    Kalah on the PDP-1: game record (game 1 of the session)     <- the heading names what kept it
    pits 6  seeds 4  level auto  rules: standard rules
    first: you                                                   <- you, pdp-1 or both
    record: 3 4 swap 6 ...                                       <- reference.notation's record
    moves: 4                                                     <- how many: a record cut short shows
    result: you 30, pdp-1 18; you win                            <- or "not finished: ..."
    moves cross-checked: 4  emulator restarts: 0
    <more "key: value" lines the keeper adds: speed, front panel, mode ...>

    <free lines: the demonstration's table of the PDP-1's thoughts>

    typewriter transcript:
    <the paper, to the end of the file>

The reader also takes the records older versions wrote: ``settings: 6 pits, 4 seeds, level auto,
empty capture`` (the demonstration's), no ``moves:`` line, no ``first:`` line (then the title the
PDP-1 typed at the head of the transcript says who moved first), ``record:`` empty for no move, a
UTF-8 byte-order mark and Windows line ends.

``replay_steps`` plays the moves from the start with the reference's rules; a move the rules refuse,
a count that does not match, or a result stating an end the moves do not reach is a ``RecordError``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ..machine.transcript import VARIANT_WORDS, ParseError, Title, TranscriptParser
from ..reference.game import Game
from ..reference.notation import NotationError, format_record, parse_record
from ..reference.rules import ENDED, NORTH, SOUTH, MoveResult, Position, RulesError, Variants, start_position

BEGINNING = "Kalah on the PDP-1:"
TRANSCRIPT_HEADING = "typewriter transcript:"
NO_MOVE = "(no move)"
NOT_GIVEN = "not given"
SIDE_NAMES = {SOUTH: "south", NORTH: "north"}
_SETTINGS = re.compile(r"pits (\d+)  seeds (\d+)  level (\d+|auto)  rules: (.+)")
_OLD_DEMO_SETTINGS = re.compile(r"settings: (\d+) pits?, (\d+) seeds?, level (\d+|auto), (.+)")
_CHECKED = re.compile(r"moves cross-checked: (\d+)")
_RESTARTS = re.compile(r"emulator restarts: (\d+)")
_STATED_SCORES = re.compile(r"(\S+) (\d+), (\S+) (\d+); ")
# the lines the format itself writes; any other "key: value" line is the keeper's, kept as it was
_OWN_KEYS = {"first", "record", "moves", "result", "moves cross-checked", "emulator restarts", "settings"}


class RecordError(ValueError):
    """A text that is not a game record, or a record the rules refuse: the message is one line."""


@dataclass(frozen=True)
class SavedGame:
    """One game as kept: its size, rules, moves, who moved first, the result as written, and what the
    keeper adds (its heading, extra ``key: value`` lines, free lines, the typewriter's paper)."""

    pits: int
    seeds: int
    level: str  # "auto" (the default level) or the plies searched
    variants: Variants
    moves: list[int | str]
    first: str  # "you", "pdp-1", "both", or "" when an old record does not say
    result: str = NOT_GIVEN
    heading: str = "game record"
    checked: int | None = None  # moves cross-checked against the reference, when the keeper says
    restarts: int | None = None
    fields: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    transcript: str = ""
    stated_count: int | None = field(default=None, compare=False)  # the ``moves:`` line of a record read

    @classmethod
    def of(cls, title: Title, moves: list[int | str], **kept: object) -> "SavedGame":
        """The record of a game the PDP-1 announced with ``title`` (its settings and who moves first)."""
        level = str(title.level) if title.level else "auto"
        return cls(title.pits, title.seeds, level, title.variants, list(moves), title.first, **kept)  # type: ignore[arg-type]

    @property
    def title(self) -> Title:
        """The settings as the driver's ``Title`` (level 0: the default level), to restore the game from."""
        return Title(self.pits, self.seeds, 0 if self.level == "auto" else int(self.level), self.variants,
                     self.first)

    def value_of(self, key: str, default: str = "") -> str:
        """The keeper's ``key: value`` line's value."""
        return next((value for k, value in self.fields if k == key), default)

    def text(self) -> str:
        """The record as text: the one writer."""
        lines = [f"{BEGINNING} {self.heading}",
                 f"pits {self.pits}  seeds {self.seeds}  level {self.level}  rules: {self.variants.describe()}",
                 f"first: {self.first}",
                 f"record: {format_record(self.moves) or NO_MOVE}",
                 f"moves: {len(self.moves)}",
                 f"result: {self.result}"]
        if self.checked is not None:
            lines.append(f"moves cross-checked: {self.checked}  emulator restarts: {self.restarts or 0}")
        lines += [f"{key}: {value}" for key, value in self.fields]
        if self.notes:
            lines += ["", *self.notes]
        lines += ["", TRANSCRIPT_HEADING, self.transcript]
        return "\n".join(lines)

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


def _parts(text: str) -> tuple[list[str], list[str], str]:
    """The header's lines (to the first blank line), the free lines after it, and the transcript."""
    before, heading, transcript = text.partition("\n" + TRANSCRIPT_HEADING + "\n")
    if not heading and before.endswith("\n" + TRANSCRIPT_HEADING):  # an empty paper
        before = before[:-len(TRANSCRIPT_HEADING) - 1]
    header, _, notes = before.partition("\n\n")
    return header.splitlines(), [line for line in notes.strip("\n").split("\n") if notes.strip()], transcript


def _first_from_transcript(transcript: str) -> str:
    """Who moved first, from the title the PDP-1 typed (``""`` when the transcript has none)."""
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
    """The game a record's text holds; RecordError (one line) when it is not a record this project keeps."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    if not text.startswith(BEGINNING):
        raise RecordError(f"not a game record: it does not begin with {BEGINNING!r} "
                          "(the records play, the demo, the kiosk and the online exhibit save)")
    header, notes, transcript = _parts(text)
    heading = header[0][len(BEGINNING):].strip()
    values: dict[str, str] = {}
    fields: list[tuple[str, str]] = []
    for line in header[1:]:
        settings = _SETTINGS.fullmatch(line) or _OLD_DEMO_SETTINGS.fullmatch(line)
        if settings:
            values.update(zip(("pits", "seeds", "level", "rules"), settings.groups(), strict=True))
            continue
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon:
            continue
        if key in _OWN_KEYS or key.startswith("moves cross-checked"):
            values.setdefault(key, value)
        else:
            fields.append((key, value))
    missing = [key for key in ("pits", "record") if key not in values]
    if missing:
        raise RecordError(f"the record has no {missing[0]!r} line")
    pits, seeds = int(values["pits"]), int(values["seeds"])
    try:
        start_position(pits, seeds)
    except RulesError as bad:
        raise RecordError(f"the record's game is no Kalah game: {bad}") from None
    try:
        moves = parse_record("" if values["record"] == NO_MOVE else values["record"])
    except NotationError as bad:
        raise RecordError(f"the record's moves: {bad}") from None
    stated = values.get("moves")
    if stated is not None and not stated.isdigit():
        raise RecordError(f"the record's 'moves' line is no count: {stated[:40]!r}")
    checked = _CHECKED.search("\n".join(header))
    restarts = _RESTARTS.search("\n".join(header))
    return SavedGame(pits, seeds, values["level"], variants_from_words(values["rules"]), moves,
                     values.get("first") or _first_from_transcript(transcript), values.get("result", NOT_GIVEN),
                     heading, int(checked.group(1)) if checked else None,
                     int(restarts.group(1)) if restarts else None, tuple(fields), tuple(notes), transcript,
                     int(stated) if stated is not None else None)


def states_an_end(result: str) -> bool:
    """Whether a ``result:`` gives the final scores (``you 30, pdp-1 18; you win``)."""
    return bool(_STATED_SCORES.match(result))


def check_complete(saved: SavedGame, final: Position, north: str, south: str) -> None:
    """The record must hold every move it claims: its ``moves:`` count, and an end where its result states
    one with the reference's scores (RecordError naming what is missing or wrong)."""
    if saved.stated_count is not None and saved.stated_count != len(saved.moves):
        raise RecordError(f"the record says {saved.stated_count} moves but holds {len(saved.moves)}: "
                          "moves are missing (the record was cut short or edited)")
    stated = _STATED_SCORES.match(saved.result)
    if not stated:
        return  # an unfinished game states no scores
    if final.to_move != ENDED:
        to_move = SIDE_NAMES[final.to_move]
        raise RecordError(f"the record's result ({saved.result}) states an end, but after its "
                          f"{len(saved.moves)} moves the game goes on with {to_move} to move: moves are missing")
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
        if side == ENDED:
            raise RecordError(f"move {number} ({move}) comes after the game's end")
        player = saved.player(side, game)
        try:
            result = game.apply(move)
        except RulesError as refused:
            raise RecordError(f"move {number} ({player} plays {move}) breaks the rules: {refused}") from None
        yield Step(number, move, side, player, result, game.position, saved.player(NORTH, game),
                   saved.player(SOUTH, game))
