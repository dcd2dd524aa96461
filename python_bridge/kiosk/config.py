"""The kiosk's configuration file (TOML), read once at start.

Why TOML: Python reads it with no extra package (``tomllib``), and a museum
technician can edit it with any text editor; every key has a default, so
the file need only hold what differs.  Errors name the key and what is
allowed, and stop the kiosk before it starts (exit status 2).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from tools.user_files import UserFileError, name_problem, read_user_text

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
AUTHENTIC_CHARACTERS_PER_SECOND = float(TYPEWRITER_CHARACTERS_PER_SECOND)  # the console typewriter
# the visitor's choices: a game size (pits, seeds) and the PDP-1's strength (its level: 0 = the default level)
GAME_CHOICES = {"quick": (4, 3), "classic": (6, 4)}
STRENGTH_CHOICES = {"gentle": 1, "fair": 4, "full": 0}  # gentle: one ply, a game a child can win
LANGUAGES = ("en", "pl", "tl", "az")


class ConfigError(ValueError):
    """The configuration file is missing, unreadable, or holds a value the kiosk cannot use."""


class _ValueNamed(ConfigError):
    """A ConfigError whose message already names the offending value."""


@dataclass(frozen=True)
class KioskConfig:
    """Everything the operator sets.  ``state_dir`` holds the saved game and the log."""

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
    countdown_seconds: float = 20.0  # the countdown, then attract mode
    port: int = 8360
    state_dir: Path = Path("records/kiosk")
    attract_seed: int = 0  # 0: new openings at every start; otherwise the same series each start
    attract_random_moves: int = 3  # the demo player's first moves are random (varied openings)
    attract_depth: int = 4  # then it plays the reference search at this depth
    attract_level: int = 0  # the PDP-1's level in attract mode (0: its default level, the machine at its best)
    attract_pause: float = 2.0  # seconds the demo player waits before each move
    end_pause: float = 10.0  # seconds an attract game's result stays up
    watchdog_seconds: float = 10.0  # an emulator silent this long while it should type is hung
    log_max_bytes: int = 1_000_000
    log_backups: int = 5
    games: tuple[str, ...] = tuple(GAME_CHOICES)  # the game sizes offered to visitors (empty: none)
    strengths: tuple[str, ...] = tuple(STRENGTH_CHOICES)  # the strengths offered to visitors (empty: none)
    language: str = "en"  # the page's language at start and after attract mode
    languages: tuple[str, ...] = LANGUAGES  # the language buttons shown
    sound: bool = True  # the typewriter's synthesised sound (strike, carriage return, bell)
    control_token: str = ""  # the page opened as /?control=TOKEN controls; "": the first page connected
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost")  # names the page may be reached by (Host, Origin)
    max_connections: int = 4  # WebSocket connections at once (the kiosk's screen and a few watchers)
    header_timeout: float = 10.0  # a request's headers must arrive within this; an idle connection closes too
    min_free_mb: int = 100  # less free space than this under state_dir: health says the disk is nearly full

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
        return AUTHENTIC_CHARACTERS_PER_SECOND if self.speed == "authentic" else 0.0

    @property
    def host(self) -> str:
        """Only this machine: the kiosk's browser runs here, nothing else may reach the server."""
        return "127.0.0.1"

    def panel(self, pdp1_first: bool) -> PanelSettings:
        """The panel for a game: always the brief form, since the screen draws the board (a board typed
        at 10 characters a second would cost a visitor about 16 s a move)."""
        return PanelSettings(pits=self.pits, seeds=self.seeds, depth=self.level, variants=self.variants,
                             pdp1_first=pdp1_first, brief=True)

    def chosen(self, game: str | None, strength: str | None) -> "KioskConfig":
        """These settings with a visitor's choices applied (None: the museum's own setting)."""
        pits, seeds = GAME_CHOICES[game] if game else (self.pits, self.seeds)
        level = STRENGTH_CHOICES[strength] if strength else self.level
        return replace(self, pits=pits, seeds=seeds, level=level)

    def default_choice(self) -> dict:
        """Which offered choices the museum's own settings are (None where they are none of them)."""
        game = next((g for g in self.games if GAME_CHOICES[g] == (self.pits, self.seeds)), None)
        strength = next((s for s in self.strengths if STRENGTH_CHOICES[s] == self.level), None)
        return {"game": game, "strength": strength}

    @property
    def log_file(self) -> Path:
        return self.state_dir / "kiosk.log"

    @property
    def saved_game(self) -> Path:
        return self.state_dir / "current-game.txt"

    @property
    def counters_file(self) -> Path:
        return self.state_dir / "counters.json"


# key -> (section, type, check, what is allowed)
_INT_RANGES = {
    "pits": (1, 6), "seeds": (1, 6), "level": (0, 20), "port": (1024, 65535),
    "attract_random_moves": (0, 50), "attract_depth": (1, 10), "attract_level": (0, 20), "attract_seed": (0, 2**63 - 1),
    "log_max_bytes": (10_000, 1_000_000_000), "log_backups": (1, 100), "think_rate": (0, 100_000_000),
    "max_connections": (1, 100), "min_free_mb": (0, 1_000_000),
}
# paces whose 0 means "unpaced" and whose other values must keep a move within hours: (lowest, what it means)
_PACE_FLOORS = {
    "think_rate": (1000, "memory cycles a second (200 times slower than 1960; less would think for hours)"),
    "typewriter_cps": (1.0, "character a second (the Flexowriter typed 10)"),
}
MAX_CONFIG_BYTES = 1_000_000  # a configuration is a page of text
_FLOAT_RANGES = {
    "idle_seconds": (1.0, 86400.0), "countdown_seconds": (1.0, 3600.0), "attract_pause": (0.0, 60.0),
    "end_pause": (0.0, 3600.0), "watchdog_seconds": (1.0, 600.0), "typewriter_cps": (0.0, 10000.0),
    "header_timeout": (1.0, 300.0),
}
TOKEN_LENGTHS = (16, 128)  # a control token's shortest and longest: unguessable, and fits a URL
MAX_HOSTS = 10  # allowed_hosts: names a kiosk may be reached by
MAX_HOST_NAME = 253  # characters: DNS's longest name
SHOWN_CHARACTERS, SHOWN_ITEMS = 60, 10  # of a refused value, quoted back to the operator
ASCII_CONTROLS, ASCII_DELETE = 32, 127


def _is_control(char: str) -> bool:
    """An ASCII control character, which a quoted value shows as an escape."""
    return ord(char) < ASCII_CONTROLS or ord(char) == ASCII_DELETE


TOKEN_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
HOST_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-.")
SECTIONS = {
    "game": ("pits", "seeds", "level", "variants", "first"),
    "choices": ("games", "strengths"),
    "kiosk": ("speed", "think_rate", "typewriter_cps", "idle_seconds", "countdown_seconds", "port", "state_dir",
              "language", "languages", "sound"),
    "attract": ("attract_seed", "attract_random_moves", "attract_depth", "attract_level", "attract_pause",
                "end_pause"),
    "operation": ("watchdog_seconds", "log_max_bytes", "log_backups", "control_token", "allowed_hosts",
                  "max_connections", "header_timeout", "min_free_mb"),
}


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def toml_text(value: object) -> str:
    """``value`` as the operator wrote it in TOML (``true``, ``"fast"``, ``[1, 2]``), not in Python's spelling."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = "".join(_TOML_ESCAPES.get(c) or (f"\\u{ord(c):04X}" if _is_control(c) else c)
                        for c in value[:SHOWN_CHARACTERS])
        return f'"{shown}{"..." if len(value) > SHOWN_CHARACTERS else ""}"'
    if isinstance(value, list):
        more = ", ...]" if len(value) > SHOWN_ITEMS else "]"
        return "[" + ", ".join(toml_text(v) for v in value[:SHOWN_ITEMS]) + more
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in list(value.items())[:SHOWN_ITEMS]) + "}"
    return str(value)  # numbers, dates and times: str() is TOML's spelling


def _check(key: str, value: object, base: Path) -> object:
    try:
        checked = _checked(key, value, base)
    except _ValueNamed:
        raise
    except ConfigError as bad:
        raise ConfigError(f"{bad}, not {toml_text(value)}") from None
    floor = _PACE_FLOORS.get(key)
    if floor and checked and checked < floor[0]:
        raise ConfigError(f"{key} must be 0 (unpaced) or at least {floor[0]:,g} {floor[1]}, not {toml_text(value)}")
    return checked


def checked_hosts(value: object) -> tuple[str, ...]:
    """``allowed_hosts`` as the operator wrote it, if it is 1 to ``MAX_HOSTS`` plain host names: the
    names a page may reach a server of ours by (the kiosk's and the online exhibit's alike)."""
    def host(h: object) -> bool:
        return isinstance(h, str) and 0 < len(h) <= MAX_HOST_NAME and not set(h) - HOST_CHARS

    if not isinstance(value, list) or not 1 <= len(value) <= MAX_HOSTS or not all(host(h) for h in value):
        raise ConfigError(f"allowed_hosts must be a list of 1 to {MAX_HOSTS} host names (lower case, no port)")
    return tuple(value)


def _checked(key: str, value: object, base: Path) -> object:
    """``value`` for ``key`` as the kiosk uses it; ConfigError says what is allowed (``_check`` adds the value)."""
    if key in _INT_RANGES:
        low, high = _INT_RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{key} must be a whole number from {low} to {high}")
        return value
    if key in _FLOAT_RANGES:
        low, high = _FLOAT_RANGES[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ConfigError(f"{key} must be a number of seconds from {low:g} to {high:g}")
        return float(value)
    if key == "variants":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError("variants must be a list of names")
        unknown = [v for v in value if v not in VARIANT_NAMES]
        if unknown:
            raise _ValueNamed(f"unknown variant {toml_text(unknown[0])}: use {', '.join(VARIANT_NAMES)}")
        twice = next((v for n, v in enumerate(value) if v in value[:n]), None)
        if twice is not None:
            raise _ValueNamed(f"variants names {toml_text(twice)} twice: each variant once")
        return Variants(**{VARIANT_NAMES[v]: True for v in value})
    if key == "first":
        if value not in FIRST_CHOICES:
            raise ConfigError(f"first must be one of {', '.join(FIRST_CHOICES)}")
        return value
    if key == "speed":
        if value not in SPEEDS:
            raise ConfigError(f"speed must be one of {', '.join(SPEEDS)}")
        return value
    if key in ("games", "strengths", "languages"):
        allowed = {"games": tuple(GAME_CHOICES), "strengths": tuple(STRENGTH_CHOICES), "languages": LANGUAGES}[key]
        if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value) \
                or len(set(value)) != len(value):
            raise ConfigError(f"{key} must be a list of different names from {', '.join(allowed)}")
        if key == "languages" and not value:
            raise ConfigError("languages must name at least one language")
        return tuple(value)
    if key == "language":
        if value not in LANGUAGES:
            raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}")
        return value
    if key == "sound":
        if not isinstance(value, bool):
            raise ConfigError("sound must be true or false")
        return value
    if key == "control_token":
        if (not isinstance(value, str) or not (value == "" or TOKEN_LENGTHS[0] <= len(value) <= TOKEN_LENGTHS[1])
                or set(value) - TOKEN_CHARS):
            raise ConfigError(f"control_token must be \"\" or {TOKEN_LENGTHS[0]} to {TOKEN_LENGTHS[1]} letters, "
                              "digits, - or _")
        return value
    if key == "allowed_hosts":
        return checked_hosts(value)
    if key == "state_dir":
        if not isinstance(value, str) or not value:
            raise ConfigError("state_dir must be a folder name")
        if name_problem(value):
            raise ConfigError("state_dir must be a folder name without control characters (no NUL, no newline)")
        path = Path(value)
        return path if path.is_absolute() else base / path
    raise ConfigError(f"unknown setting {key!r}")  # pragma: no cover - keys are checked before


def parse_config(text: str, base: Path = Path(".")) -> KioskConfig:
    """A configuration from TOML text; relative folders are taken from ``base`` (the file's folder)."""
    if text.startswith("\ufeff"):
        raise ConfigError("the file begins with a UTF-8 byte-order mark (BOM), which TOML does not allow: "
                          "save it as UTF-8 without a BOM")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    values: dict[str, object] = {}
    for section, body in data.items():
        if section not in SECTIONS:
            raise ConfigError(f"unknown section [{section}]: use {', '.join('[' + s + ']' for s in SECTIONS)}")
        if not isinstance(body, dict):
            raise ConfigError(f"[{section}] must be a section, not a value")
        for key, value in body.items():
            if key not in SECTIONS[section]:
                raise ConfigError(f"unknown setting {key!r} in [{section}]: use {', '.join(SECTIONS[section])}")
            values[key] = _check(key, value, base)
    config = KioskConfig(**values)  # type: ignore[arg-type]
    if config.language not in config.languages:
        raise ConfigError(f"language {config.language!r} is not among languages {list(config.languages)}")
    if config.state_dir == KioskConfig.state_dir and "state_dir" not in values:
        config = KioskConfig(**{**values, "state_dir": base / KioskConfig.state_dir})  # type: ignore[arg-type]
    return config


def load_config(path: Path | str) -> KioskConfig:
    """Read the operator's configuration file."""
    try:  # a FIFO, /dev/zero, a folder, a NUL in the name: one line
        text = read_user_text(path, MAX_CONFIG_BYTES, "configuration file")
    except UserFileError as exc:
        raise ConfigError(str(exc)) from None
    return parse_config(text, Path(path).resolve().parent)


def describe(config: KioskConfig) -> str:
    """One line for the log: the settings in force."""
    def shown(name: str) -> object:  # the token lets a page control the kiosk: the log says only whether it is set
        value = getattr(config, name)
        return ("(set)" if value else "(none)") if name == "control_token" else value

    return ", ".join(f"{f.name}={shown(f.name)}" for f in fields(config))
