"""``python -m python_bridge kiosk [--config FILE]``: the museum kiosk's server on 127.0.0.1.

Open ``http://127.0.0.1:PORT/`` in Chromium's kiosk mode (docs/kiosk.md,
"Trying it on your own machine"); the configuration file is described in ``kiosk.sample.toml``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from ..exhibit.health import state_dir_problem
from ..kiosk.config import ConfigError, KioskConfig, load_config
from ..kiosk.logs import setup_log
from ..kiosk.server import serve  # aiohttp, the kiosk's extra: without it __main__ says so in one line
from ..machine.simh import SimhError
from .validators import EXIT_FAILURE, EXIT_OK, fail, new_parser, readable_file


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge kiosk",
                        "Serve the museum kiosk: visitors play the emulated PDP-1 on a touch screen.")
    parser.add_argument("--config", type=readable_file, metavar="FILE",
                        help="the kiosk's configuration file (TOML; see kiosk.sample.toml)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = load_config(args.config) if args.config else KioskConfig()
    except ConfigError as bad:
        return fail(f"{args.config}: {bad}")
    log = setup_log(config)
    problem = state_dir_problem(config.state_dir)
    if problem:  # degraded, not dark: the screen plays on, health says why
        log.error("%s: running degraded, the game and the counters kept in memory (see /health)", problem)
    try:
        from ..machine.kalah_program import ensure_tape

        ensure_tape()
        asyncio.run(serve(config, log))
    except OSError as exc:
        log.error("cannot serve on %s:%d: %s", config.host, config.port, exc.strerror or exc)
        return EXIT_FAILURE
    except SimhError as exc:
        log.error("%s", exc)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        pass
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
