"""Command line for PDP-1 paper tapes: ``python -m tools.tape {dump,check,image} TAPE``.

* ``dump``  shows the format, leader, loader, every block (addresses, word count,
  checksum ok/bad) with its words disassembled, the start address and the trailer.
  Exit 0, or 1 if the tape is damaged (what could be read is still shown).
* ``check`` exits 0 for a sound tape (one line: format, which loader reads it, blocks,
  words, start; then a ``note:`` line for anything read-in passes over, such as frames
  without the 0200 hole); 1 with one line per problem for a damaged tape, or for one a
  real PDP-1's read-in would not load (see ``ReadInHazard``).
* ``image`` prints the memory image as ``address: word`` octal lines (``--core`` adds
  the loader's words, as SIMH's ``load -b`` leaves memory). Exit 1 if damaged.

Bad arguments or an unreadable file: a message and exit 2. Never a traceback: tape
damage is reported through ``tools.papertape.TapeError`` with its frame offset.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tools.cli_args import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, OneLineParser
from tools.disasm import disassemble
from tools.papertape import Block, LoaderError, Tape, parse_tape
from tools.user_files import UserFileError, read_user_file

EXIT_DAMAGED = EXIT_FAILURE

FORMAT_NAMES = {
    "rim": "RIM tape (macro1 -r): dio/word pairs read in by the hardware",
    "block": "block-loader tape (macro1's default)",
}


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _word_line(address: int, word: int, note: str = "") -> str:
    text = f"  {address:04o}  {word:06o}  {disassemble(word)}"
    return f"{text:<40}{note}".rstrip()


def _block_summary(number: int, block: Block) -> str:
    verdict = "ok" if block.ok else f"BAD (words sum to {block.computed:06o})"
    return (f"block {number} at frame {block.offset}: {block.first:04o}-{block.last:04o}, "
            f"{_plural(len(block.words), 'word')}, checksum {block.checksum:06o} {verdict}")


def dump_lines(tape: Tape, name: str) -> list[str]:
    """The ``dump`` report as lines of text."""
    fmt = FORMAT_NAMES[tape.format]
    if tape.format == "block" and not tape.has_loader:
        fmt += ", without a loader (noinput)"
    lines = [f"tape: {name}, {_plural(tape.length, 'frame')}", f"format: {fmt}",
             f"leader: {_plural(tape.leader, 'blank frame')}"]
    if tape.has_loader:
        first, last = tape.loader[0].address, tape.loader[-1].address
        kind = tape.describe_loader()
        if any(isinstance(error, LoaderError) for error in tape.errors):
            kind += ", DAMAGED (see the error below)"
        lines.append(f"loader: {_plural(len(tape.loader), 'word')} at {first:04o}-{last:04o} "
                     f"in RIM form, then jmp {tape.loader_start:04o}: {kind}")
        lines += [_word_line(r.address, r.word) for r in tape.loader]
    if tape.format == "rim":
        lines.append(f"records: {_plural(len(tape.records), 'dio/word pair')}")
        lines += [_word_line(r.address, r.word, f"frame {r.offset}") for r in tape.records]
    for number, block in enumerate(tape.blocks, 1):
        lines.append(_block_summary(number, block))
        lines += [_word_line(a, w) for a, w in zip(block.addresses, block.words, strict=True)]
    if tape.start is not None:
        lines.append(f"start: jmp {tape.start:04o} at frame {tape.start_offset}")
        lines.append(f"trailer: {_plural(tape.trailer, 'blank frame')}")
    else:
        lines.append("start: none (no transfer word read)")
    lines += [f"note: {note}" for note in tape.notes]
    lines += [f"warning: {hazard}" for hazard in tape.hazards]
    lines += [f"error: {error}" for error in tape.errors]
    return lines


def _summary(tape: Tape) -> str:
    memory = tape.memory
    span = f" at {min(memory):04o}-{max(memory):04o}" if memory else ""
    parts = ["RIM tape" if tape.format == "rim" else "block-loader tape", tape.loader_summary()]
    if tape.format == "block":
        parts.append(_plural(len(tape.blocks), "block"))
    parts.append(f"{_plural(tape.word_count(), 'word')}{span}")
    parts.append(f"start {tape.start:04o}")
    return ", ".join(parts)


def _cmd_dump(tape: Tape, name: str, _args: argparse.Namespace) -> int:
    print("\n".join(dump_lines(tape, name)))
    return EXIT_OK if tape.ok else EXIT_DAMAGED


def _cmd_check(tape: Tape, name: str, _args: argparse.Namespace) -> int:
    if tape.ok and not tape.hazards:
        print(f"{name}: ok: {_summary(tape)}")
        for note in tape.notes:
            print(f"{name}: note: {note}")
        return EXIT_OK
    for error in tape.errors:
        print(f"{name}: {error}", file=sys.stderr)
    for hazard in tape.hazards:
        print(f"{name}: will not load: {hazard}", file=sys.stderr)
    return EXIT_DAMAGED


def _cmd_image(tape: Tape, name: str, args: argparse.Namespace) -> int:
    if not tape.ok:
        for error in tape.errors:
            print(f"{name}: {error}", file=sys.stderr)
        return EXIT_DAMAGED
    image = tape.core() if args.core else tape.memory
    print("\n".join(f"{address:04o}: {image[address]:06o}" for address in sorted(image)))
    return EXIT_OK


COMMANDS = {"dump": _cmd_dump, "check": _cmd_check, "image": _cmd_image}


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m tools.tape",
        description="Read PDP-1 paper tapes as the read-in hardware does (RIM or block-loader format).")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    helps = {"dump": "show format, leader, loader, blocks with disassembly, start",
             "check": "exit 0 if the tape is sound, 1 with the problem otherwise",
             "image": "print the memory image as 'address: word' octal lines"}
    for command, text in helps.items():
        sub = commands.add_parser(command, help=text, description=text)
        sub.add_argument("tape", type=Path, help="tape file (e.g. prog.rim)")
        if command == "image":
            sub.add_argument("--core", action="store_true",
                             help="include the loader's words, as SIMH's load -b leaves memory")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        data = read_user_file(args.tape, what="tape")
    except UserFileError as error:  # a FIFO, a device, a folder, a NUL in the name: one line
        print(f"tape: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](parse_tape(data), str(args.tape), args)
    except BrokenPipeError:  # e.g. `dump X.rim | head`
        sys.stderr.close()
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
