"""The paper tape as the demonstration shows it being read in: drawn from the real tape's bytes.

Why a module of its own: the show starts, as an operator did, by mounting
``build/kalah.rim`` on the reader and pressing READ IN.  Everything drawn here
comes from the bytes of that file through ``tools.papertape.read_tape``: a
picture of the punched frames (eight channels and the feed holes), then one
line per record -- leader, the loader read in by the hardware, every block
with its addresses and its checksum as punched and as summed, the start word
-- each shown when SIMH's reader has passed the record's last frame (the
reader's position is SIMH's ``ptr`` register ``POS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.disasm import disassemble
from tools.papertape import Tape

HOLE, NO_HOLE, FEED = "o", " ", "."
# Channels from the top of the drawing down: 8..4, the feed (sprocket) holes, 3..1.
STRIP_ROWS = (7, 6, 5, 4, 3, None, 2, 1, 0)


@dataclass(frozen=True)
class TapeRecord:
    """One piece of the tape as the read-in passes it: frames ``first``..``last`` and its line."""

    kind: str  # "leader", "loader", "block", "start"
    first: int
    last: int
    line: str
    checksum: int | None = None  # blocks: the checksum punched on the tape


def tape_records(tape: Tape) -> list[TapeRecord]:
    """The records of a block-loader tape in tape order, each with the line the show prints."""
    if tape.format != "block" or not tape.has_loader or tape.start is None or tape.start_offset is None:
        raise ValueError("the show reads a block-loader tape with its loader and a start address")
    records = [TapeRecord("leader", 0, tape.leader - 1,
                          f"leader   frames     0-{tape.leader - 1:<5}  {tape.leader} blank frames, feed holes only")]
    first, last = tape.loader[0], tape.loader[-1]
    loader_end = last.offset + 6 + 3 - 1  # the last dio/word pair, then jmp into the loader
    records.append(TapeRecord(
        "loader", first.offset, loader_end,
        f"loader   frames {first.offset:5}-{loader_end:<5}  {len(tape.loader)} words in read-in form, "
        f"{first.address:04o}-{last.address:04o}, then jmp {tape.loader_start:04o}: the block loader runs"))
    for number, block in enumerate(tape.blocks, 1):
        end = block.offset + 3 * (len(block.words) + 3) - 1  # dio first, dio last+1, words, checksum
        verdict = "ok" if block.ok else "BAD: the loader halts"
        records.append(TapeRecord(
            "block", block.offset, end,
            f"block {number:2}  frames {block.offset:5}-{end:<5}  {block.first:04o}-{block.last:04o}  "
            f"{len(block.words):2} words  checksum {block.checksum:06o}, summed {block.computed:06o}  {verdict}",
            block.checksum))
    start_end = tape.start_offset + 2
    records.append(TapeRecord("start", tape.start_offset, start_end,
                              f"start    frames {tape.start_offset:5}-{start_end:<5}  jmp {tape.start:04o}: "
                              "the program starts"))
    return records


def tape_summary(tape: Tape, name: str) -> str:
    return (f"{name}: {tape.length} frames: {tape.leader} of leader, a {len(tape.loader)}-word loader, "
            f"{len(tape.blocks)} blocks ({sum(len(b.words) for b in tape.blocks)} words), start {tape.start:04o}")


def tape_strip(data: bytes, first: int, count: int) -> list[str]:
    """A picture of ``count`` frames of the tape from frame ``first``, one column a frame.

    Rows are the channels 8 to 4, the feed holes, channels 3 to 1, as the
    tape lies in the reader; ``o`` is a hole.  Below, the first and last
    frame numbers.
    """
    frames = data[first:first + count]
    edge = "  +" + "-" * len(frames) + "+"
    rows = [edge]
    for bit in STRIP_ROWS:
        if bit is None:
            cells = FEED * len(frames)
            label = "feed"
        else:
            cells = "".join(HOLE if frame >> bit & 1 else NO_HOLE for frame in frames)
            label = f"ch {bit + 1}"
        rows.append(f"  |{cells}| {label}")
    rows.append(edge)
    last = first + len(frames) - 1
    left, right = f"^ frame {first}", f"frame {last} ^"
    rows.append("   " + left + " " * max(1, len(frames) - len(left) - len(right)) + right)
    return rows


def loader_words_line(tape: Tape, words: int = 3) -> str:
    """The first of the loader's words as read in: ``dio address``, then the word (disassembled)."""
    shown = ", ".join(f"dio {r.address:04o} + {r.word:06o} ({disassemble(r.word)})" for r in tape.loader[:words])
    return f"the leader's end, then the loader in read-in form: {shown}, ..."


class ReadInDisplay:
    """Prints each record's line once the reader has passed its last frame."""

    def __init__(self, records: list[TapeRecord], write) -> None:
        self.records = records
        self.write = write
        self.shown = 0

    def reader_at(self, position: int) -> None:
        """SIMH's reader has read ``position`` frames: show every record it has passed."""
        while self.shown < len(self.records) and self.records[self.shown].last < position:
            self.write("  " + self.records[self.shown].line + "\n")
            self.shown += 1

    def finish(self) -> None:
        """The program has started: whatever is left (the start word) has been read."""
        self.reader_at(1 << 30)
