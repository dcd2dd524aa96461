"""The online exhibit's settings: the ``[online]`` section of a TOML file, then the command line.

Why every value is bounded: the server faces the Internet, and its operator's typo must stop it at
once with one line naming the key, not run it with a line of a million visitors or a game that idles
for a year.  The game's own settings (``[game]``, ``[choices]``) are the exhibit's, read by its parser:
the same names, ranges and messages in both front ends.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from tools.user_files import UserFileError, read_user_text

from ..exhibit.settings import (
    MAX_CONFIG_BYTES,
    MAX_HOSTS,
    ConfigError,
    GameSettings,
    checked_contact,
    checked_frame_ancestors,
    checked_hosts,
    checked_metrics_port,
    front_end_sections,
    game_settings,
)
from ..machine.kalah_program import game_tape_problem

GAMES_PER_CORE = 100  # emulators a core runs at once by default: what make bench-online measured a core holds
DEFAULT_PORT = 8361
PACES = ("1960", "fast")
EDITIONS = ("server", "browser")  # where the PDP-1 runs: an emulator of ours a visitor, or the visitor's browser
# key -> (low, high) for numbers; the others are checked by name below
RANGES: dict[str, tuple[float, float]] = {
    "port": (1024, 65535), "max_games": (1, 1000), "max_waiting": (0, 100_000), "per_ip_games": (1, 1000),
    "idle_seconds": (5, 86_400), "header_timeout": (1, 300), "min_free_mb": (0, 1_000_000),
    "lease_seconds": (2, 60), "watchdog_seconds": (1, 600), "keep_days": (1, 36_500), "workers": (0, 64),
}
INTEGERS = {"port", "max_games", "max_waiting", "per_ip_games", "min_free_mb", "keep_days", "workers"}
DATABASE_SCHEMES = ("postgresql://", "postgres://")
MAX_DATABASE_URL = 1000
DATABASE_VARIABLE = "KALAH_DATABASE_URL"  # the database, from the environment (a secret kept out of the file)
KEYS = (*RANGES, "host", "state_dir", "pace", "edition", "trusted_proxies", "allowed_hosts", "database", "label",
        "accessibility_contact", "log_addresses", "metrics_port", "frame_ancestors", "tape")
LOG_ADDRESSES = ("truncated", "none")  # the access log: a visitor's network (/24, /48), or no address at all
LABEL_CHARACTERS = set("abcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_LABEL = 32


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_max_games() -> int:
    """Games at once by default: ``GAMES_PER_CORE`` for each core this process may use."""
    return max(1, cores() * GAMES_PER_CORE)


@dataclass(frozen=True)
class OnlineSettings:
    """Everything the operator sets; ``game`` holds the game's own settings (the exhibit's)."""

    host: str = "127.0.0.1"  # the app listens here only: TLS and the public name are the reverse proxy's
    port: int = DEFAULT_PORT
    state_dir: Path = Path("records/online")
    pace: str = "1960"  # "1960": the PDP-1 thinks and types at 1960 speed; "fast": as fast as the host runs
    edition: str = "server"  # "browser": finished games' records received from visitors' browsers (POST /records)
    max_games: int = field(default_factory=default_max_games)
    # processes searching beside the server for the cross-checks (0: the server's own interpreter)
    workers: int = field(default_factory=cores)
    max_waiting: int = 200  # the waiting line's length; beyond it a visitor is told to come back later
    per_ip_games: int = 4  # games and connections one address may hold
    idle_seconds: float = 300.0  # a game untouched this long is saved and its machine given back (it resumes by ID)
    watchdog_seconds: float = 10.0  # an emulator silent this long while it should type is hung, and replaced
    header_timeout: float = 10.0
    min_free_mb: int = 100  # less free disk than this under state_dir: new games are refused
    trusted_proxies: tuple[str, ...] = ()  # addresses whose X-Forwarded-For is believed
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost")  # Host and Origin names the page is reached by
    frame_ancestors: tuple[str, ...] = ()  # sites that may show the page in a frame of theirs (none by default)
    database: str = ""  # "": SQLite under state_dir (the embedded default); "postgresql://...": past one host
    label: str = ""  # this server's name in the load balancer (its server line): pages can be sent to it
    accessibility_contact: str = ""  # where a visitor reports an accessibility problem (the page links to it)
    keep_days: int = 365  # finished games older than this, and unfinished ones left alone as long, are pruned
    metrics_port: int = 0  # /metrics on the server's own port (0), or alone on this one
    log_addresses: str = "truncated"  # the access log keeps a visitor's network (IPv4 /24, IPv6 /48), or "none"
    lease_seconds: float = 4.0  # a server drives a game while it holds its lease, renewed four times a lease
    tape: Path | None = None  # another tape of the game (a changed pdp1_src/ tried online), its symbols beside it
    game: GameSettings = field(default_factory=GameSettings)

    def game_config(self) -> GameSettings:
        """The settings one online game runs with: the game's, at the site's pace and idle time."""
        speed = "authentic" if self.pace == "1960" else "fast"
        return replace(self.game, speed=speed, idle_seconds=self.idle_seconds, countdown_seconds=1.0,
                       watchdog_seconds=self.watchdog_seconds, accessibility_contact=self.accessibility_contact,
                       tape=self.tape)


def checked(key: str, value: object) -> object:
    """``value`` for ``key`` if the operator may set it so; ConfigError (one line) if not."""
    if key in RANGES:
        low, high = RANGES[key]
        number_type = int if key in INTEGERS else (int, float)
        if isinstance(value, bool) or not isinstance(value, number_type) or not low <= value <= high:
            kind = "a whole number" if key in INTEGERS else "a number"
            raise ConfigError(f"{key} must be {kind} from {low:,g} to {high:,g}, not {str(value)[:40]!r}")
        return float(value) if key not in INTEGERS else value
    if key == "pace":
        if value not in PACES:
            raise ConfigError(f"pace must be one of {', '.join(PACES)}, not {str(value)[:40]!r}")
        return value
    if key == "edition":
        if value not in EDITIONS:
            raise ConfigError(f"edition must be one of {', '.join(EDITIONS)}, not {str(value)[:40]!r}")
        return value
    if key == "host":
        try:
            return str(ipaddress.ip_address(str(value)))
        except ValueError:
            raise ConfigError(f"host must be an IP address to listen on, not {str(value)[:40]!r}") from None
    if key in ("state_dir", "tape"):
        if not isinstance(value, str) or not value or "\0" in value or "\n" in value:
            raise ConfigError(f"{key} must be a {'folder' if key == 'state_dir' else 'file'} name")
        return Path(value)
    if key == "trusted_proxies":
        if not isinstance(value, list) or len(value) > MAX_HOSTS:
            raise ConfigError(f"trusted_proxies must be a list of at most {MAX_HOSTS} IP addresses")
        try:
            return tuple(str(ipaddress.ip_address(str(v))) for v in value)
        except ValueError:
            raise ConfigError("trusted_proxies must be a list of IP addresses") from None
    if key == "allowed_hosts":
        return checked_hosts(value)
    if key == "frame_ancestors":
        return checked_frame_ancestors(value)
    if key == "database":
        return checked_database(value)
    if key == "accessibility_contact":
        return checked_contact(value)
    if key == "metrics_port":
        try:
            return checked_metrics_port(value)
        except ConfigError as bad:
            raise ConfigError(f"{bad}, not {str(value)[:40]!r}") from None
    if key == "log_addresses":
        if value not in LOG_ADDRESSES:
            raise ConfigError(f"log_addresses must be one of {', '.join(LOG_ADDRESSES)}, not {str(value)[:40]!r}")
        return value
    if key == "label":
        if not isinstance(value, str) or (value and (not 2 <= len(value) <= MAX_LABEL or set(value) - LABEL_CHARACTERS
                                                     or not value[0].isalpha())):
            raise ConfigError(f"label must be \"\" or the server's name in the load balancer: 2 to {MAX_LABEL} "
                              "lower-case letters, digits, - or _, a letter first (such as s8371)")
        return value
    raise ConfigError(f"unknown setting {key!r} in [online]: use {', '.join(KEYS)}")


def checked_database(value: object) -> str:
    """``""`` (SQLite under the state folder) or a PostgreSQL URL, ``postgresql://user@host:port/name``."""
    if (not isinstance(value, str) or len(value) > MAX_DATABASE_URL or any(c < " " or c == "\x7f" for c in value)
            or (value and not value.startswith(DATABASE_SCHEMES))):
        raise ConfigError(f"database must be \"\" (SQLite under state_dir) or a PostgreSQL URL "
                          f"(postgresql://user@host:port/name, at most {MAX_DATABASE_URL} characters)")
    return value


def parse_settings(text: str, base: Path = Path(".")) -> OnlineSettings:
    """Settings from TOML text: ``[online]``, and the game's ``[game]`` and ``[choices]`` as the kiosk's."""
    data, online = front_end_sections(text, "online")
    values = {key: checked(key, value) for key, value in online.items()}
    settings = OnlineSettings(**values, game=game_settings(data, base))  # type: ignore[arg-type]
    if not settings.state_dir.is_absolute():
        settings = replace(settings, state_dir=base / settings.state_dir)
    if settings.tape is not None:  # (a tape the game cannot be played from stops the server, not a visitor's game)
        settings = replace(settings, tape=base / settings.tape)
        problem = game_tape_problem(settings.tape)  # type: ignore[arg-type]
        if problem is not None:
            raise ConfigError(f"tape: {problem}")
    return settings


def load_settings(path: Path | str | None) -> OnlineSettings:
    """The operator's file, or the defaults when there is none (state under ``records/online``)."""
    if path is None:
        return OnlineSettings()
    try:
        text = read_user_text(path, MAX_CONFIG_BYTES, "configuration file")
    except UserFileError as exc:
        raise ConfigError(str(exc)) from None
    return parse_settings(text, Path(path).resolve().parent)
