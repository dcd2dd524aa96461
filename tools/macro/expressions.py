"""Expressions: operands, operators and the value-producing pseudo-ops.

macro1 evaluates strictly left to right.  ``+`` (or a space) and ``-`` are
18-bit ones'-complement operations with end-around carry, ``*`` multiplies
with the same single fold, ``&`` and ``!`` are bitwise; a leading ``-``
complements.  Intermediate values are C ``int``s: a long number or a big
product wraps at 32 bits before the final mask, and a negative intermediate
skips the carry fold.  These rules are reproduced, not tidied.

An operand is a symbol, a number in the current radix, ``.``, a literal
``(expr``, a bracketed ``[expr]``, or one of ``flexo``, ``char``,
``decimal``, ``octal``.  Operand results are ``(kind, value)`` pairs: the kind
is the symbol type, which matters only to spot a bare ``decimal``/``octal``.
"""

from __future__ import annotations

from . import charset, messages
from .scanner import (
    AMPERSAND,
    BANG,
    COLON,
    COMMA,
    DOT,
    EQUALS,
    IS_DIGIT,
    IS_END,
    LBRACKET,
    LPAREN,
    MINUS,
    NL,
    PLUS,
    RBRACKET,
    RPAREN,
    SLASH,
    SPACE,
    STAR,
    TAB,
)
from .symbols import (
    DEFINED,
    OP_CHAR,
    OP_DECIMAL,
    OP_FLEXO,
    OP_OCTAL,
    PSEUDO,
    is_defined,
    is_epseudo,
    is_macro,
    is_pseudo,
)

MASK18 = 0o777777
CARRY = 0o1000000
LOWER_SHIFT = 0o72
UPPER_SHIFT = 0o74
_STOPPERS = frozenset((SLASH, RPAREN, RBRACKET, COLON, COMMA))


def wrap32(value: int) -> int:
    """Reduce to a C 32-bit signed int, as macro1's arithmetic silently does."""
    value &= 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value


class ExpressionMixin:
    """Expression evaluation for the Assembler."""

    def expression_value(self) -> int:
        """An expression's 18-bit value; a bare ``decimal``/``octal`` is an error here."""
        kind, value = self.expression()
        if kind == PSEUDO:
            self.error_message(messages.VALUE_REQUIRED, self.lexstart)
        return value & MASK18

    def expression(self) -> tuple[int, int]:
        kind, value = self.signed_operand()
        line = self.line
        while True:
            char = line[self.lexstart]
            if char == SPACE or char == PLUS:
                self.advance(True)
                if char == SPACE and IS_END[line[self.lexstart]]:
                    return kind, value      # a trailing space adds nothing
                value = wrap32(value + self.signed_operand()[1])
                kind = DEFINED
                if value >= CARRY:
                    value = (value + 1) & MASK18
            elif char == MINUS:
                self.advance(True)
                value = wrap32(value + (self.signed_operand()[1] ^ MASK18))
                kind = DEFINED
                if value >= CARRY:
                    value = (value + 1) & MASK18
            elif char == STAR:
                self.advance(True)
                value = wrap32(value * self.signed_operand()[1])
                kind = DEFINED
                if value >= CARRY:
                    value = (value + 1) & MASK18
            elif char == AMPERSAND:
                self.advance(True)
                value &= self.signed_operand()[1]
                kind = DEFINED
            elif char == BANG:
                self.advance(True)
                value |= self.signed_operand()[1]
                kind = DEFINED
            elif char in _STOPPERS:
                return kind, value
            elif char == EQUALS:
                self.error_message(messages.ILLEGAL_EQUALS, self.lexstart)
                self.move_to_end_of_line()
                return kind, 0
            else:
                if not IS_END[char]:
                    self.error_message(messages.ILLEGAL_EXPRESSION, self.lexstart)
                    self.move_to_end_of_line()
                    value = 0
                return kind, value

    def signed_operand(self) -> tuple[int, int]:
        char = self.line[self.lexstart]
        if char == MINUS:
            self.advance(True)
            kind, value = self.operand()
            return kind, value ^ MASK18
        if char == PLUS:
            self.advance(True)
        return self.operand()

    def operand(self) -> tuple[int, int]:
        line = self.line
        if self.is_lex_symbol():
            symbol = self.eval_symbol()
            kind = symbol.kind
            if not is_defined(kind):
                if self.pass_number == 2:
                    self.error_symbol(messages.UNDEFINED_SYMBOL, symbol.name, self.lexstart)
                self.advance(True)
                return kind, symbol.value
            if is_pseudo(kind) or is_epseudo(kind):
                result_kind, value = DEFINED, 0
                op = symbol.value
                if op == OP_DECIMAL:
                    self.radix = 10
                    result_kind = PSEUDO
                elif op == OP_OCTAL:
                    self.radix = 8
                    result_kind = PSEUDO
                elif op == OP_FLEXO:
                    self.advance(True)
                    value = self.flexo()
                elif op == OP_CHAR:
                    self.advance(True)
                    value = self.char_value()
                else:
                    self.error_symbol(messages.VALUE_REQUIRED, symbol.name, self.lexstart)
                    result_kind = kind
                self.advance(True)
                return result_kind, value
            if is_macro(kind):
                if self.pass_number == 2:
                    self.error_symbol(messages.MISPLACED_SYMBOL, symbol.name, self.lexstart)
                self.advance(True)
                return kind, 0
            self.advance(True)
            return kind, symbol.value
        char = line[self.lexstart]
        if IS_DIGIT[char]:
            value = self.number(self.lexstart, self.lexterm)
            self.advance(True)
            return DEFINED, value
        if char == DOT:
            value = self.clc
            self.advance(True)
            return DEFINED, value
        if char == LPAREN:
            self.advance(True)
            value = self.expression_value()
            if line[self.lexstart] == RPAREN:
                self.advance(True)
            return DEFINED, self.literal(value)
        if char == LBRACKET:
            self.advance(True)
            value = self.expression_value()
            if line[self.lexstart] == RBRACKET:
                self.advance(True)
            else:
                self.error_message(messages.ILLEGAL_CHARACTER, self.lexstart)
            return DEFINED, value
        if char == EQUALS:
            self.error_message(messages.ILLEGAL_EQUALS, self.lexstart)
            self.move_to_end_of_line()
        else:
            self.error_message(messages.ILLEGAL_CHARACTER, self.lexstart)
        self.advance(True)
        return DEFINED, 0

    def number(self, start: int, term: int) -> int:
        """The digits ``line[start:term]`` in the current radix (0 after an error)."""
        line = self.line
        radix = self.radix
        value = 0
        position = start
        while position < term:
            char = line[position]
            if not IS_DIGIT[char]:
                self.error_lexeme(messages.NOT_A_NUMBER, self.lexstart)
                return 0
            digit = char - 48
            if digit >= radix:
                self.error_lexeme(messages.NUMBER_NOT_RADIX, position)
                return 0
            value = wrap32(value * radix + digit)
            position += 1
        return value

    # -- character constants -------------------------------------------------

    def flexo(self) -> int:
        """``flexo abc``: up to three FIO-DEC codes from the text after the keyword."""
        line = self.line
        if line[self.lexstart] == SPACE:
            self.advance()
        word = 0
        case = charset.LOWER
        for shift in (12, 6, 0):
            if self.lexstart >= self.maxcc:
                break
            char = line[self.lexstart]
            if char == TAB or char == NL:
                if case == charset.LOWER:
                    break
                code = LOWER_SHIFT
            else:
                code = self.fiodec_entry(char, self.lexstart)
                if not code & case:
                    case ^= charset.BOTH
                    code = LOWER_SHIFT if case == charset.LOWER else UPPER_SHIFT
                else:
                    self.lexstart += 1
            word |= (code & charset.CODE_BITS) << shift
        return word

    def char_value(self) -> int:
        """``char rX`` / ``mX`` / ``lX``: one code placed right, middle or left."""
        line = self.line
        if self.cc >= self.maxcc:
            return 0
        position = line[self.cc]
        self.cc += 1
        if position not in (108, 109, 114):          # l m r
            self.error_message(messages.ILLEGAL_CHARACTER, self.lexstart)
            return 0
        if self.cc >= self.maxcc:
            return 0
        char = line[self.cc]
        self.cc += 1
        code = self.fiodec_entry(char, self.lexstart)
        if not code & charset.LOWER:
            code = UPPER_SHIFT          # an upper-case character yields the shift;
            self.cc -= 1                # the character is left for the next lexeme
        code &= charset.CODE_BITS
        return code << {108: 12, 109: 6, 114: 0}[position]

    def fiodec_entry(self, char: int, column: int) -> int:
        """macro1's table entry for ``char``; an unknown character is reported and becomes 0."""
        if char > 0o177:
            self.error_message(messages.ILLEGAL_CHARACTER, column)
            char = 0
        code = charset.ASCII_TO_FIODEC[char]
        if code == charset.BAD:
            self.error_message(messages.ILLEGAL_CHARACTER, column)
            code = 0
        return code
