"""``python -m python_bridge play``: a visitor plays the PDP-1 at the terminal, every move cross-checked.

The emulated typewriter prints live; when the PDP-1 asks for a move the
visitor types a line (a pit number, or ``s`` to swap when offered), which is
typed on the PDP-1's keyboard.  Every move is checked against the reference
engine, a failed emulator is restarted with the game restored, and the game
record is saved when the program ends (``records/``).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .cli_support import UsageError, add_variant_flags, build_parser, run_guarded, variants_from
from .crosscheck import CrossCheckMismatch
from .front_panel import PanelSettings, describe_switches, describe_test_word
from .kalah_game import Game
from .kalah_machine import ROOT
from .notation import format_record
from .recovery import RecoveringGame
from .simh import FULL_SPEED, SimhError

RECORDS = ROOT / "records"


class VisitorQuit(Exception):
    """The visitor ended the session (end of input or interrupt)."""


@dataclass
class EchoFilter:
    """Writes the typewriter to the terminal, leaving out SIMH's echo of keys the terminal already showed."""

    out: TextIO
    expect: str = ""  # the echo still to drop

    def typed(self, keys: str) -> None:
        self.expect = keys + "\r\n"

    def __call__(self, text: str) -> None:
        while self.expect and text:
            if text[0] == self.expect[0]:
                text, self.expect = text[1:], self.expect[1:]
            else:
                self.expect = ""
        self.out.write(text.replace("\r", ""))
        self.out.flush()


@dataclass
class TerminalVisitor:
    """The person at the terminal: reads a line when the PDP-1 asks for a move."""

    echo: EchoFilter
    source: TextIO = field(default_factory=lambda: sys.stdin)

    def choose(self, game: Game) -> str:
        line = self.source.readline()
        if not line:
            raise VisitorQuit()
        keys = line.rstrip("\r\n")
        self.echo.typed(keys)
        return keys


def save_record(game: RecoveringGame, started: str, folder: Path = RECORDS) -> Path | None:
    """Write the game's settings, record and transcript to ``folder``; return the file."""
    session = game.session
    if session is None or session.checker is None:
        return None
    checker = session.checker
    t = checker.title
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"kalah-{started}.txt"
    lines = [
        "Kalah on the PDP-1: game record",
        f"pits {t.pits}  seeds {t.seeds}  level {t.level or 'auto'}  rules: {t.variants.describe()}",
        f"first: {t.first}",
        f"record: {format_record(checker.game.record)}",
        f"moves cross-checked: {checker.moves_checked}  emulator restarts: {game.restarts}",
        "",
        "typewriter transcript:",
        session.transcript.replace("\r", ""),
    ]
    path.write_text("\n".join(lines))
    return path


def _authentic(args) -> int:
    """1960 speed.  SIMH 3.8.1's throttle cannot give it for this program (it calibrates at full
    speed after every start and lets the typewriter's waits pass in no host time), so the paced
    show of the demonstration plays instead: the machine stepped at 200,000 instructions a second,
    the typewriter at 10 characters a second, the visitor at the keyboard, every move cross-checked."""
    from . import demo_cli

    argv = ["--visitor", "--no-captions", "--first", "visitor" if args.first == "you" else "pdp-1",
            "--pits", str(args.pits), "--seeds", str(args.seeds), "--level", str(args.level),
            "--out", str(args.records)]
    argv += variants_from(args).flags()
    return demo_cli.main(argv)


def main(argv: list[str]) -> int:
    parser = build_parser("python -m python_bridge play", "Play Kalah against the emulated PDP-1.")
    parser.add_argument("--pits", type=int, default=6, choices=range(1, 7), metavar="1-6", help="pits a side (6)")
    parser.add_argument("--seeds", type=int, default=4, choices=range(1, 7), metavar="1-6", help="seeds a pit (4)")
    parser.add_argument("--level", type=int, default=0, choices=range(0, 21), metavar="0-20",
                        help="plies the PDP-1 searches; 0 (default): as deep as 10 s of 1960 thinking allows")
    parser.add_argument("--first", choices=("you", "pdp-1"), default="you", help="who moves first (you)")
    parser.add_argument("--authentic", action="store_true",
                        help="1960 speed: 200,000 instructions a second, the typewriter at 10 characters a second "
                             "(the demonstration's paced show, with you at the typewriter)")
    parser.add_argument("--records", type=Path, default=RECORDS, help="where game records are saved (records/)")
    add_variant_flags(parser)
    args = parser.parse_args(argv)
    if args.authentic:
        return _authentic(args)
    panel = PanelSettings(pits=args.pits, seeds=args.seeds, depth=args.level, variants=variants_from(args),
                          pdp1_first=args.first == "pdp-1")
    out = sys.stdout
    echo = EchoFilter(out)
    started = time.strftime("%Y%m%d-%H%M%S")

    def body() -> int:
        out.write(f"sense switches 1-6: {describe_switches(panel.switches())}   "
                  f"test word: {describe_test_word(panel.test_word())}\n"
                  "reading the Kalah tape in...  (type a pit number and Enter; Ctrl-D to leave)\n")
        game = RecoveringGame(panel, TerminalVisitor(echo), FULL_SPEED,
                              echo=echo, notice=lambda msg: out.write("\n" + msg + "\n"),
                              silence_timeout=30)
        status = 0
        try:
            with game:
                while True:
                    outcome = game.play_game()
                    out.write(f"\n[{outcome.moves_checked} moves cross-checked against the reference engine]\n")
                    out.write("another game? [y/N] ")
                    out.flush()
                    if not sys.stdin.readline().strip().lower().startswith("y"):
                        break
                    game.new_game()
        except (VisitorQuit, KeyboardInterrupt):
            out.write("\n[leaving]\n")
        except CrossCheckMismatch as mismatch:
            out.write(f"\n{mismatch}\n")
            status = 1
        except SimhError as failure:
            out.write(f"\n[the emulator failed and could not be restored: {failure}]\n")
            status = 1
        finally:
            path = save_record(game, started, args.records)
            if path:
                out.write(f"[game record saved in {path}]\n")
        return status

    return run_guarded(body, (UsageError,))
