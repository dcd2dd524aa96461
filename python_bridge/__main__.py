"""``python -m python_bridge <command> ...``: the bridge's commands, one module each."""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
import tomllib
from pathlib import Path
from types import ModuleType

from .commands.validators import EXIT_FAILURE, EXIT_OK, EXIT_STATUSES, EXIT_USAGE

DISTRIBUTION = "pdp1-kalah"

# command name -> module of python_bridge.commands holding its ``main(argv) -> int``
# (and ``build_parser()``, whose description is the command's line in --help)
COMMANDS = {
    "play": "play",
    "crosscheck": "crosscheck",
    "fuzz": "fuzz",
    "bench": "bench",
    "ref": "ref",
    "demo": "demo",
    "kiosk": "kiosk",
    "online": "online",
    "online-cluster": "online_cluster",
    "soak": "soak",
    "think": "think",
    "prove": "prove",
    "strength": "strength",
    "replay": "replay",
    "bench-ref": "bench_ref",
    "bench-contract": "bench_contract",
    "bench-kiosk": "bench_kiosk",
    "bench-online": "bench_online",
    "bench-web": "bench_web",
    "first-visit": "first_visit",
    "solve-table": "solve_table",
    "figures": "figures",
    "pictures": "pictures",
}

USAGE = "usage: python -m python_bridge [--version] {" + ",".join(COMMANDS) + "} ...\n"


def version() -> str:
    """The project's version: the installed package's metadata, else pyproject.toml beside the package."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        project = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            return tomllib.loads(project.read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown (not installed)"


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"python_bridge.commands.{COMMANDS[name]}")


def own_parser(module: ModuleType):
    """The command's ``build_parser()`` when the module defines one (not one imported from validators)."""
    build = getattr(module, "build_parser", None)
    return build if build is not None and build.__module__ == module.__name__ else None


def missing_package(name: str) -> str | None:
    """The Python package a command needs and that this set-up left out (aiohttp: the kiosk's), if any."""
    try:
        command_module(name)
    except ModuleNotFoundError as missing:
        if missing.name and not missing.name.startswith(("python_bridge", "tools")):
            return missing.name
        raise
    return None


def summary(module: ModuleType) -> str:
    """A command's one line: its parser's description, or else its docstring's first sentence."""
    build = own_parser(module)
    text = build().description if build else ""
    if not text:
        text = (module.__doc__ or "").split("\n\n")[0]
        text = text.split(":", 1)[-1] if text.startswith("``") else text
        text = text.split(" (")[0].strip().rstrip(".")
        text = text[:1].upper() + text[1:] + "."
    return " ".join(text.split())


def help_text() -> str:
    width = max(map(len, COMMANDS))
    lines = [USAGE, "Kalah on the emulated PDP-1, checked move by move against a reference engine.", "",
             "--version prints the version.  Exit statuses: "
             + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_STATUSES.items()) + ".", "",
             "commands (python -m python_bridge COMMAND --help for its options):"]
    for name in COMMANDS:
        absent = missing_package(name)
        text = f"(needs {absent}: make {name} installs it)" if absent else summary(command_module(name))
        lines.append(f"  {name:<{width}}  {text}")
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        sys.stderr.write(f"python -m python_bridge: error: a command is needed: {', '.join(COMMANDS)} (see --help)\n")
        return EXIT_USAGE
    if argv[0] in ("-h", "--help"):
        sys.stdout.write(help_text())
        return EXIT_OK
    if argv[0] in ("-V", "--version"):
        if len(argv) > 1:
            sys.stderr.write(f"python -m python_bridge: error: --version takes nothing after it, "
                             f"not {' '.join(argv[1:])[:40]!r}\n")
            return EXIT_USAGE
        print(f"{DISTRIBUTION} {version()}")
        return EXIT_OK
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        sys.stderr.write(f"python -m python_bridge: error: unknown command {name[:40]!r}; "
                         f"the commands are {', '.join(COMMANDS)} (see --help)\n")
        return EXIT_USAGE
    absent = missing_package(name)
    if absent:
        sys.stderr.write(f"python -m python_bridge {name}: error: needs the Python package {absent}, which this "
                         f"set-up left out: make {name} (or scripts/bootstrap.sh kiosk) installs it\n")
        return EXIT_FAILURE
    return command_module(name).main(rest)


if __name__ == "__main__":
    sys.exit(main())
