"""Diagnostics, worded as macro1 words them, and the ways an assembly can stop.

Each has a short form for the listing (a two-letter code and a few words,
printed above a caret under the offending column) and a long form for the
error stream (``file:line:col : error:  <long> at Loc = 00123``).
"""

from __future__ import annotations

from typing import NamedTuple


class Message(NamedTuple):
    listing: str
    stream: str


DUPLICATE_LABEL = Message("DT duplicate", "duplicate label")
ILLEGAL_CHARACTER = Message("IC illegal char", "illegal character")
ILLEGAL_EXPRESSION = Message("IC in expression", "illegal expression")
LABEL_SYNTAX = Message("IC label syntax", "label syntax")
NOT_A_NUMBER = Message("IC numeric syntax", "numeric syntax of")
NUMBER_NOT_RADIX = Message("IC radix", "number not in current radix")
SYMBOL_SYNTAX = Message("IC symbol syntax", "symbol syntax")
ILLEGAL_EQUALS = Message("IE illegal =", "illegal equals")
UNDEFINED_SYMBOL = Message("UD undefined", "undefined symbol")
MISPLACED_SYMBOL = Message("misplaced symbol", "misplaced symbol")
REDEFINED_SYMBOL = Message("RD redefined", "redefined symbol")
VALUE_REQUIRED = Message("VR value required", "value required")
SYMBOL_TABLE_FULL = Message("ST Symbol Tbl full", "Symbol table full")
NO_MACRO_NAME = Message("no macro name", "No name following DEFINE")
BAD_DUMMY_ARG = Message("bad dummy arg", "Bad dummy argument following DEFINE")
MACRO_TOO_LONG = Message("macro too long", "Macro too long")
MACRO_TABLE_FULL = Message("Macro Table full", "Macro table full")
DEFINE_IN_REPEAT = Message("define in a repeat", "Define in a repeat")


class Diagnostic(NamedTuple):
    """One reported error: where, what, and the text macro1 prints for it."""

    file: str
    line: int
    column: int
    message: str
    symbol: str | None
    location: int
    text: str


class Fatal(Exception):
    """macro1 gives up here (it exits, or would loop for ever); the message says why
    and ``status`` is the exit status macro1 gives (1 where it would hang).  A
    ``quiet`` stop is one where macro1 prints nothing more."""

    def __init__(self, message: str, status: int = 1, quiet: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.quiet = quiet
