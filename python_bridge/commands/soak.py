"""``python -m python_bridge soak``: attract games on an unattended kiosk (argument parsing only; the soak is in kiosk.soak)."""

from __future__ import annotations

from ..kiosk.soak import run_soak
from .validators import build_parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser("python -m python_bridge soak", "Attract-mode games on an unattended kiosk; growth is a failure.")
    parser.add_argument("--games", type=int, default=20, help="attract-mode games to play (20)")
    parser.add_argument("--kill-every", type=int, default=5, help="kill the pdp1 every this many games (5; 0: never)")
    parser.add_argument("--pits", type=int, default=6, choices=range(1, 7))
    parser.add_argument("--seeds", type=int, default=4, choices=range(1, 7))
    parser.add_argument("--level", type=int, default=0, choices=range(0, 21), help="0: the default level")
    parser.add_argument("--timeout", type=float, default=3600, help="give up after this many seconds")
    args = parser.parse_args(argv)
    return run_soak(args.games, args.kill_every, args.pits, args.seeds, args.level, args.timeout)
