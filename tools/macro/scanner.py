"""The line buffer and lexer, with macro1's cursor semantics.

macro1 parses each line in place with a cursor (``cc``) and the bounds of the
current lexeme (``lexstart``/``lexterm``); error columns and much of the
dialect's surprising behaviour (where a comment may start, how spaces become
an addition operator, what follows ``flexo``) fall out of exactly how that
cursor moves.  This mixin reproduces the movements.

The line lives in a fixed byte buffer like C's ``char line[96]``: a shorter
line leaves the tail of a longer earlier one after its NUL, and a few of
macro1's paths read there (the caret under an error, for one).
"""

from __future__ import annotations

BUFFER_SIZE = 256

NUL, TAB, NL, CR, FF, SPACE = 0, 9, 10, 13, 12, 32
SLASH, COMMA, EQUALS, PLUS, MINUS, STAR = 47, 44, 61, 43, 45, 42
AMPERSAND, BANG, DOT, LPAREN, RPAREN = 38, 33, 46, 40, 41
LBRACKET, RBRACKET, COLON, BACKSLASH, TILDE = 91, 93, 58, 92, 126


def _flags(predicate) -> bytes:
    return bytes(1 if predicate(c) else 0 for c in range(256))


IS_ALPHA = _flags(lambda c: 65 <= c <= 90 or 97 <= c <= 122)
IS_DIGIT = _flags(lambda c: 48 <= c <= 57)
IS_ALNUM = _flags(lambda c: IS_ALPHA[c] or IS_DIGIT[c])
IS_OVERBAR = _flags(lambda c: c in (BACKSLASH, TILDE))
IS_SYMBOL_CHAR = _flags(lambda c: IS_ALNUM[c] or IS_OVERBAR[c])
IS_BLANK = _flags(lambda c: c in (SPACE, FF))
IS_END = _flags(lambda c: c in (NUL, NL, TAB))
IS_DONE = _flags(lambda c: c == SLASH or IS_END[c])
_NOT_ALPHA = bytes(c for c in range(256) if not IS_ALPHA[c])


class ScannerMixin:
    """Cursor movement over ``self.line``; state lives on the assembler."""

    def set_line(self, text: bytes) -> None:
        """Copy ``text`` and a NUL to the start of the buffer, like ``strcpy``."""
        end = len(text)
        if end + 1 > len(self.line):
            self.line.extend(bytes(end + 1 - len(self.line) + 16))
        self.line[:end] = text
        self.line[end] = NUL

    def current_text(self) -> bytes:
        """The line up to its NUL."""
        end = self.line.find(0)
        return bytes(self.line[:end])

    def advance(self, operator: bool = False) -> None:
        """Frame the next lexeme.  Spaces before it are skipped; when an operator
        may come next (``operator``), a run of spaces is itself one lexeme, the
        space operator."""
        line = self.line
        self.lexstartprev = self.lexstart
        self.lextermprev = self.lexterm
        cc = self.cc
        if line[cc] == SPACE:
            cc += 1
            while line[cc] == SPACE:
                cc += 1
            if operator:
                cc -= 1
        self.overbar = False
        self.lexstart = cc
        char = line[cc]
        if IS_SYMBOL_CHAR[char]:
            overbar = IS_OVERBAR[char]
            cc += 1
            char = line[cc]
            while IS_SYMBOL_CHAR[char]:
                if IS_OVERBAR[char]:
                    overbar = 1
                cc += 1
                char = line[cc]
            self.overbar = bool(overbar)
        elif not IS_DONE[char] or char == TAB:
            cc += 1
        self.lexterm = cc
        self.cc = cc

    def is_lex_symbol(self) -> bool:
        """A lexeme is a symbol if it holds a letter anywhere."""
        return bool(self.line[self.lexstart:self.lexterm].translate(None, _NOT_ALPHA))

    def lexeme_name(self, start: int, term: int) -> str:
        """The symbol name of ``line[start:term]``: overbars dropped, six characters kept."""
        text = self.line[start:term]
        if 92 in text or 126 in text:
            text = text.replace(b"\\", b"").replace(b"~", b"")
        return text[:6].decode("latin-1")

    def move_to_end_of_line(self) -> None:
        """Skip to the next tab or newline (the rest of the statement is abandoned)."""
        line = self.line
        cc = self.cc
        while not IS_END[line[cc]]:
            cc += 1
        self.cc = cc
        self.lexstart = self.lexterm = self.lexstartprev = cc
