"""The two-pass assembler: the passes, input lines, statements, symbols, diagnostics.

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

import re
from collections.abc import Callable

from tools.papertape.punch import TapePunch

from . import messages
from .expressions import MASK18, ExpressionMixin, wrap32
from .listing import (
    LINE_LOC,
    LINE_LOC_VAL,
    LINE_VAL,
    LINES_PER_PAGE,
    ListingMixin,
)
from .macros import MAX_MACROS, MacroCall, MacroDefinition, MacroMixin
from .messages import Diagnostic, Fatal
from .options import Options
from .pseudo_ops import ADDRESS_MASK, MAX_CONSTANT_BLOCKS, PseudoOpMixin
from .scanner import (
    BUFFER_SIZE,
    COMMA,
    CR,
    EQUALS,
    FF,
    IS_BLANK,
    IS_DIGIT,
    IS_DONE,
    IS_END,
    SLASH,
    TAB,
    ScannerMixin,
)
from .source import SourceFiles
from .symbol_use import SymbolUseMixin
from .symbols import (
    DEFFIX,
    DEFINED,
    DUPLICATE,
    LABEL,
    PERMANENT_SYMBOLS,
    PSEUDO,
    PSEUDO_OPS,
    UNDEFINED,
    Symbol,
    SymbolTable,
    is_defined,
    is_macro,
    is_pseudo,
    permanent_symbols_text,
)
from .symtape import punch_symbol_tape, read_symbol_tape

__all__ = ["Assembler", "Diagnostic", "Fatal", "Options"]

_END_OF_PIECE = re.compile(rb"[\t\n\0]")
START_LOCATION = 4
TITLE_SURVIVOR = 24


class Assembler(ListingMixin, ScannerMixin, ExpressionMixin, PseudoOpMixin, MacroMixin, SymbolUseMixin):
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
        first = files[0][0]                  # messages name the first file, sans folders
        self.filename = first[max(first.rfind("/"), first.rfind("\\")) + 1:]
        self.symtab = SymbolTable()
        self.punch = TapePunch(self.options.rim, enabled=False)  # pass 1 punches nothing
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
            self.permanent_text = permanent_symbols_text(self.symtab)
        if self.options.cross_reference:
            self.print_cross_reference()
        if self.errors == 0:
            self.tape = bytes(self.punch.data)
            if self.options.symbol_punch:
                self.symbol_tape = punch_symbol_tape(self.punch, self.symtab, not self.noinput)

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
