"""The visitor's keys at the host terminal: only keys the PDP-1's typewriter has, only for the question asked.

Shared by ``play`` and the demonstration's ``--visitor`` (``play --authentic``).
Two things a host terminal does that a 1960 typewriter could not:

* it has keys the Flexowriter lacks (``é``, ``€``, arrows, emoji).  Sent to
  SIMH they would end the game (pexpect cannot encode ``€``) or become other
  keys (SIMH keeps seven bits of a byte: ``é`` arrives as ``i``), so a line
  holding one is refused here with one short line and the question asked
  again; the PDP-1 never sees it.
* it keeps what was typed while the PDP-1 was thinking, and would hand it to
  the next question.  The PDP-1 program forgets keys typed before it asks;
  the host's own input buffer is flushed too (``termios.tcflush``), each time
  before the host begins a line on the screen (``flush_type_ahead``, called
  by whoever writes the typewriter there): the question begins the last
  line, so a key typed before it appeared is gone and a key typed the moment
  after counts, as in the program.  Only a terminal is flushed: lines given
  on a pipe are a script, meant to answer the questions in turn.  While the PDP-1 types and thinks
  the terminal does not echo keys either (``keys_unseen_while_busy``), so a
  key typed early cannot garble the board on the screen.
"""

from __future__ import annotations

import os
import signal
import termios
import unicodedata
from contextlib import contextmanager
from typing import Iterator, TextIO

from tools.fiodec import CHARACTERS

from ..reference.game import Game
from .visitors import VisitorQuit


def terminal_fd(stream: TextIO) -> int | None:
    """The stream's file descriptor when it is a terminal, else None (a pipe, a file, a StringIO)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return fd if os.isatty(fd) else None


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a person's terminal: the one test of it for every front end (colour, a
    spinner, echo, a key at a time are for a terminal; a pipe or a file gets plain lines)."""
    return terminal_fd(stream) is not None


def flush_type_ahead(stream: TextIO) -> None:
    """Throw away keys typed on the terminal before now (nothing happens on a pipe or a file)."""
    fd = terminal_fd(stream)
    if fd is not None:
        try:
            termios.tcflush(fd, termios.TCIFLUSH)
        except termios.error:
            pass


@contextmanager
def keys_unseen_while_busy(stream: TextIO) -> Iterator[None]:
    """For a session at a terminal: no echo of keys except while a question waits for its answer.

    The terminal's settings are put back as they were when the session ends,
    however it ends.  Ctrl-C still interrupts (only ECHO is cleared); Ctrl-\\
    (SIGQUIT), SIGTERM and SIGHUP (the terminal closed) end the session as
    Ctrl-C does, so the game is saved and the terminal restored rather than
    left without echo.
    """
    fd = terminal_fd(stream)
    if fd is None:
        yield
        return
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        yield
        return
    previous = {sig: signal.signal(sig, _leave) for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)}
    _set_echo(fd, False)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except termios.error:  # the terminal is gone (SIGHUP): nothing to restore
            pass


def _leave(signum: int, _frame: object) -> None:
    """SIGQUIT, SIGTERM or SIGHUP during a session at a terminal: leave as Ctrl-C leaves."""
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _set_echo(fd: int, on: bool) -> bool:
    """Turn the terminal's echo on or off; whether it was on."""
    attrs = termios.tcgetattr(fd)
    was = bool(attrs[3] & termios.ECHO)
    attrs[3] = attrs[3] | termios.ECHO if on else attrs[3] & ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, attrs)
    return was


def read_line(stream: TextIO) -> str:
    """One line from the visitor, "" at end of input (Ctrl-D).

    On a terminal the line is read straight from the descriptor, so Python's
    own buffer never holds type-ahead that the flush could not reach; bytes
    that are not UTF-8 become U+FFFD, which no typewriter key has.
    """
    fd = terminal_fd(stream)
    if fd is None:
        binary = getattr(stream, "buffer", None)  # a pipe or a file: its bytes, so bad UTF-8 cannot raise
        if binary is None:
            return stream.readline()
        return binary.readline().decode("utf-8", errors="replace")
    echoed = _set_echo(fd, True)  # the answer is seen as it is typed
    data = b""
    try:
        while not data.endswith(b"\n"):
            chunk = os.read(fd, 1024)
            if not chunk:
                break
            data += chunk
    finally:
        _set_echo(fd, echoed)
    return data.decode("utf-8", errors="replace")


# What a terminal sends for the keys a typewriter never had: ESC, then [ or O, then the key's code.
_ESCAPED_KEYS = {"A": "the up arrow", "B": "the down arrow", "C": "the right arrow", "D": "the left arrow",
                 "H": "Home", "F": "End", "2~": "Insert", "3~": "the forward Delete", "5~": "Page Up",
                 "6~": "Page Down", "P": "F1", "Q": "F2", "R": "F3", "S": "F4"}
ESC = "\x1b"


def _escape_sequence(keys: str, at: int) -> tuple[str, int]:
    """The key an escape sequence at ``keys[at]`` stands for, and where the next key begins."""
    if keys[at + 1:at + 2] not in ("[", "O"):
        return "Esc", at + 1
    end = at + 2
    while end < len(keys) and (keys[end].isdigit() or keys[end] == ";"):
        end += 1
    if end >= len(keys):
        return "Esc", at + 1
    code = keys[at + 2:end + 1]
    known = _ESCAPED_KEYS.get(code) or _ESCAPED_KEYS.get(code.split(";")[-1][-1:])
    return known or "a function key", end + 1


def refused_keys(keys: str) -> list[str]:
    """The keys of ``keys`` the typewriter has no FIO-DEC code for, each named once, in order: an arrow
    key, which a terminal sends as ESC [ A, is "the up arrow", not three keys."""
    names: list[str] = []
    at = 0
    while at < len(keys):
        char = keys[at]
        if char == ESC:
            name, at = _escape_sequence(keys, at)
        else:
            at += 1
            if char in CHARACTERS and char not in "\r\n" and char.isascii():
                continue
            name = key_name(char)
        if name not in names:
            names.append(name)
    return names


def key_name(char: str) -> str:
    """How a refused key is named to the visitor: itself in quotes, a control key as Ctrl-X."""
    if char == ESC:
        return "Esc"
    if ord(char) < ord(" "):  # Ctrl-A is 1: the letter is 64 further on
        return f"Ctrl-{chr(ord(char) + ord('@'))}"
    if char == "\x7f":
        return "Delete"
    if unicodedata.category(char).startswith(("C", "Z")) or char == "\ufffd":
        return f"U+{ord(char):04X}"
    return f"\u201c{char}\u201d"


def refusal(names: list[str]) -> str:
    """The one line said for a refused line."""
    return f"[the PDP-1's typewriter has no key {', '.join(names)}: nothing was typed. Type a pit number.]"


def prompt_of(game: Game) -> str:
    """The PDP-1's question for this turn, as it typed it (said again after a refusal)."""
    return "your move, or s to swap? " if game.swap_offered else "your move? "


def ask_visitor(game: Game, source: TextIO, out: TextIO) -> str:
    """The keys to type for the visitor's answer (without the carriage return).

    The question is on the screen already, printed after the type-ahead was
    flushed.  A line with a key the typewriter lacks is refused with one line
    and the question asked again; end of input raises ``VisitorQuit``.
    """
    while True:
        line = read_line(source)
        if not line:
            raise VisitorQuit()
        keys = line.rstrip("\r\n")
        bad = refused_keys(keys)
        if not bad:
            return keys
        flush_type_ahead(source)
        out.write(refusal(bad) + "\n" + prompt_of(game))
        out.flush()


def wait_for_any_key(source: TextIO) -> bool:
    """The answer to the PDP-1's "type any key for a new game.": any key is a yes, end of input a no.

    At a terminal one key is enough, as the question says: the terminal is put out of its line mode
    for that key alone (Ctrl-D, its end-of-input key, is then a byte, and still a no; Ctrl-C still
    interrupts).  On a pipe or a file, lines are a script: a line is the key.  Why no question of
    the host's own: the paper has asked already, and two questions with two meanings (any key, or
    y/N) made every key but ``y`` quit.
    """
    flush_type_ahead(source)
    fd = terminal_fd(source)
    if fd is None:
        return bool(read_line(source))
    before = termios.tcgetattr(fd)
    one_key = termios.tcgetattr(fd)
    one_key[3] &= ~(termios.ICANON | termios.ECHO)
    one_key[6][termios.VMIN], one_key[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSANOW, one_key)
    try:
        key = os.read(fd, 64)  # a key, or all of the sequence an arrow key sends
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, before)
    return bool(key) and key != b"\x04"


@contextmanager
def own_foreground(stream: TextIO) -> Iterator[None]:
    """At a terminal, this process in a process group of its own, in the foreground.

    Why: Ctrl-C at the terminal signals the whole foreground group.  Run
    under ``make play``, make is in it too and dies of the SIGINT (status
    130) while the game leaves as promised (status 0).  In a group of its
    own the game alone hears the keys; the terminal is handed back to the
    group it came from however the session ends.
    """
    fd = terminal_fd(stream)
    if fd is None:
        yield
        return
    try:
        before = os.tcgetpgrp(fd)
        moved = before == os.getpgrp() and os.getpid() != before  # in the foreground, in another's group
        if moved:
            os.setpgid(0, 0)
            _set_foreground(fd, os.getpgrp())
    except OSError:
        moved = False
    if not moved:
        yield
        return
    try:
        yield
    finally:
        try:
            _set_foreground(fd, before)
        except OSError:  # the terminal is gone
            pass


def _set_foreground(fd: int, group: int) -> None:
    """Make ``group`` the terminal's foreground process group (SIGTTOU ignored meanwhile: a background
    group may not otherwise do it)."""
    previous = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        os.tcsetpgrp(fd, group)
    finally:
        signal.signal(signal.SIGTTOU, previous)
