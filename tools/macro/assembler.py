"""The two-pass assembler: statements, pseudo-ops, macros, literals, variables.

Pass 1 collects symbol values; pass 2 does it all again, this time punching
the tape, writing the listing and reporting errors.  The passes share the
symbol table (pass 2 starts with pass 1's final values), the literal-block
sizes, and even the block buffer of the tape punch: words pass 1 left in it
are punched at the start of pass 2, which is what macro1 does.

Every rule here was checked against the behaviour of Debian's macro1
(simh 3.8.1); where that behaviour is accidental it is still reproduced, since
the tapes must be identical, and the docstrings say so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from . import messages
from .expressions import LOWER_SHIFT, MASK18, UPPER_SHIFT, ExpressionMixin, wrap32
from .listing import LINE, LINE_LOC, LINE_LOC_VAL, LINE_VAL, LINES_PER_PAGE, ListingMixin, octal
from .punch import JMP, TapePunch
from .scanner import (
    BUFFER_SIZE, COMMA, CR, EQUALS, FF, IS_ALNUM, IS_BLANK, IS_DIGIT, IS_DONE, IS_END, NL,
    SLASH, SPACE, TAB, ScannerMixin,
)
from . import charset
from .source import SourceFiles
from .symbols import (
    DEFFIX, DEFINED, DUPLICATE, LABEL, MACRO, OP_CONSTANTS, OP_DEFINE, OP_EXPUNGE, OP_NOINPUT,
    OP_REPEAT, OP_START, OP_TEXT, OP_VARIABLES, PERMANENT_SYMBOLS, PSEUDO, PSEUDO_OPS, UNDEFINED,
    Symbol, SymbolTable, is_defined, is_epseudo, is_fixed, is_macro, is_not_redefinable, is_pseudo,
)
from .symtape import permute, read_symbol_tape

ADDRESS_MASK = 0o7777
_END_OF_PIECE = re.compile(rb"[\t\n\0]")
START_LOCATION = 4
MAX_CONSTANT_BLOCKS = 10
MAX_LITERALS = 1000
MAX_MACRO_ARGS = 20
MAX_MACRO_LENGTH = 8192
MAX_MACROS = 1024
SYMBOL_TABLE_SIZE = 8192
MAX_SAVED_ERRORS = 20
FULL_LINE = 1 << 30
TITLE_SURVIVOR = 24
MAX_MACRO_NESTING = 10000      #: not macro1's: it recurses until memory runs out


class Fatal(Exception):
    """macro1 gives up here (it exits, or would loop for ever); the message says why
    and ``status`` is the exit status macro1 gives (1 where it would hang)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Options:
    """macro1's command-line switches."""

    symbol_table: bool = False        #: -d  list the symbol table
    macro_expansions: bool = False    #: -m  list macro expansions
    permanent_symbols: bool = False   #: -p  write the permanent symbols (.prm)
    rim: bool = False                 #: -r  pure RIM tape, no block loader
    symbol_punch: bool = False        #: -s  punch a symbol tape (.sym)
    cross_reference: bool = False     #: -x  list a cross-reference
    symbol_tapes: list[bytes] = field(default_factory=list)   #: -S  symbols to preload


class Diagnostic(NamedTuple):
    """One reported error: where, what, and the text macro1 prints for it."""

    file: str
    line: int
    column: int
    message: str
    symbol: str | None
    location: int
    text: str


@dataclass
class MacroDefinition:
    args: list[Symbol]        #: args[0] is "R", the location where an expansion starts
    body: bytes

    @property
    def nargs(self) -> int:
        return len(self.args) - 1


@dataclass
class MacroCall:
    definition: MacroDefinition
    saved_line: bytes
    saved_cc: int
    outer: "MacroCall | None"
    depth: int
    position: int = 0

    def finished(self) -> bool:
        body = self.definition.body
        return self.position >= len(body) or body[self.position] == 0


class Assembler(ListingMixin, ScannerMixin, ExpressionMixin):
    """Assemble a source (one or more named files) the way macro1 does."""

    def __init__(self, files: list[tuple[str, bytes | None]], options: Options | None = None,
                 reader: Callable[[str], bytes | None] | None = None,
                 before_pass2: Callable[[], None] | None = None) -> None:
        """``files`` are (name, contents); ``reader`` re-reads a file by name at each
        pass and ``before_pass2`` runs where macro1 creates its output files (the
        command line uses both to behave like macro1 on the file system)."""
        if not files:
            raise ValueError("no source files")
        self.options = options or Options()
        self.source = SourceFiles(files, reader)
        self.before_pass2 = before_pass2
        self.filename = os.path.basename(files[0][0])
        self.symtab = SymbolTable()
        self.punch = TapePunch(self.options.rim)
        self.no_symbol = Symbol()
        # output
        self.listing: list[str] = []
        self.listing_on = False
        self.stderr: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.memory: dict[int, int] = {}
        self.tape: bytes | None = None
        self.symbol_tape: bytes | None = None
        self.permanent_text: str | None = None
        # line state
        self.line = bytearray(BUFFER_SIZE)
        self.last_chunk = b""
        self.cc = self.maxcc = 0
        self.lexstart = self.lexterm = self.lexstartprev = self.lextermprev = 0
        self.overbar = False
        self.lineno = 0
        self.listed = True
        self.error_in_line = False
        self.end_of_input = False
        # listing state
        self.title = b""
        self.title_set = False
        self.page_number = 0
        self.page_line = LINES_PER_PAGE
        self.list_line_count = 0
        self.saved_errors: list[tuple[str, int]] = []
        # assembly state
        self.pass_number = 0
        self.clc = START_LOCATION
        self.radix = 8
        self.start_address = 0
        self.start_seen = False
        self.errors = 0
        self.macro: MacroCall | None = None
        self.macros: dict[int, MacroDefinition] = {}
        self.macro_count = 0
        self.nrepeats = 0
        self.nconst = 0
        self.lit_count = [0] * MAX_CONSTANT_BLOCKS
        self.lit_loc = [0] * MAX_CONSTANT_BLOCKS
        self.literals: list[int] = []
        self.nvars = 0
        self.vars_addr = 0
        self.noinput = False
        self.xref_table: dict[int, int] = {}
        self.xref_size = 0

    # -- driver ----------------------------------------------------------------

    def run(self) -> None:
        """Assemble; afterwards read the results off the instance.  Raises Fatal."""
        for kind, name, value in PSEUDO_OPS:
            self.define_symbol(name, value, kind, 0)
        for name, value in PERMANENT_SYMBOLS:
            self.define_symbol(name, value, DEFFIX, 0)
        for tape in self.options.symbol_tapes:
            for name, value in read_symbol_tape(tape):
                self.define_symbol(name, value, LABEL, 0)

        self.pass_number = 1
        self.one_pass()

        if self.before_pass2 is not None:
            self.before_pass2()
        self.listing_on = True
        self.punch.enabled = True
        self.punch.leader()
        if not self.options.rim:
            if not self.noinput:
                self.punch.loader()
            self.punch.leader(5)
        self.errors = 0
        self.saved_errors.clear()
        if self.options.cross_reference:
            slot = 0
            for symbol in self.symtab.symbols():
                symbol.xref_index = slot
                slot += symbol.xref_count + 1
                symbol.xref_count = 0
            self.xref_table = {}
            self.xref_size = slot
        self.pass_number = 2
        self.one_pass()
        self.punch.leader(1)

        if self.errors == 0:
            self.listing.append("\n      No errors detected\n")
        else:
            summary = "\n      %d detected %s\n" % (self.errors, "error" if self.errors == 1 else "errors")
            self.stderr.append(summary)
            self.listing.append(summary)
        if self.options.symbol_table:
            self.print_symbol_table()
        if self.options.permanent_symbols:
            self.permanent_text = self.permanent_symbols_text()
        if self.options.cross_reference:
            self.print_cross_reference()
        if self.errors == 0:
            self.tape = bytes(self.punch.data)
            if self.options.symbol_punch:
                self.symbol_tape = self.punch_symbols()

    def one_pass(self) -> None:
        if self.macro_count > MAX_MACROS:
            raise Fatal("macro count past the table (after an eleventh constants block): "
                        "macro1 frees stray pointers here")
        self.clc = START_LOCATION
        self.start_address = 0
        self.start_seen = False
        self.nconst = 0
        self.nvars = 0
        self.macro = None
        self.macros = {}
        self.macro_count = 0
        self.listed = True
        self.lineno = 0
        self.page_number = 0
        self.list_line_count = 0
        self.title_set = False
        self.page_line = LINES_PER_PAGE
        self.radix = 8
        self.end_of_input = False
        self.source.rewind()
        self.check_open()
        title_path = False
        while True:
            # macro1's read buffer outlives the end of input only in part: after a
            # title line, whose handling barely touches the stack, 24 bytes survive
            # (measured); after any other line, none.
            self.read_line(TITLE_SURVIVOR if title_path else 0)
            if self.end_of_input:
                return
            title_path = not self.title_set
            self.process_line()

    # -- input -------------------------------------------------------------------

    def check_open(self) -> None:
        if self.source.current_missing():
            raise Fatal('macro1: cannot open "%s"' % self.source.current_name(), 255)

    def read_line(self, stale_bytes: int = 0) -> None:
        """List the line just done, then fetch the next: from the macro being
        expanded (a "line" there ends at a tab or newline), else from the source.

        ``stale_bytes``: how much of the last source line macro1's buffer still
        holds when the input ends during this call (measured: all of it inside
        ``define``, eight bytes inside ``text``, see ``one_pass`` for the rest).
        """
        self.list_current_line()
        self.error_in_line = False
        call = self.macro
        if call is not None and call.finished():
            self.listed = True
            self.set_line(call.saved_line)
            self.cc = self.lexstartprev = call.saved_cc
            self.maxcc = len(call.saved_line)
            self.macro = call.outer
            return
        self.cc = 0
        self.lexstartprev = 0
        if call is not None:
            body = call.definition.body
            position = call.position
            end = _END_OF_PIECE.search(body, position)     # a tab, newline or NUL, included
            stop = end.end() if end is not None else len(body)
            piece = body[position:stop]
            if end is None:                                # ran off the body: a NUL ends it
                piece += b"\0"
                stop += 1
            call.position = stop
            self.set_line(piece)
            self.maxcc = len(piece)
            self.listed = not self.options.macro_expansions
            return
        self.lineno += 1
        self.listed = False
        while True:
            chunk = self.source.read_chunk()
            if chunk is not None:
                self.last_chunk = chunk
                break
            if self.source.next_file():
                self.title_set = False
                self.check_open()
                continue
            # At the end macro1 reprocesses its stale read buffer (a local array):
            # how much of the last line survives depends on who called (see
            # ``stale_bytes``); it shows after an unterminated define or text.
            self.end_of_input = True
            chunk = self.last_chunk[:stale_bytes]
            break
        end = chunk.find(0)
        text = chunk if end < 0 else chunk[:end]        # a NUL ends the line's text
        if FF in text:                                  # form feeds: a new page, once
            if self.title_set:
                self.top_of_form()
            text = text.replace(b"\f", b"")
        self.set_line(text)
        if len(text) >= 2 and text[-2] == CR:           # CR LF -> LF (a CR before any last byte)
            text = text[:-2] + text[-1:]
            self.set_line(text)
        self.maxcc = len(text)

    # -- statements -------------------------------------------------------------

    def process_line(self) -> None:
        """Assemble the statements of the current line (tab-separated)."""
        if not self.title_set:
            title = self.current_text()
            newline = title.find(b"\n")
            if newline >= 0:
                title = title[:newline]
            self.title = title
            if title:
                self.title_set = True
                self.stderr.append("%s - pass %d\n" % (title.decode("latin-1"), self.pass_number))
            return
        line = self.line
        while True:
            self.advance()
            if self.end_of_input:
                return
            char = line[self.lexstart]
            if IS_END[char]:
                if char != TAB:
                    return
                continue
            if char == SLASH:
                return                       # comment
            probe = self.lexstart             # "expr/" sets the location
            while probe < self.maxcc and not (IS_BLANK[line[probe]] or IS_DONE[line[probe]]):
                probe += 1
            if line[probe] == SLASH:
                location = self.expression_value()
                if not self.error_in_line:
                    self.clc = location
                self.print_line(location, 0, LINE_LOC)
                self.cc = probe + 1
                self.advance()
                continue
            follower = line[self.lexterm]
            if follower == COMMA:
                self.label()
                self.advance()
                continue
            if follower == EQUALS:
                self.assignment()
                continue
            if self.is_lex_symbol():
                symbol = self.eval_symbol()
                if is_macro(symbol.kind):
                    if not self.invoke_macro(symbol.value):
                        self.advance()
                    continue
                if is_pseudo(symbol.kind):
                    self.pseudo_op(symbol.value & MASK18)
                    continue
            kind, value = self.expression()
            if kind == PSEUDO:
                continue
            char = line[self.lexstart]
            if char == COMMA:
                if value != self.clc and self.pass_number == 2:
                    self.error_lexeme(messages.DUPLICATE_LABEL, self.lexstart)
            elif char == SLASH:
                self.clc = value
                self.print_line(self.clc, 0, LINE_LOC)
                self.advance()
            else:
                self.punch_word(self.clc, value & MASK18)
                self.increment_clc()

    def label(self) -> None:
        """``name,`` defines a label (relative to the expansion inside a macro);
        ``number,`` only checks the location."""
        line = self.line
        if self.is_lex_symbol():
            name = self.lexeme_name(self.lexstart, self.lexterm)
            symbol = self.lookup(name, UNDEFINED)
            if self.macro is not None:
                value = self.clc - self.macro.definition.args[0].value
            else:
                value = self.clc
            if is_defined(symbol.kind):
                if symbol.value != value and self.pass_number == 2:
                    self.error_symbol(messages.DUPLICATE_LABEL, symbol.name, self.lexstart)
                symbol.kind |= DUPLICATE
            self.define_symbol(name, value, LABEL, self.lexstart)
        elif IS_DIGIT[line[self.lexstart]]:
            value = 0
            position = self.lexstart
            while position < self.lexterm:
                char = line[position]
                if not IS_DIGIT[char]:
                    self.error_lexeme(messages.NOT_A_NUMBER, self.lexstart)
                    break
                if char - 48 >= self.radix:
                    self.error_lexeme(messages.NUMBER_NOT_RADIX, position)
                    break
                value = wrap32(value * self.radix + char - 48)
                position += 1
            else:
                if self.clc != value and self.pass_number == 2:
                    self.error_lexeme(messages.DUPLICATE_LABEL, self.lexstart)
        else:
            self.error_lexeme(messages.LABEL_SYNTAX, self.lexstart)

    def assignment(self) -> None:
        """``name=expr``."""
        if self.is_lex_symbol():
            start, term = self.lexstart, self.lexterm
            self.advance()
            self.advance()
            value = self.expression_value()
            self.define_symbol(self.lexeme_name(start, term), value, DEFINED, start)
            self.print_line(0, value, LINE_VAL)
        else:
            self.error_lexeme(messages.SYMBOL_SYNTAX, self.lexstartprev)
            self.advance()
            self.advance()
            self.expression_value()

    def punch_word(self, location: int, value: int) -> None:
        """List and punch one assembled word."""
        self.print_line(location, value, LINE_LOC_VAL)
        self.punch.word(location, value)
        if self.pass_number == 2:
            self.memory[location] = value

    def increment_clc(self) -> None:
        self.clc = (self.clc + 1) & ADDRESS_MASK

    # -- symbols -----------------------------------------------------------------

    def lookup(self, name: str, kind: int) -> Symbol:
        """Find ``name`` (a macro's dummies first), entering it undefined if new.

        A plain lookup (``kind`` UNDEFINED) that misses returns the pseudo-op or
        macro it abbreviates, if the search passed one.  An overbarred symbol
        still undefined in pass 2 becomes the next variable.
        """
        call = self.macro
        if call is not None:
            for arg in call.definition.args:
                if arg.name == name:
                    return arg
        index, exact, best = self.symtab.search(name)
        if exact is not None:
            if self.overbar and not is_defined(exact.kind) and self.pass_number == 2:
                exact.kind = DEFINED
                exact.value = self.vars_addr
                self.vars_addr += 1
                self.nvars += 1
            return exact
        if best is not None and kind == UNDEFINED:
            return best
        if self.symtab.count + 1 >= SYMBOL_TABLE_SIZE:
            self.error_symbol(messages.SYMBOL_TABLE_FULL, name, self.lexstart)
            raise Fatal("symbol table full")
        symbol = self.symtab.insert(index, name)
        if self.options.cross_reference and self.pass_number == 2 and symbol.xref_index >= 0:
            self.xref_table[symbol.xref_index] = 0
        if self.overbar:
            self.nvars += 1
        return symbol

    def define_symbol(self, name: str, value: int, kind: int, column: int) -> Symbol:
        if not name:
            return self.no_symbol
        symbol = self.lookup(name, kind)
        if (is_defined(symbol.kind) and symbol.value != value
                and is_not_redefinable(symbol.kind) and self.pass_number == 2):
            self.error_symbol(messages.REDEFINED_SYMBOL, symbol.name, column)
            symbol.xref_count += 1
            return symbol
        if self.pass_number == 2 and self.options.cross_reference and symbol.xref_index >= 0:
            self.xref_table[symbol.xref_index] = self.lineno
        symbol.value = value & MASK18
        symbol.kind = kind
        return symbol

    def eval_symbol(self) -> Symbol:
        """Look up the current lexeme as a reference (counted for the cross-reference)."""
        symbol = self.lookup(self.lexeme_name(self.lexstart, self.lexterm), UNDEFINED)
        symbol.xref_count += 1
        if self.options.cross_reference and self.pass_number == 2 and symbol.xref_index >= 0:
            self.xref_table[symbol.xref_index + symbol.xref_count] = self.lineno
        return symbol

    # -- errors ------------------------------------------------------------------

    def error_symbol(self, message: messages.Message, name: str | None, column: int) -> None:
        if self.pass_number == 2:
            self.errors += 1
            where = ":%d:%d" % (self.lineno, column + 1)
            if name is None:
                text = "%s%-9s : error:  %s at Loc = %s\n" % (
                    self.filename, where, message.stream, octal(self.clc, 5))
            else:
                text = '%s%-9s : error:  %s "%s" at Loc = %s\n' % (
                    self.filename, where, message.stream, name, octal(self.clc, 5))
            self.stderr.append(text)
            self.diagnostics.append(Diagnostic(self.filename, self.lineno, column + 1,
                                               message.stream, name, self.clc, text.rstrip("\n")))
            if len(self.saved_errors) < MAX_SAVED_ERRORS:
                self.saved_errors.append((message.listing, column))
            self.error_in_line = True
            if self.listed:
                self.print_error_notes()
        self.error_in_line = True

    def error_message(self, message: messages.Message, column: int) -> None:
        self.error_symbol(message, None, column)

    def error_lexeme(self, message: messages.Message, column: int) -> None:
        self.error_symbol(message, self.lexeme_name(self.lexstart, self.lexterm), column)

    # -- pseudo-ops ----------------------------------------------------------------

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
            self.read_line(8)
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

    # -- macros ------------------------------------------------------------------

    def define_macro(self) -> None:
        """``define name dummy,dummy`` ... ``terminate``: store the body lines."""
        line = self.line
        if self.nrepeats:
            self.error_lexeme(messages.DEFINE_IN_REPEAT, self.lexstartprev)
            return
        while line[self.lexstart] in (SPACE, TAB):
            self.advance()
        if IS_END[line[self.lexstart]]:
            self.read_line(FULL_LINE)
            self.advance()
            while line[self.lexstart] in (SPACE, TAB):
                self.advance()
        names: list[str] = []
        bad_column = 0
        failed = False
        name_column = self.lexstart
        while not IS_DONE[line[self.lexstart]] and len(names) < MAX_MACRO_ARGS:
            if not IS_ALNUM[line[self.lexstart]] and bad_column == 0:
                bad_column = self.lexstart
            names.append(self.lexeme_name(self.lexstart, self.lexterm))
            if line[self.lexterm] == COMMA:
                self.advance()
            self.advance()
            if line[self.lexstart] == SPACE:
                self.advance()
        index = 0
        if not names:
            self.error_message(messages.NO_MACRO_NAME, name_column)
            failed = True
        elif bad_column:
            self.error_message(messages.BAD_DUMMY_ARG, bad_column)
            failed = True
        elif self.macro_count >= MAX_MACROS:
            self.error_message(messages.MACRO_TABLE_FULL, name_column)
            failed = True
        else:
            index = self.macro_count
            self.macro_count += 1
            self.define_symbol(names[0], index, MACRO, name_column)
        body = bytearray()
        while True:
            self.read_line(FULL_LINE)
            if self.end_of_input:
                break
            self.advance()
            while line[self.lexstart] in (SPACE, TAB):
                self.advance()
            if self.lexeme_name(self.lexstart, self.lexterm).startswith("term"):
                break
            if not failed:
                text = self.current_text()
                if len(body) + len(text) + 1 >= MAX_MACRO_LENGTH:
                    self.error_message(messages.MACRO_TOO_LONG, self.lexstart)
                    failed = True
                    continue
                body += text
        if failed:
            return
        args = [Symbol("R", DEFINED, 0, -1)]
        args += [Symbol(name, DEFINED, 0, -1) for name in names[1:]]
        self.macros[index] = MacroDefinition(args, bytes(body))

    def invoke_macro(self, index: int) -> bool:
        """Evaluate the arguments now and start reading the body; False if there is none."""
        definition = self.macros.get(index)
        if definition is None or not definition.body or definition.body[0] == 0:
            return False
        line = self.line
        while IS_BLANK[line[self.lexstart]]:
            self.advance()
        args = definition.args
        args[0].value = self.clc
        number = 1
        while not IS_DONE[line[self.lexstart]] and number <= MAX_MACRO_ARGS:
            self.advance()
            if IS_DONE[line[self.lexstart]]:
                break
            if line[self.lexstart] == COMMA:
                self.advance()
            while IS_BLANK[line[self.lexstart]]:
                self.advance()
            if IS_DONE[line[self.lexstart]]:
                break
            value = self.expression_value()
            if number <= definition.nargs:
                args[number].value = value
            number += 1
        while number <= definition.nargs:
            args[number].value = 0
            number += 1
        depth = self.macro.depth + 1 if self.macro is not None else 1
        if depth > MAX_MACRO_NESTING:
            raise Fatal("macro calls nested %d deep: a macro that calls itself makes "
                        "macro1 expand it until memory runs out" % MAX_MACRO_NESTING)
        self.macro = MacroCall(definition, self.current_text(), self.cc, self.macro, depth)
        return True

    # -- other outputs -----------------------------------------------------------

    def permanent_symbols_text(self) -> str:
        """The ``-p`` file: the current fixed symbols as assignments after ``expunge``."""
        lines = ["/ PERMANENT SYMBOL TABLE\n/\n", "        expunge\n/\n"]
        for symbol in self.symtab.symbols():
            kind = symbol.kind
            if is_fixed(kind) and not is_pseudo(kind) and not is_epseudo(kind):
                lines.append("\t%s=%o\n" % (symbol.name, symbol.value & 0xFFFFFFFF))
        return "".join(lines)

    def punch_symbols(self) -> bytes:
        """The ``-s`` tape: loader, then name/value pairs from 5000 (see symtape)."""
        punch = self.punch
        punch.data = bytearray()
        punch.leader()
        if not self.noinput:
            punch.loader()
        punch.leader(5)
        address = 0o5000
        for symbol in self.symtab.symbols():
            kind = symbol.kind
            if is_fixed(kind) or is_pseudo(kind) or is_macro(kind):
                continue
            word = 0
            for char in symbol.field[:3]:
                if 65 <= char <= 90:
                    char += 32
                word = (word << 6) | (charset.ASCII_TO_FIODEC[char & 0o177] & charset.CODE_BITS)
            punch.word(address, permute(word))
            punch.word(address + 1, symbol.value)
            address += 2
        punch.flush()
        punch.triplet(JMP)
        punch.leader()
        return bytes(punch.data)

