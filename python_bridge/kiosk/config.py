"""The kiosk's configuration file (TOML), read once at start.

Why TOML: Python reads it with no extra package (``tomllib``), and a museum
technician can edit it with any text editor; every key has a default, so
the file need only hold what differs.  Errors name the key and what is
allowed, and stop the kiosk before it starts (exit status 2).  The game's
own settings (``[game]``, ``[choices]``, the pace and the page's languages)
are the exhibit's (``exhibit.settings``), checked there as the online
exhibit's are; this module adds the gallery's.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from tools.user_files import UserFileError, name_problem, read_user_text

from ..exhibit.settings import (
    GAME_SECTIONS,
    MAX_CONFIG_BYTES,
    ConfigError,
    GameSettings,
    checked_game_value,
    checked_hosts,
    checked_metrics_port,
    ranged,
    read_sections,
)


@dataclass(frozen=True)
class KioskConfig(GameSettings):
    """Everything the operator sets: the game's settings, and the gallery's.  ``state_dir`` holds the saved
    game and the log."""

    port: int = 8360
    state_dir: Path = Path("records/kiosk")
    attract_seed: int = 0  # 0: new openings at every start; otherwise the same series each start
    attract_random_moves: int = 3  # the demo player's first moves are random (varied openings)
    attract_depth: int = 4  # then it plays the reference search at this depth
    attract_level: int = 0  # the PDP-1's level in attract mode (0: its default level, the machine at its best)
    attract_pause: float = 2.0  # seconds the demo player waits before each move
    end_pause: float = 10.0  # seconds an attract game's result stays up
    log_max_bytes: int = 1_000_000
    log_backups: int = 5
    control_token: str = ""  # the page opened as /?control=TOKEN controls; "": the first page connected
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost")  # names the page may be reached by (Host, Origin)
    max_connections: int = 4  # WebSocket connections at once (the kiosk's screen and a few watchers)
    header_timeout: float = 10.0  # a request's headers must arrive within this; an idle connection closes too
    min_free_mb: int = 100  # less free space than this under state_dir: health says the disk is nearly full
    metrics_port: int = 0  # /metrics on the kiosk's own port (0), or alone on this one (127.0.0.1 either way)

    @property
    def host(self) -> str:
        """Only this machine: the kiosk's browser runs here, nothing else may reach the server."""
        return "127.0.0.1"

    @property
    def log_file(self) -> Path:
        return self.state_dir / "kiosk.log"

    @property
    def saved_game(self) -> Path:
        return self.state_dir / "current-game.txt"

    @property
    def counters_file(self) -> Path:
        return self.state_dir / "counters.json"


_INT_RANGES = {
    "port": (1024, 65535), "attract_random_moves": (0, 50), "attract_depth": (1, 10), "attract_level": (0, 20),
    "attract_seed": (0, 2**63 - 1), "log_max_bytes": (10_000, 1_000_000_000), "log_backups": (1, 100),
    "max_connections": (1, 100), "min_free_mb": (0, 1_000_000),
}
_FLOAT_RANGES = {"attract_pause": (0.0, 60.0), "end_pause": (0.0, 3600.0), "header_timeout": (1.0, 300.0)}
TOKEN_LENGTHS = (16, 128)  # a control token's shortest and longest: unguessable, and fits a URL
TOKEN_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
SECTIONS = {
    **GAME_SECTIONS,
    "kiosk": ("speed", "think_rate", "typewriter_cps", "idle_seconds", "countdown_seconds", "port", "state_dir",
              "language", "languages", "sound", "accessibility_contact"),
    "attract": ("attract_seed", "attract_random_moves", "attract_depth", "attract_level", "attract_pause",
                "end_pause"),
    "operation": ("watchdog_seconds", "log_max_bytes", "log_backups", "control_token", "allowed_hosts",
                  "max_connections", "header_timeout", "min_free_mb", "metrics_port"),
}


def _checker(base: Path):
    """The check of every key of the kiosk's file: the gallery's here, the game's the exhibit's."""
    def checked(key: str, value: object) -> object:
        if (number := ranged(key, value, _INT_RANGES, _FLOAT_RANGES)) is not None:
            return number
        if key == "metrics_port":
            return checked_metrics_port(value)
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
        return checked_game_value(key, value)

    return checked


def parse_config(text: str, base: Path = Path(".")) -> KioskConfig:
    """A configuration from TOML text; relative folders are taken from ``base`` (the file's folder)."""
    if text.startswith("\ufeff"):
        raise ConfigError("the file begins with a UTF-8 byte-order mark (BOM), which TOML does not allow: "
                          "save it as UTF-8 without a BOM")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}") from None
    values = read_sections(data, SECTIONS, _checker(base))
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


__all__ = ["ConfigError", "KioskConfig", "SECTIONS", "describe", "load_config", "parse_config"]
