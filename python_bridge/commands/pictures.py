"""``python -m python_bridge pictures``: the docs' pictures of the kiosk's and the online page, taken in
Debian's Chromium (argument parsing only; the pictures are bench.pictures')."""

from __future__ import annotations

import argparse

from .validators import UsageError, folder_name, new_parser, ready_folder, run_guarded


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge pictures",
                        "Screenshots of the kiosk's screen and the online page (a phone, a desktop), a seeded game "
                        "under way, in Debian's Chromium: the docs' pictures (docs/pictures/*.png).")
    parser.add_argument("--pictures", type=folder_name, default=None, metavar="DIR",
                        help="where to write them (default: docs/pictures, the ones the docs show)")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..bench.pictures import FOLDER, make_pictures

    return run_guarded(lambda: make_pictures(ready_folder(args.pictures or FOLDER, "--pictures")), (UsageError,),
                       needs_tape=True)
