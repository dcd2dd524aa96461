"""``python -m python_bridge figures``: write docs/figures.md (argument parsing only; the page is
bench.figures_page's)."""

from __future__ import annotations

import argparse

from ..bench.figures_page import DEFAULT, SECTIONS, choose
from .validators import UsageError, new_parser, run_guarded


def sections(text: str):
    """An argparse ``type``: ``default``, ``all`` or section names separated by commas."""
    try:
        return choose(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; the sections: default, all, or names that --help lists") from None


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("python -m python_bridge figures",
                        "Measure every figure the docs quote and write them to docs/figures.md.")
    parser.add_argument("--sections", type=sections, default="default", metavar="default|all|NAME,...",
                        help=f"which sections to run again (default: {', '.join(DEFAULT)}; all adds the long ones: "
                             f"{', '.join(s.name for s in SECTIONS if s.long)}); the others are kept. "
                             f"The sections: {', '.join(s.name for s in SECTIONS)}")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..bench.figures_page import write_page

    return run_guarded(lambda: write_page(args.sections), (UsageError,), needs_tape=True)
