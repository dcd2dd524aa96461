"""``python -m python_bridge <command> ...``: the bridge's commands, one module each."""

from __future__ import annotations

import importlib
import sys

# command name -> module holding its ``main(argv) -> int``
COMMANDS = {
    "play": "play_cli",
    "crosscheck": "crosscheck_cli",
    "fuzz": "diag_fuzz",
    "bench": "bench",
    "ref": "ref_cli",
    "demo": "demo_cli",
    "kiosk": "kiosk_cli",
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
    module = importlib.import_module(f"python_bridge.{COMMANDS[name]}")
    return module.main(rest)


if __name__ == "__main__":
    sys.exit(main())
