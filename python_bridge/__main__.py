"""``python -m python_bridge <command> ...``: the bridge's commands, one module each."""

from __future__ import annotations

import importlib
import sys

# command name -> module of python_bridge.commands holding its ``main(argv) -> int``
COMMANDS = {
    "play": "play",
    "crosscheck": "crosscheck",
    "fuzz": "fuzz",
    "bench": "bench",
    "ref": "ref",
    "demo": "demo",
    "kiosk": "kiosk",
    "soak": "soak",
    "prove": "prove",
}

USAGE = "usage: python -m python_bridge {" + ",".join(COMMANDS) + "} ...\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        sys.stderr.write(f"python -m python_bridge: unknown command {name!r}\n" + USAGE)
        return 2
    module = importlib.import_module(f"python_bridge.commands.{COMMANDS[name]}")
    return module.main(rest)


if __name__ == "__main__":
    sys.exit(main())
