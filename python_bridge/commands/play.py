"""``python -m python_bridge play``: you against the PDP-1 at the terminal (argument parsing only; the game is in play.terminal)."""

from __future__ import annotations

from pathlib import Path

from ..machine.front_panel import PanelSettings
from ..play.terminal import RECORDS, play_at_terminal
from . import demo
from .validators import UsageError, add_variant_flags, build_parser, run_guarded, variants_from


def _authentic(args) -> int:
    """1960 speed.  SIMH 3.8.1's throttle cannot give it for this program (it calibrates at full
    speed after every start and lets the typewriter's waits pass in no host time), so the paced
    show of the demonstration plays instead: the machine stepped at 200,000 memory cycles a second,
    the typewriter at 10 characters a second, the visitor at the keyboard, every move cross-checked."""
    argv = ["--visitor", "--no-captions", "--first", "visitor" if args.first == "you" else "pdp-1",
            "--pits", str(args.pits), "--seeds", str(args.seeds), "--level", str(args.level),
            "--out", str(args.records)]
    argv += variants_from(args).flags()
    return demo.main(argv)


def main(argv: list[str]) -> int:
    parser = build_parser("python -m python_bridge play", "Play Kalah against the emulated PDP-1.")
    parser.add_argument("--pits", type=int, default=6, choices=range(1, 7), metavar="1-6", help="pits a side (6)")
    parser.add_argument("--seeds", type=int, default=4, choices=range(1, 7), metavar="1-6", help="seeds a pit (4)")
    parser.add_argument("--level", type=int, default=0, choices=range(0, 21), metavar="0-20",
                        help="plies the PDP-1 searches; 0 (default): the default level, within 10 s of 1960 thinking")
    parser.add_argument("--first", choices=("you", "pdp-1"), default="you", help="who moves first (you)")
    parser.add_argument("--authentic", action="store_true",
                        help="1960 speed: 200,000 memory cycles a second, the typewriter at 10 characters a second "
                             "(the demonstration's paced show, with you at the typewriter)")
    parser.add_argument("--records", type=Path, default=RECORDS, help="where game records are saved (records/)")
    add_variant_flags(parser)
    args = parser.parse_args(argv)
    if args.authentic:
        return _authentic(args)
    panel = PanelSettings(pits=args.pits, seeds=args.seeds, depth=args.level, variants=variants_from(args),
                          pdp1_first=args.first == "pdp-1")
    return run_guarded(lambda: play_at_terminal(panel, args.records), (UsageError,))
