"""Read and write PDP-1 paper tapes byte for byte as Debian's macro1 (simh 3.8.1) punches them.

A tape is a sequence of 8-bit frames. Only frames with the 0200 hole carry data: their
low 6 bits, three frames to an 18-bit word, high bits first. Blank (000) frames are
leader, gaps and trailer. macro1 punches two formats:

RIM (``macro1 -r``)::

    240 blank frames | dio A, word | dio A, word | ... | jmp start | 1 blank frame

Block-loader tape (the default)::

    240 blank frames
    the 21-word block loader in RIM form: dio 7751, word ... dio 7775, word | jmp 7751
    5 blank frames
    per block: dio first | dio last+1 | up to 64 words | checksum | 5 blank frames
    jmp start | 1 blank frame

The checksum is the ones'-complement (end-around carry) sum of every word of the block
including both ``dio`` words. Blocks never cross a 0100-word boundary: macro1 closes a
block when the next word is not adjacent, or its address is a multiple of 0100. A block
ending at 7777 is announced as ``dio 10000``, i.e. 330000. With ``noinput`` the loader
is left out (but not the 5 blank frames after it). A ``start`` with no address punches
no transfer word.

Writing (``write_rim``, ``write_block_tape``, or ``TapePunch`` for punching word by
word in assembly order, as ``tools.macro`` does) reproduces macro1's bytes for the same words
in the same order.
Reading (``read_tape``, or ``parse_tape`` to get what could be read from a damaged tape)
reads what the hardware's read-in and SIMH's ``boot ptr`` read (see "reading" below:
frames without the 0200 hole are passed over, the loader is recognised by its code) and
checks everything the format allows: checksums, record types, truncation, the loader's
words, and the transfer word. Every error is a ``TapeError`` subclass that carries the
frame offset where the problem is; what read-in passes over is listed in ``Tape.notes``.

The package: ``format`` (frames, words, the loader table, the errors), ``punch`` (the one tape punch,
which the assembler uses too), ``records`` (what is read from a tape) and ``reader`` (reading it as
read-in does).
"""

from .format import (
                     ADDRESS_MASK,
                     BLOCK_ALIGNMENT_MASK,
                     DAC,
                     DATA_HOLE,
                     DIO,
                     GAP_FRAMES,
                     JMP,
                     LEADER_FRAMES,
                     LOADER_ORIGIN,
                     LOADER_REGION,
                     LOADER_SPAN,
                     LOADER_WORDS,
                     MACRO1_LOADER,
                     MAX_BLOCK_WORDS,
                     OPCODE_MASK,
                     READ_IN_OPCODES,
                     TRAILER_FRAMES,
                     WORD_MASK,
                     ChecksumError,
                     LoaderError,
                     MissingStartError,
                     RecordTypeError,
                     TapeError,
                     TruncatedTapeError,
                     frames_of,
                     ones_complement_sum,
)
from .punch import TapePunch, write_block_tape, write_rim
from .reader import loader_kind, parse_tape, read_tape
from .records import LOADER_KINDS, Block, ReadInHazard, RimRecord, Tape

__all__ = ["ADDRESS_MASK", "BLOCK_ALIGNMENT_MASK", "DAC", "DATA_HOLE", "DIO", "GAP_FRAMES", "JMP", "LEADER_FRAMES",
           "LOADER_KINDS", "LOADER_ORIGIN", "LOADER_REGION", "LOADER_SPAN", "LOADER_WORDS", "MACRO1_LOADER",
           "MAX_BLOCK_WORDS", "OPCODE_MASK", "READ_IN_OPCODES", "TRAILER_FRAMES", "WORD_MASK", "Block",
           "ChecksumError", "LoaderError", "MissingStartError", "ReadInHazard", "RecordTypeError", "RimRecord",
           "Tape", "TapeError", "TapePunch", "TruncatedTapeError", "frames_of", "loader_kind",
           "ones_complement_sum", "parse_tape", "read_tape", "write_block_tape", "write_rim"]
