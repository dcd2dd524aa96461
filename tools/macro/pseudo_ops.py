"""The statement pseudo-ops: constants, variables, repeat, start, text, noinput, expunge.

(``define`` is in ``macros``; ``decimal``, ``octal``, ``flexo`` and ``char``
produce values and live in ``expressions``.)  Literals ``(expr`` are counted in
pass 1 and given addresses in pass 2 in the next ``constants`` block, equal
values sharing a word; overbarred symbols become words at ``variables``.
"""

from __future__ import annotations

from tools.papertape.format import JMP

from . import charset
from .expressions import LOWER_SHIFT, MASK18, UPPER_SHIFT
from .listing import LINE_LOC, LINE_VAL
from .messages import Fatal
from .scanner import COMMA, CR, IS_DONE, NL, SPACE
from .symbols import (
    OP_CONSTANTS,
    OP_DEFINE,
    OP_EXPUNGE,
    OP_NOINPUT,
    OP_REPEAT,
    OP_START,
    OP_TEXT,
    OP_VARIABLES,
)

ADDRESS_MASK = 0o7777
MAX_CONSTANT_BLOCKS = 10
MAX_LITERALS = 1000
TEXT_SURVIVOR = 8     #: bytes of the last line macro1 still has if the input ends in a text


class PseudoOpMixin:
    """Pseudo-op handling for the Assembler (state lives on the assembler)."""

    def pseudo_op(self, op: int) -> None:
        line = self.line
        if op == OP_CONSTANTS:
            self.advance()
            self.constants()
        elif op == OP_VARIABLES:
            self.advance()
            self.variables()
        elif op == OP_DEFINE:
            self.advance()
            self.define_macro()
        elif op == OP_REPEAT:
            self.advance()
            count = self.expression_value() & ADDRESS_MASK
            if line[self.lexstart] == COMMA:
                self.advance()
            self.nrepeats += 1
            restart = self.lexstart
            for _ in range(count):
                self.cc = restart
                self.process_line()
            self.cc = self.maxcc
            self.nrepeats -= 1
        elif op == OP_START:
            self.advance()
            self.punch.flush()
            if not IS_DONE[line[self.lexstart]]:
                if line[self.lexstart] == SPACE:
                    self.advance()
                self.start_address = self.expression_value() & ADDRESS_MASK
                self.start_seen = True
                self.advance()
                self.print_line(0, self.start_address, LINE_VAL)
                self.punch.triplet(JMP | self.start_address)
            self.title_set = False        # a further tape may follow, with its own title
        elif op == OP_TEXT:
            self.text()
        elif op == OP_NOINPUT:
            self.advance()
            self.noinput = True
        elif op == OP_EXPUNGE:
            self.advance()
            if self.pass_number == 1:
                self.symtab.clear()

    def constants(self) -> None:
        """Reserve (pass 1) or punch (pass 2) the literal pool.  Pass 1 reserves a
        word per literal *use*; pass 2 pools equal values and punches only the
        distinct ones, leaving the rest of the block unpunched."""
        block = self.nconst
        if self.pass_number == 1:
            self.set_block_base(block, self.clc)
            for _ in range(self.block_size(block)):
                self.increment_clc()
            self.nconst += 1
            return
        literals = self.literals
        for index in range(self.block_size(block)):
            if index < len(literals):
                self.punch_word(self.clc, literals[index] & MASK18)
            self.increment_clc()
        self.nconst += 1
        self.literals = []

    # macro1 keeps ten literal blocks in two arrays and does not check the
    # "constants" count: blocks 11 to 13 use the variables stored next to the
    # arrays.  Those cases are reproduced; later ones wreck the assembler itself.

    def block_size(self, block: int) -> int:
        if block < MAX_CONSTANT_BLOCKS:
            return self.lit_count[block]
        if block in (10, 11):           # the two halves of the cross-reference table pointer
            if self.options.cross_reference and self.pass_number == 2:
                raise Fatal("more than 10 constants blocks with -x: macro1 takes a memory "
                            "address as the block size, and its result differs from run to run")
            return 0
        return self.lexstart            # block 13

    def set_block_base(self, block: int, location: int) -> None:
        if block < MAX_CONSTANT_BLOCKS:
            self.lit_loc[block] = location
        elif block == 10:
            self.list_line_count = location
        elif block == 11:
            self.macro_count = location
        elif block == 12:
            self.lexterm = location
        else:
            raise Fatal("more than 13 constants blocks: macro1 overwrites its pass number")

    def literal(self, value: int) -> int:
        """The address of a literal: in pass 1 only a count; in pass 2 a slot in
        the next constants block, shared with an equal earlier literal."""
        block = self.nconst
        if block >= MAX_CONSTANT_BLOCKS:
            raise Fatal("too many 'constants'; increase MAX_CONSTANTS")
        if self.pass_number == 1:
            self.lit_count[block] += 1
            if self.lit_count[block] == MAX_LITERALS:
                raise Fatal("too many literals; increase MAX_LITERALS")
            return self.lit_count[block]
        literals = self.literals
        for index, known in enumerate(literals):
            if known == value:
                return self.lit_loc[block] + index
        if len(literals) == MAX_LITERALS:
            raise Fatal("too many literals; increase MAX_LITERALS")
        literals.append(value)
        return self.lit_loc[block] + len(literals) - 1

    def variables(self) -> None:
        """Reserve a word for each overbarred symbol seen so far."""
        if self.pass_number == 2:
            self.print_line(self.clc, 0, LINE_LOC)
        self.vars_addr = self.clc
        self.clc = (self.clc + self.nvars) & ADDRESS_MASK
        if self.pass_number == 2:
            self.print_line(self.clc, 0, LINE_LOC)

    def text(self) -> None:
        """``text /string/``: three FIO-DEC codes a word, shifts inserted, ending
        in lower case; the string may run over several lines."""
        line = self.line
        while True:
            if self.cc == self.maxcc:
                self.stderr.append("FIX ME!\n")
                return
            delimiter = line[self.cc]
            self.cc += 1
            if delimiter != SPACE:
                break
        if delimiter >= 0o200:          # a C char: never equal to an unsigned one
            delimiter -= 0o400
        word = count = 0
        case = charset.LOWER
        while True:
            code, case = self.next_fiodec(case, delimiter)
            if code < 0:
                break
            word |= code << ((2 - count) * 6)
            count += 1
            if count == 3:
                self.punch_word(self.clc, word)
                self.increment_clc()
                word = count = 0
        if count:
            self.punch_word(self.clc, word)
            self.increment_clc()

    def next_fiodec(self, case: int, delimiter: int) -> tuple[int, int]:
        """The next code of a text string (-1 at its end) and the new case."""
        line = self.line
        if self.cc >= self.maxcc:
            if delimiter == -1:
                return -1, case
            self.read_line(TEXT_SURVIVOR)
            if self.end_of_input:
                return -1, case
        char = line[self.cc]
        if char == NL:
            char = CR
        elif char == CR:
            raise Fatal("text: a carriage return in a string makes macro1 loop for ever")
        if delimiter != -1 and char == delimiter:
            if case == charset.LOWER:
                self.cc += 1
                return -1, case
            return LOWER_SHIFT, charset.LOWER
        code = self.fiodec_entry(char, self.cc)
        if not code & charset.BOTH:
            raise Fatal("text: a character with no FIO-DEC code makes macro1 loop for ever")
        if not code & case:
            case ^= charset.BOTH
            return (LOWER_SHIFT if case == charset.LOWER else UPPER_SHIFT), case
        self.cc += 1
        return code & charset.CODE_BITS, case
