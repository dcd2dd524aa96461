"""Symbols looked up and defined, and errors reported, for the Assembler (state lives on the assembler).

Why a mixin of its own: every other part (expressions, pseudo-ops, macros, the line loop) looks up
symbols and reports errors, so these sit beside them, not in the assembler's line loop.  Like the
other mixins it reads and writes the assembler's attributes (``assembler.py`` sets them up); it
imports nothing of the assembler, so the package has no import circle.
"""

from __future__ import annotations

from . import messages
from .expressions import MASK18
from .listing import octal
from .messages import Diagnostic, Fatal
from .symbols import DEFINED, UNDEFINED, Symbol, is_defined, is_not_redefinable

SYMBOL_TABLE_SIZE = 8192
MAX_SAVED_ERRORS = 20


class SymbolUseMixin:
    """Symbol lookup and definition, and error messages, as macro1 does them."""

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
            raise Fatal("symbol table full", quiet=True)
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

