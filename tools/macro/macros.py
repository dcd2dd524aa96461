"""Macros: ``define name dummy,...`` ... ``terminate``, and their expansion.

A macro body is stored as text and read back line by line when the macro is
used, a "line" ending at a tab as well as at a newline.  The arguments are
evaluated once, at the call, and the dummies are symbols holding those values
(no text substitution).  ``R`` is the location where the expansion starts, and
a label defined inside an expansion gets its offset from there, as in macro1.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import messages
from .messages import Fatal
from .scanner import COMMA, IS_ALNUM, IS_BLANK, IS_DONE, IS_END, SPACE, TAB
from .source import FULL_LINE
from .symbols import DEFINED, MACRO, Symbol

MAX_MACRO_ARGS = 20
MAX_MACRO_LENGTH = 8192
MAX_MACROS = 1024
MAX_MACRO_NESTING = 10000      #: not macro1's limit: it recurses until memory runs out


@dataclass
class MacroDefinition:
    """A stored macro: its dummies (as symbols that take the call's values) and body."""

    args: list[Symbol]        #: args[0] is "R", the location where an expansion starts
    body: bytes

    @property
    def nargs(self) -> int:
        return len(self.args) - 1


@dataclass
class MacroCall:
    """An expansion in progress: where its body is read, and the calling line to resume."""

    definition: MacroDefinition
    saved_line: bytes
    saved_cc: int
    outer: "MacroCall | None"
    depth: int
    position: int = 0

    def finished(self) -> bool:
        body = self.definition.body
        return self.position >= len(body) or body[self.position] == 0


class MacroMixin:
    """Macro definition and calls for the Assembler (state lives on the assembler)."""

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
            # A macro that calls itself: macro1 expands it until memory runs out and
            # then says this (if the system has not killed it first).
            raise Fatal("could not allocate memory for macro invocation")
        self.macro = MacroCall(definition, self.current_text(), self.cc, self.macro, depth)
        return True
