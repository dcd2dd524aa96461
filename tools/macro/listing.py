"""The assembly listing, laid out the way macro1 lays it out.

Pages of 60 lines, each opened by a header with the program's title and page
number; a numbered line per source line with the location and assembled word
where there is one; error notes with a caret under the offending column; and
optionally the symbol table (``-d``) and cross-reference (``-x``) after the
error count.  The mixin formats; the assembler decides what to print and when.
"""

from __future__ import annotations

from .symbols import (
    DEFINED,
    REDEFINED,
    UNDEFINED,
    is_epseudo,
    is_fixed,
    is_macro,
    is_pseudo,
)

LINES_PER_PAGE = 60
XREF_COLUMNS = 8

# Listing line styles.
LINE, LINE_VAL, LINE_LOC_VAL, LOC_VAL, LINE_LOC = range(5)


def octal(value: int, digits: int) -> str:
    """``%N.No``: at least ``digits`` octal digits of the value as a C unsigned int."""
    return format(value & 0xFFFFFFFF, "0%do" % digits)


class ListingMixin:
    """Listing output for the Assembler (state lives on the assembler)."""

    def _emit(self, text: str) -> None:
        if self.listing_on:
            self.listing.append(text)

    def top_of_form(self, subtitle: str | None = None) -> None:
        self.page_number += 1
        if not self.listing_on:
            return
        page = "Page %d" % self.page_number
        head = "\f" if self.page_number > 1 else ""
        title = self.title.decode("latin-1")
        self.listing.append("%s\n      %-63s %10s\n" % (head, title, page))
        self.page_line = 1
        if subtitle is not None:
            self.listing.append("%80s\n" % subtitle)
        else:
            self.listing.append("\n")
        self.listing.append("\n")
        self.page_line += 2

    def page_break(self) -> None:
        if self.page_line >= LINES_PER_PAGE:
            self.top_of_form()

    def line_text(self) -> str:
        """The current line as C's ``fputs`` would print it (up to its NUL)."""
        buffer = self.line
        end = buffer.find(0)
        return buffer[:end if end >= 0 else len(buffer)].decode("latin-1")

    def print_line(self, loc: int, val: int, style: int) -> None:
        if not self.listing_on:
            self.saved_errors.clear()
            return
        self.page_break()
        self.list_line_count += 1
        self.page_line += 1
        out = self.listing
        if style == LINE:
            out.append("%5d                   %s" % (self.lineno, self.line_text()))
            self.listed = True
        elif style == LINE_VAL:
            if not self.listed:
                out.append("%5d       %s      %s" % (self.lineno, octal(val, 6), self.line_text()))
                self.listed = True
            else:
                out.append("            %s\n" % octal(val, 6))
        elif style == LINE_LOC:
            if not self.listed:
                out.append("%5d %s             %s" % (self.lineno, octal(loc, 5), self.line_text()))
                self.listed = True
            else:
                out.append("      %s\n" % octal(loc, 5))
        elif style == LINE_LOC_VAL:
            if not self.listed:
                out.append("%5d %s %s      %s" % (self.lineno, octal(loc, 5), octal(val, 6),
                                               self.line_text()))
                self.listed = True
            else:
                out.append("      %s %s\n" % (octal(loc, 5), octal(val, 6)))
        else:
            out.append("      %s %s\n" % (octal(loc, 5), octal(val, 6)))
        self.print_error_notes()

    def print_error_notes(self) -> None:
        if self.listing_on:
            buffer = self.line
            for text, column in self.saved_errors:
                self.page_break()
                note = ["%-18.18s      " % text]
                if column >= 0:
                    note.append("".join("\t" if (buffer[i] if i < len(buffer) else 0) == 9
                                        else " " for i in range(column)))
                    note.append("^")
                    self.list_line_count += 1
                    self.page_line += 1
                note.append("\n")
                self.listing.append("".join(note))
        self.saved_errors.clear()

    def list_current_line(self) -> None:
        """List the line just finished if nothing listed it yet."""
        if self.listing_on and not self.listed:
            self.print_line(0, 0, LINE)

    def print_symbol_table(self) -> None:
        lines_left = 0
        for symbol in self.symtab.symbols():
            kind = symbol.kind
            if is_fixed(kind) or is_pseudo(kind) or is_macro(kind) or is_epseudo(kind):
                continue
            if lines_left == 0:
                self.top_of_form("Symbol Table")
                lines_left = LINES_PER_PAGE
            mark = {UNDEFINED: "?", REDEFINED: "#"}.get(kind & (DEFINED | REDEFINED), " ")
            self._emit("%s%-6.6s %s\n" % (mark, symbol.name, octal(symbol.value, 6)))
            lines_left -= 1

    def xref_slot(self, index: int) -> int:
        """Read macro1's cross-reference array, including just past its end.

        macro1 sizes the array from pass 1's reference counts; a symbol that
        gains references in pass 2 (a label redefined there) reads past it.
        The array is a glibc heap block: the word just past the rounded-up
        block is the next block's size field, and there macro1 finds the
        stdio FILE record it opened before (a 480-byte block: 0x1e1).
        """
        if index in self.xref_table or index < self.xref_size:
            return self.xref_table.get(index, 0)
        block = max(32, (4 * self.xref_size + 8 + 15) & ~15)
        return 0x1E1 if 4 * index == block - 8 else 0

    def print_cross_reference(self) -> None:
        self.page_line = LINES_PER_PAGE
        count = 0
        for symbol in self.symtab.symbols():
            base = symbol.xref_index
            if is_fixed(symbol.kind) and self.xref_slot(base) == 0:
                continue
            count += 1
            self.page_line += 1
            if self.page_line >= LINES_PER_PAGE:
                self.top_of_form("Cross Reference")
            parts = ["%5d" % count]
            marks = symbol.kind & (DEFINED | REDEFINED)
            if marks == UNDEFINED:
                parts.append(" U         ")
            elif marks == REDEFINED:
                parts.append(" M  %5d  " % self.xref_slot(base))
            else:
                parts.append(" A  %5d  " % self.xref_slot(base))
            parts.append("%-6.6s  " % symbol.name)
            self._emit("".join(parts))
            column = 0
            for ref in range(1, symbol.xref_count + 1):
                if column >= XREF_COLUMNS:
                    column = 0
                    self.page_line += 1
                    if self.page_line >= LINES_PER_PAGE:
                        self.top_of_form("Cross Reference")
                    count += 1
                    self._emit("\n%5d%-19s" % (count, " "))
                self._emit("  %5d" % self.xref_slot(base + ref))
                column += 1
            self._emit("\n")
