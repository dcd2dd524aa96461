"""The game settings every front end of the exhibit reads: the game, the visitor's choices, the pace, the
page's languages, and the checks every value passes.

Why one place: the kiosk's file and the online exhibit's file both hold ``[game]`` and ``[choices]``;
read by one parser, the same names, ranges and messages hold in both.  A front end's own settings (the
kiosk's gallery, the web site's server) extend ``GameSettings`` and check their keys with the helpers
here (``whole_number``, ``seconds``, ``toml_text``), so a typo gets the same one line everywhere.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ..machine.cycles import CYCLES_PER_SECOND
from ..machine.front_panel import PanelSettings
from ..machine.simh import TYPEWRITER_CHARACTERS_PER_SECOND
from ..reference.rules import Variants

VARIANT_NAMES = {
    "empty-capture": "empty_capture",
    "deferred-end": "deferred_end",
    "remainder-void": "remainder_void",
    "pie-rule": "pie_rule",
}
FIRST_CHOICES = ("visitor", "pdp-1", "alternate")
SPEEDS = ("authentic", "fast")
# the visitor's choices: a game size (pits, seeds) and the PDP-1's strength (its level: 0 = the default level)
GAME_CHOICES = {"quick": (4, 3), "classic": (6, 4)}
STRENGTH_CHOICES = {"gentle": 1, "fair": 4, "full": 0}  # gentle: one ply, a game a child can win
LANGUAGES = ("en", "pl", "tl", "az")
MAX_CONFIG_BYTES = 1_000_000  # a configuration is a page of text
MAX_HOSTS = 10  # allowed_hosts: names a server may be reached by
MAX_HOST_NAME = 253  # characters: DNS's longest name
HOST_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-.")
SHOWN_CHARACTERS, SHOWN_ITEMS = 60, 10  # of a refused value, quoted back to the operator
ASCII_CONTROLS, ASCII_DELETE = 32, 127

# the sections both files hold, and their keys
GAME_SECTIONS = {
    "game": ("pits", "seeds", "level", "variants", "first"),
    "choices": ("games", "strengths"),
}
INT_RANGES = {"pits": (1, 6), "seeds": (1, 6), "level": (0, 20), "think_rate": (0, 100_000_000)}
FLOAT_RANGES = {"idle_seconds": (1.0, 86400.0), "countdown_seconds": (1.0, 3600.0), "watchdog_seconds": (1.0, 600.0),
                "typewriter_cps": (0.0, 10000.0)}
# paces whose 0 means "unpaced" and whose other values must keep a move within hours: (lowest, what it means)
PACE_FLOORS = {
    "think_rate": (1000, "memory cycles a second (200 times slower than 1960; less would think for hours)"),
    "typewriter_cps": (1.0, "character a second (the Flexowriter typed 10)"),
}


class ConfigError(ValueError):
    """A settings file is missing, unreadable, or holds a value the exhibit cannot use."""


class ValueNamed(ConfigError):
    """A ConfigError whose message already names the offending value."""


@dataclass(frozen=True)
class GameSettings:
    """What one game of the exhibit is played with, whichever front end serves it."""

    pits: int = 6
    seeds: int = 4
    # A visitor's game: 1 ("gentle"), the fair match for a first-time visitor (make first-visit: a novice
    # wins about half the quick games and a quarter of the classic ones; at 4 plies hardly any classic
    # one); 0 would be the PDP-1's default level (at most 10 s of 1960 thinking a move, 6-8 s mostly).
    level: int = 1
    variants: Variants = field(default_factory=Variants)
    first: str = "visitor"  # who moves first in a visitor's game: visitor, pdp-1, alternate
    speed: str = "authentic"  # authentic: 1960 pace; fast: as fast as the host runs
    think_rate: int | None = None  # memory cycles a second while the PDP-1 thinks (0: unpaced); speed's by default
    typewriter_cps: float | None = None  # characters a second on the paper (0: unpaced); speed's by default
    idle_seconds: float = 60.0  # no touch this long in a visitor's game: the countdown starts
    countdown_seconds: float = 20.0  # the countdown, then the game is left
    watchdog_seconds: float = 10.0  # an emulator silent this long while it should type is hung
    games: tuple[str, ...] = tuple(GAME_CHOICES)  # the game sizes offered to visitors (empty: none)
    strengths: tuple[str, ...] = tuple(STRENGTH_CHOICES)  # the strengths offered to visitors (empty: none)
    language: str = "en"  # the page's language at start (and, at the kiosk, after attract mode)
    languages: tuple[str, ...] = LANGUAGES  # the language buttons shown
    sound: bool = True  # the typewriter's synthesised sound (strike, carriage return, bell)
    # where a visitor reports an accessibility problem ("mailto:..." or "https://..."; "": not shown)
    accessibility_contact: str = ""
    # the game's tape, its symbol table beside it (None: the project's own, build/kalah.rim): a front end's own
    # setting (the online exhibit's [online] tape), never [game]'s -- the browser edition plays the one in its folder
    tape: Path | None = None

    @property
    def thinking_pace(self) -> int:
        """Memory cycles a second of wall time while the PDP-1 thinks; 0 for as fast as it goes."""
        if self.think_rate is not None:
            return self.think_rate
        return CYCLES_PER_SECOND if self.speed == "authentic" else 0

    @property
    def paper_pace(self) -> float:
        """Characters a second the typewriter prints on the page; 0 for as fast as they come."""
        if self.typewriter_cps is not None:
            return self.typewriter_cps
        return float(TYPEWRITER_CHARACTERS_PER_SECOND) if self.speed == "authentic" else 0.0

    def panel(self, pdp1_first: bool) -> PanelSettings:
        """The panel for a game: always the brief form, since the screen draws the board (a board typed
        at 10 characters a second would cost a visitor about 16 s a move)."""
        return PanelSettings(pits=self.pits, seeds=self.seeds, depth=self.level, variants=self.variants,
                             pdp1_first=pdp1_first, brief=True)

    def chosen(self, game: str | None, strength: str | None) -> "GameSettings":
        """These settings with a visitor's choices applied (None: the museum's own setting)."""
        pits, seeds = GAME_CHOICES[game] if game else (self.pits, self.seeds)
        level = STRENGTH_CHOICES[strength] if strength else self.level
        return replace(self, pits=pits, seeds=seeds, level=level)

    def default_choice(self) -> dict:
        """Which offered choices the museum's own settings are (None where they are none of them)."""
        game = next((g for g in self.games if GAME_CHOICES[g] == (self.pits, self.seeds)), None)
        strength = next((s for s in self.strengths if STRENGTH_CHOICES[s] == self.level), None)
        return {"game": game, "strength": strength}


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def is_control(char: str) -> bool:
    """An ASCII control character, which a quoted value shows as an escape."""
    return ord(char) < ASCII_CONTROLS or ord(char) == ASCII_DELETE


def toml_text(value: object) -> str:
    """``value`` as the operator wrote it in TOML (``true``, ``"fast"``, ``[1, 2]``), not in Python's spelling."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = "".join(_TOML_ESCAPES.get(c) or (f"\\u{ord(c):04X}" if is_control(c) else c)
                        for c in value[:SHOWN_CHARACTERS])
        return f'"{shown}{"..." if len(value) > SHOWN_CHARACTERS else ""}"'
    if isinstance(value, list):
        more = ", ...]" if len(value) > SHOWN_ITEMS else "]"
        return "[" + ", ".join(toml_text(v) for v in value[:SHOWN_ITEMS]) + more
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in list(value.items())[:SHOWN_ITEMS]) + "}"
    return str(value)  # numbers, dates and times: str() is TOML's spelling


def checked_hosts(value: object) -> tuple[str, ...]:
    """``allowed_hosts`` as the operator wrote it, if it is 1 to ``MAX_HOSTS`` plain host names: the
    names a page may reach a server of ours by (the kiosk's and the online exhibit's alike)."""
    def host(h: object) -> bool:
        return isinstance(h, str) and 0 < len(h) <= MAX_HOST_NAME and not set(h) - HOST_CHARS

    if not isinstance(value, list) or not 1 <= len(value) <= MAX_HOSTS or not all(host(h) for h in value):
        raise ConfigError(f"allowed_hosts must be a list of 1 to {MAX_HOSTS} host names (lower case, no port)")
    return tuple(value)


def whole_number(key: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{key} must be a whole number from {low} to {high}")
    return value


def seconds(key: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError(f"{key} must be a number of seconds from {low:g} to {high:g}")
    return float(value)


def ranged(key: str, value: object, whole: dict[str, tuple[int, int]],
           timed: dict[str, tuple[float, float]]) -> int | float | None:
    """``value`` checked against ``key``'s range in ``whole`` (whole numbers) or ``timed`` (seconds); None when
    ``key`` has a range in neither (the caller checks it by its kind)."""
    if key in whole:
        return whole_number(key, value, *whole[key])
    if key in timed:
        return seconds(key, value, *timed[key])
    return None


def one_of(key: str, value: object, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{key} must be one of {', '.join(allowed)}")
    return value  # type: ignore[return-value]


def _variants(value: object) -> Variants:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError("variants must be a list of names")
    unknown = [v for v in value if v not in VARIANT_NAMES]
    if unknown:
        raise ValueNamed(f"unknown variant {toml_text(unknown[0])}: use {', '.join(VARIANT_NAMES)}")
    twice = next((v for n, v in enumerate(value) if v in value[:n]), None)
    if twice is not None:
        raise ValueNamed(f"variants names {toml_text(twice)} twice: each variant once")
    return Variants(**{VARIANT_NAMES[v]: True for v in value})


def _names(key: str, value: object) -> tuple[str, ...]:
    allowed = {"games": tuple(GAME_CHOICES), "strengths": tuple(STRENGTH_CHOICES), "languages": LANGUAGES}[key]
    if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value) \
            or len(set(value)) != len(value):
        raise ConfigError(f"{key} must be a list of different names from {', '.join(allowed)}")
    if key == "languages" and not value:
        raise ConfigError("languages must name at least one language")
    return tuple(value)


CONTACT_SCHEMES = ("mailto:", "https://", "http://")
MAX_CONTACT = 200


def checked_contact(value: object) -> str:
    """``accessibility_contact``: "" or a mailto: or web address a page can link to (no spaces, no controls)."""
    if (not isinstance(value, str) or len(value) > MAX_CONTACT
            or (value and (not value.startswith(CONTACT_SCHEMES) or any(c <= " " or c == "\x7f" for c in value)
                           or value in CONTACT_SCHEMES))):
        raise ConfigError(f"accessibility_contact must be \"\" or a mailto:, https:// or http:// address of at most "
                          f"{MAX_CONTACT} characters, without spaces")
    return value


PORTS = (1024, 65535)
MAX_ORIGIN = 200  # characters of one frame_ancestors origin


def checked_frame_ancestors(value: object) -> tuple[str, ...]:
    """``frame_ancestors``: the sites that may show the page in a frame of theirs (a museum's own pages), as the
    page's Content-Security-Policy names them: ``'self'`` or origins (``https://museum.example``, a port or a
    ``*.`` wildcard allowed); none by default.  Anything else could end the policy's directive early."""
    if not isinstance(value, list) or len(value) > MAX_HOSTS or not all(_frame_source(v) for v in value):
        raise ConfigError(f"frame_ancestors must be a list of at most {MAX_HOSTS} origins a museum's pages are "
                          "served from (\"https://museum.example\", \"https://*.museum.example:8443\") or \"'self'\"")
    return tuple(value)


def _frame_source(value: object) -> bool:
    if value == "'self'":
        return True
    if not isinstance(value, str) or len(value) > MAX_ORIGIN:
        return False
    scheme, separator, rest = value.partition("://")
    name, colon, port = rest.partition(":")
    if name.startswith("*."):
        name = name[2:]
    return (scheme in ("https", "http") and bool(separator) and bool(name) and set(name) <= HOST_CHARS
            and not name.startswith((".", "-")) and ".." not in name
            and (not colon or (port.isdigit() and 1 <= int(port) <= PORTS[1])))


def checked_metrics_port(value: object) -> int:
    """``metrics_port``: 0 (``/metrics`` on the server's own port) or a port of its own (the kiosk's and the
    online exhibit's alike); ConfigError says what is allowed (the caller adds the value refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or PORTS[0] <= value <= PORTS[1]):
        raise ConfigError(f"metrics_port must be 0 (/metrics on the server's own port) or {PORTS[0]:,} to {PORTS[1]:,}")
    return value


def checked_game_value(key: str, value: object) -> object:
    """``value`` for one of the game's keys as a game uses it; ConfigError says what is allowed."""
    if (number := ranged(key, value, INT_RANGES, FLOAT_RANGES)) is not None:
        return number
    if key == "variants":
        return _variants(value)
    if key in ("games", "strengths", "languages"):
        return _names(key, value)
    if key in ("first", "speed", "language"):
        return one_of(key, value, {"first": FIRST_CHOICES, "speed": SPEEDS, "language": LANGUAGES}[key])
    if key == "accessibility_contact":
        return checked_contact(value)
    if key == "sound":
        if not isinstance(value, bool):
            raise ConfigError("sound must be true or false")
        return value
    raise ConfigError(f"unknown setting {key!r}")  # pragma: no cover - keys are checked before


def check(key: str, value: object, checker: Callable[[str, object], object]) -> object:
    """``checker``'s value for ``key``, its refusal completed with the value refused (``not "x"``)."""
    try:
        checked = checker(key, value)
    except ValueNamed:
        raise
    except ConfigError as bad:
        raise ConfigError(f"{bad}, not {toml_text(value)}") from None
    floor = PACE_FLOORS.get(key)
    if floor and checked and checked < floor[0]:  # type: ignore[operator]
        raise ConfigError(f"{key} must be 0 (unpaced) or at least {floor[0]:,g} {floor[1]}, not {toml_text(value)}")
    return checked


def read_sections(data: dict, sections: dict[str, tuple[str, ...]],
                  checker: Callable[[str, object], object]) -> dict[str, object]:
    """The values of ``data``'s sections (a parsed TOML file), each key known to its section and checked."""
    values: dict[str, object] = {}
    for section, body in data.items():
        if section not in sections:
            raise ConfigError(f"unknown section [{section}]: use {', '.join('[' + s + ']' for s in sections)}")
        if not isinstance(body, dict):
            raise ConfigError(f"[{section}] must be a section, not a value")
        for key, value in body.items():
            if key not in sections[section]:
                raise ConfigError(f"unknown setting {key!r} in [{section}]: use {', '.join(sections[section])}")
            values[key] = check(key, value, checker)
    return values


def front_end_sections(text: str, own: str) -> tuple[dict, dict]:
    """A front end's file (TOML): its parsed whole, and its own section ``[own]`` beside the game's ``[game]`` and
    ``[choices]`` (no other is allowed); ConfigError (one line) for what is not such a file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    unknown = [name for name in data if name != own and name not in GAME_SECTIONS]
    if unknown:
        raise ConfigError(f"unknown section [{unknown[0]}]: use [{own}], [game], [choices]")
    section = data.get(own, {})
    if not isinstance(section, dict):
        raise ConfigError(f"[{own}] must be a section, not a value")
    return data, section


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string, whole (``toml_text`` shortens what it quotes back to an operator)."""
    return '"' + "".join(_TOML_ESCAPES.get(c) or (f"\\u{ord(c):04X}" if is_control(c) else c) for c in value) + '"'


def game_sections_text(game: GameSettings) -> str:
    """``game``'s ``[game]`` and ``[choices]`` as a file holds them, which ``game_settings`` reads back the same.

    Why: a front end that hands its game on to another's file -- the online server writes the browser edition's
    ``settings.toml`` from its own, so that its visitors' browsers play the levels it checks their records at."""
    variants = [name for name, attribute in VARIANT_NAMES.items() if getattr(game.variants, attribute)]
    return (f"[game]\npits = {game.pits}\nseeds = {game.seeds}\nlevel = {game.level}\n"
            f"variants = {_toml_names(variants)}\nfirst = {toml_string(game.first)}\n"
            f"[choices]\ngames = {_toml_names(game.games)}\nstrengths = {_toml_names(game.strengths)}\n")


def _toml_names(values: list[str] | tuple[str, ...]) -> str:
    return "[" + ", ".join(toml_string(v) for v in values) + "]"


def game_settings(data: dict, base: Path = Path(".")) -> GameSettings:
    """The game's settings from a parsed file's ``[game]`` and ``[choices]`` (other sections are not read)."""
    del base  # (no game setting names a file)
    game = {name: body for name, body in data.items() if name in GAME_SECTIONS}
    return GameSettings(**read_sections(game, GAME_SECTIONS, checked_game_value))  # type: ignore[arg-type]
