"""Random macro1 programs for the generative differential test (``test_macro_generative``): well-formed
ones from the dialect's grammar, and damaged ones for the error paths.

Every program is derived from ``(seed, index)`` alone, so a failure is reproducible by its index.
The generator only writes programs that macro1 accepts without errors (the test checks that too).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------- grammar

MEMREF = ["and", "ior", "xor", "xct", "lac", "lio", "dac", "dap", "dip", "dio", "dzm",
          "add", "sub", "idx", "isp", "sad", "sas", "mul", "div", "jmp", "jsp", "cal", "jda"]
SHIFTS = ["ral", "ril", "rcl", "sal", "sil", "scl", "rar", "rir", "rcr", "sar", "sir", "scr"]
BARE = ["cla", "cma", "clc", "lat", "cli", "hlt", "nop", "sza", "spa", "sma", "szo", "spi",
        "tyo", "tyi", "rpa", "rpb", "ppa", "ppb", "dpy", "cks", "lsm", "esm", "cbs", "lem",
        "eem", "rrb", "xx", "skp", "opr"]
# Characters that have a FIO-DEC code (macro1 loops forever on the others inside text).
TEXT_CHARS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
              "      +-*()=,.'\"?!#&<>[]_|~^`@\\")
TEXT_DELIMS = "/.,-*=x"
# Unknown names resolve to a pseudo-op or macro that shares their first three letters,
# so user names never start like these (or like the generator's macro names, "mq...").
RESERVED_PREFIXES = {"con", "def", "rep", "sta", "var", "tex", "noi", "exp", "cha", "dec",
                     "fle", "oct", "ter", "mq"}
PERMANENT = set(MEMREF + SHIFTS + BARE + ["i", "law", "iot", "szs", "szf", "clf", "stf",
                                          "mus", "dis", "skip"]) | {f"{n}s" for n in range(1, 10)}


@dataclass
class Macro:
    """A generated macro: its name and how many dummy arguments it takes."""

    name: str
    nargs: int


@dataclass
class Gen:
    """State of one program under construction.

    The generator keeps just enough bookkeeping to stay inside what macro1 accepts:
    which names exist, the radix in force (numbers are written in it), whether
    literals still need a ``constants`` block, and which variables have had their
    first (overbarred) use.
    """

    rnd: random.Random
    lines: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)      # all labels (defined anywhere)
    assigned: list[str] = field(default_factory=list)    # "=" symbols defined so far
    stable: list[str] = field(default_factory=list)      # ... with equal values in both passes
    variables: list[str] = field(default_factory=list)   # declared overbarred names
    used_vars: set[str] = field(default_factory=set)     # variables already seen
    macros: list[Macro] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)
    decimal: bool = False
    literals_pending: bool = False
    constants_blocks: int = 0
    loc: int = 4
    in_macro: bool = False
    in_repeat: bool = False        # repeated text: a radix switch would change later rounds
    split_points: list[int] = field(default_factory=list)  # where a second file may begin

    # ------------------------------------------------------------- retry bookkeeping
    def snapshot(self) -> tuple[set[str], bool]:
        """State that generating an expression changes, for text that may be discarded."""
        return set(self.used_vars), self.decimal

    def restore(self, saved: tuple[set[str], bool]) -> None:
        """Forget a discarded attempt: no first use of a variable, no radix switch."""
        self.used_vars, self.decimal = set(saved[0]), saved[1]

    # -------------------------------------------------------------- names and numbers
    def fresh(self, lo: int = 1, hi: int = 6) -> str:
        """A new user symbol, unique in its first six characters."""
        while True:
            first = self.rnd.choice("abcdefghjklnopqrstuvwxyz")
            rest = "".join(self.rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789")
                           for _ in range(self.rnd.randint(lo, hi) - 1))
            name = first + rest
            key = name[:6]
            if (key in self.taken or name[:3] in RESERVED_PREFIXES or name[:2] == "mq"
                    or key in PERMANENT or any(key[:3] == p for p in RESERVED_PREFIXES)):
                continue
            self.taken.add(key)
            return name

    def number(self, lo: int = 0, hi: int = 0o777777) -> str:
        """A number in the radix in force, occasionally with leading zeros."""
        value = self.rnd.randint(lo, hi)
        text = str(value) if self.decimal else format(value, "o")
        if self.rnd.random() < 0.05:
            text = "0" + text
        return text

    def small(self, hi: int = 0o7777) -> str:
        """A number from 0 to ``hi`` (an address-sized one by default)."""
        return self.number(0, hi)

    def long_spelling(self, name: str) -> str:
        """Sometimes spell a symbol with extra characters past the sixth (ignored)."""
        if len(name) == 6 and self.rnd.random() < 0.3:
            return name + "".join(self.rnd.choice("xyz19") for _ in range(self.rnd.randint(1, 3)))
        return name

    # -------------------------------------------------------------------- expressions
    def term(self, depth: int, allow_forward: bool = True) -> str:
        """One operand: number, symbol, location, literal, variable, group, char, flexo."""
        r = self.rnd.random()
        if r < 0.30 or depth > 2:
            return self.small(0o777777 if self.rnd.random() < 0.2 else 0o777)
        if r < 0.45 and self.labels and allow_forward:
            return self.long_spelling(self.rnd.choice(self.labels))
        if r < 0.55 and self.assigned:
            return self.long_spelling(self.rnd.choice(self.assigned))
        if r < 0.60:
            return "."
        if r < 0.70 and allow_forward:
            self.literals_pending = True
            close = ")" if self.rnd.random() < 0.5 else ""
            if close:
                return "(" + self.expr(depth + 1, allow_forward) + close
            return "(" + self.expr(depth + 1, allow_forward, tail=True)
        if r < 0.78 and self.variables and allow_forward:
            name = self.rnd.choice(self.variables)
            # a variable's first use must carry the overbar; macro bodies are expanded
            # later than they are written, so they always use it
            if self.in_macro or name not in self.used_vars or self.rnd.random() < 0.5:
                if not self.in_macro:
                    self.used_vars.add(name)
                return self.rnd.choice(["\\" + name, name + "~"])
            return name
        if r < 0.86:
            return "[" + self.expr(depth + 1, allow_forward) + "]"
        if r < 0.93:
            pos = self.rnd.choice("lmr")
            return f"char {pos}{self.rnd.choice('abcdefghijklmnopqrstuvwxyz0123456789')}"
        inner = self.term(depth + 1, allow_forward)
        return inner if inner.startswith("-") else "-" + inner

    def expr(self, depth: int = 0, allow_forward: bool = True, tail: bool = False) -> str:
        """Terms joined by + - & ! * or space, evaluated left to right by macro1.

        ``tail`` marks an unclosed literal: it must end the statement, so no operator
        may follow it and the caller must not append anything.
        """
        parts = [self.term(depth, allow_forward)]
        for _ in range(self.rnd.choice([0, 0, 1, 1, 2, 3])):
            if parts[-1].startswith("(") and not parts[-1].endswith(")"):
                break                      # an unclosed literal swallows the rest
            op = self.rnd.choice(["+", "-", "&", "!", "*", " "])
            if op == "*":
                parts.append("*" + self.small(0o77))
                continue
            if not (self.in_macro or self.in_repeat) and op in "+ " and self.rnd.random() < 0.04:
                # a radix switch inside an expression: worth 0, and it stays in force
                self.decimal = self.rnd.random() < 0.5
                parts.append(op + ("decimal" if self.decimal else "octal"))
                continue
            nxt = self.term(depth, allow_forward)
            if op == " " and nxt.startswith("-") and self.rnd.random() < 0.5:
                op = ""                    # "a -b": space then unary minus
                nxt = " " + nxt
            parts.append(op + nxt)
        return "".join(parts)

    def closed_expr(self, depth: int = 0, allow_forward: bool = True,
                    limit: int = 30) -> str:
        """An expression that may be followed by more text (no unclosed literal)."""
        while True:
            saved = self.snapshot()
            text = self.expr(depth, allow_forward)
            if text.count("(") == text.count(")") and len(text) <= limit:
                return text
            self.restore(saved)            # discarded text must leave no trace

    def const_expr(self) -> str:
        """An expression with the same value in both passes (origins, repeat counts).

        Only numbers and "stable" symbols qualify: a label referenced before its
        definition, a literal's address or "." would differ between the passes and move
        every later label (macro1 then reports duplicate labels).
        """
        parts = [self.small(0o17)]
        if self.stable and self.rnd.random() < 0.4:
            parts.append("+" + self.rnd.choice(self.stable))
        return "".join(parts)

    def stable_expr(self) -> str:
        """A small expression of numbers and stable symbols, any operator."""
        parts = [self.small(0o77) if not self.stable or self.rnd.random() < 0.6
                 else self.rnd.choice(self.stable)]
        for _ in range(self.rnd.randint(0, 2)):
            parts.append(self.rnd.choice("+-&!") + (self.small(0o77) if not self.stable
                         or self.rnd.random() < 0.6 else self.rnd.choice(self.stable)))
        return "".join(parts)

    # --------------------------------------------------------------------- statements
    def instruction(self) -> str:
        """One machine instruction or data word (what a line mostly holds)."""
        r = self.rnd.random()
        if r < 0.45:
            ind = " i" if self.rnd.random() < 0.2 else ""
            return f"{self.rnd.choice(MEMREF)}{ind} {self.short_expr()}"
        if r < 0.55:
            return f"{self.rnd.choice(SHIFTS)} {self.rnd.randint(1, 9)}s"
        if r < 0.65:
            return self.rnd.choice(BARE)
        if r < 0.72:
            ind = " i" if self.rnd.random() < 0.5 else ""
            return f"law{ind} {self.small()}"
        if r < 0.77:
            return f"{self.rnd.choice(['szs', 'szf', 'stf', 'clf'])} {self.rnd.randint(0, 7)}"
        return self.short_expr()

    def short_expr(self, limit: int = 40) -> str:
        """An expression short enough that no line passes macro1's 94-character limit."""
        while True:
            saved = self.snapshot()
            text = self.expr()
            if len(text) <= limit:
                return text
            self.restore(saved)            # discarded text must leave no trace

    def with_second_statement(self, stmt: str, room: int = 80) -> str:
        """Append a tab and another instruction if the line stays well under 94 characters."""
        saved = self.snapshot()
        extra = self.instruction()
        if len(stmt) + 1 + len(extra) <= room:
            return stmt + "\t" + extra
        self.restore(saved)
        return stmt

    def text_stmt(self, multiline: bool = False) -> str:
        """text with a delimiter absent from the string; optionally across a line end."""
        body = "".join(self.rnd.choice(TEXT_CHARS) for _ in range(self.rnd.randint(0, 14)))
        if multiline:
            body += "\n" + "".join(self.rnd.choice(TEXT_CHARS)
                                   for _ in range(self.rnd.randint(0, 8)))
        delim = self.rnd.choice([d for d in TEXT_DELIMS if d not in body])
        return f"text {delim}{body}{delim}"

    def flexo_stmt(self) -> str:
        """flexo with three letters or digits of either case (shifts get inserted)."""
        chars = "".join(self.rnd.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                        for _ in range(3))
        return f"flexo {chars}"

    def emit(self, text: str, words: int = 1) -> None:
        """Append a line and advance the rough location estimate (kept for the origins)."""
        self.lines.append(text)
        self.loc += words

    def comment(self) -> str:
        """A tab-introduced comment with characters that would be code elsewhere."""
        return "\t/ " + "".join(self.rnd.choice("abc xyz=+-,.") for _ in range(self.rnd.randint(0, 20)))

    def macro_definition(self) -> None:
        """define NAME a,b ... terminate, with labels, literals and earlier macros inside."""
        name = "mq" + "".join(self.rnd.choice("abcdefghijklmnopqrstuvwxyz")
                              for _ in range(self.rnd.randint(1, 4)))
        if any(m.name[:6] == name[:6] for m in self.macros):
            return
        nargs = self.rnd.randint(0, 3)
        dummies = [self.fresh(1, 3) for _ in range(nargs)]
        head = f"\tdefine {name}" + ((" " + ",".join(dummies)) if dummies else "")
        self.lines.append(head)
        local = self.fresh(2, 5)
        self.in_macro = True
        body_count = self.rnd.randint(1, 4)
        for k in range(body_count):
            label = f"{local}," if k == 1 else ""
            r = self.rnd.random()
            if r < 0.4 and dummies:
                stmt = f"{self.rnd.choice(MEMREF)} {self.rnd.choice(dummies)}"
            elif r < 0.55:
                stmt = f"jmp {local}" if body_count > 1 else "jmp ."
            elif r < 0.65 and self.macros:
                inner = self.rnd.choice(self.macros)
                stmt = inner.name + " " + ",".join(
                    self.rnd.choice(dummies) if dummies else self.small() for _ in range(inner.nargs))
            elif r < 0.7:
                stmt = "jmp R"
            else:
                stmt = self.instruction()
            self.lines.append(f"{label}\t{stmt}")
        self.in_macro = False
        self.lines.append("\t" + self.rnd.choice(["terminate", "term", "termin"]))
        self.macros.append(Macro(name, nargs))

    def macro_call(self) -> None:
        """Invoke a defined macro, sometimes with one argument too many or too few."""
        mac = self.rnd.choice(self.macros)
        nargs = mac.nargs + (1 if self.rnd.random() < 0.1 else 0) - (1 if self.rnd.random() < 0.1 else 0)
        args = [self.closed_expr(1, limit=20) for _ in range(max(nargs, 0))]
        sep = self.rnd.choice([",", ", "])
        self.emit(f"\t{mac.name} {sep.join(args)}".rstrip(), 6)

    def line(self) -> None:
        """One source line chosen from the dialect's statement forms."""
        self.split_points.append(len(self.lines))
        r = self.rnd.random()
        label = ""
        if self.rnd.random() < 0.25:
            name = self.fresh()
            self.labels.append(name)
            label = name + ","
        if r < 0.50:
            stmt = self.instruction()
            if self.rnd.random() < 0.1 and stmt.count("(") == stmt.count(")"):
                stmt = self.with_second_statement(stmt)
                self.loc += 1
            if self.rnd.random() < 0.15 and stmt.count("(") == stmt.count(")"):
                stmt += self.comment()
            self.emit(f"{label}\t{stmt}")
        elif r < 0.57:
            self.emit(f"{label}\t{self.text_stmt(self.rnd.random() < 0.1)}", 8)
        elif r < 0.61:
            self.emit(f"{label}\t{self.flexo_stmt()}")
        elif r < 0.67 and not label:
            name = self.fresh()
            if self.rnd.random() < 0.4:
                self.lines.append(f"{name}={self.stable_expr()}")
                self.stable.append(name)
            else:
                value = self.closed_expr(1, allow_forward=self.rnd.random() < 0.5)
                self.lines.append(f"{name}={value}")
            self.assigned.append(name)
        elif r < 0.73 and not label:
            # a count made of numbers only: the same in both passes, never zero by chance
            count = self.number(1, 0o17) if self.rnd.random() < 0.9 else "0"
            saved = self.snapshot()
            self.in_repeat = True
            kind = self.rnd.random()
            body = (self.instruction() if kind < 0.6 else "law ." if kind < 0.8
                    else self.flexo_stmt())
            if body.count("(") != body.count(")"):
                body = "law ."
                self.restore(saved)
            if self.rnd.random() < 0.2:
                body = self.with_second_statement(body)
            self.in_repeat = False
            if count == "0":
                self.restore(saved)        # a body repeated no times defines nothing
            elif self.rnd.random() < 0.15 and len(body) < 60:
                body = f"repeat {self.number(1, 3)}, {body}"   # nested repeat
            comma = self.rnd.choice([",", ", "])   # "repeat 4 law 3" would count 700007
            self.emit(f"\trepeat {count}{comma}{body}", 16 + 16)
        elif r < 0.78 and not label:
            self.emit(self.rnd.choice(["\tdecimal", "\toctal"]), 0)
            self.decimal = self.lines[-1] == "\tdecimal"
        elif r < 0.83 and self.macros:
            if label:
                self.lines.append(label)
            self.macro_call()
        elif r < 0.86 and not label:
            self.lines.append(self.comment().lstrip("\t"))
        elif r < 0.88 and not label:
            self.lines.append(self.rnd.choice(["", "", "", "\f", "\f/ new page"]))
        elif r < 0.885 and not label and not self.literals_pending:
            # start in mid-program: the jmp is punched here and the next line is a title
            self.lines.append(f"\tstart {self.rnd.choice(self.labels)}")
            self.lines.append(f"/ a further title after start {len(self.lines)}")
        elif r < 0.91 and self.constants_blocks < 5 and not label:
            self.lines.append("\tconstants")
            self.constants_blocks += 1
            self.literals_pending = False
            self.loc += 20
        elif r < 0.94 and not label:
            # an origin: forward, or into a fresh area of memory
            if self.rnd.random() < 0.5:
                target = self.const_expr()
                self.lines.append(f"\t.+{target}/" if self.rnd.random() < 0.5 else f".+{target}/")
            else:
                base = self.rnd.choice([0o100, 0o1000, 0o2000, 0o3000, 0o4000, 0o5000])
                self.loc = base
                num = str(base) if self.decimal else format(base, "o")
                self.lines.append(f"{num}/" + ("\t" + self.instruction() if self.rnd.random() < 0.3 else ""))
        else:
            stmt = self.instruction()
            self.emit(f"{label}\t{stmt}")

    def program(self, index: int) -> str:
        """A complete program: title, macros, variables, body, pools, start."""
        title = self.rnd.choice([f"/ generated program {index}", f"generated {index}",
                                 f"\t/ generated {index}"])
        if self.rnd.random() < 0.1:
            self.lines.append("")
        self.lines.append(title)
        self.variables = [self.fresh(1, 5) for _ in range(self.rnd.randint(0, 4))]
        for _ in range(self.rnd.randint(0, 3)):
            self.macro_definition()
        if self.rnd.random() < 0.3:
            self.lines.append(f"{self.rnd.choice(['100', '200', '1000'])}/")
        entry = self.fresh()
        self.labels.append(entry)
        self.lines.append(f"{entry},\t{self.instruction()}")
        for _ in range(self.rnd.randint(5, 60)):
            self.line()
        if self.rnd.random() < 0.3:
            self.lines.append("\tnoinput")
        if self.literals_pending or self.rnd.random() < 0.5:
            self.lines.append("\tconstants")
        if self.rnd.random() < 0.7:
            self.lines.append("\tvariables")
        if self.rnd.random() < 0.9:
            self.lines.append(f"\tstart {entry}")
        return "\n".join(self.lines) + "\n"


def generate(seed: int, index: int) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """Program ``index`` of run ``seed`` as (file name, text) pairs, and its options.

    Most programs are one file; some are split in two at a statement boundary (the
    second file's first line is then a title, as macro1 requires), and a few use
    CR LF line ends.
    """
    rnd = random.Random(f"macro1-fuzz:{seed}:{index}")
    gen = Gen(rnd)
    source = gen.program(index)
    files = [("gen.mac", source)]
    if rnd.random() < 0.1 and gen.split_points:
        cut = rnd.choice(gen.split_points)
        files = [("gen.mac", "\n".join(gen.lines[:cut]) + "\n"),
                 ("part2.mac", f"/ part two of program {index}\n"
                  + "\n".join(gen.lines[cut:]) + "\n")]
    if rnd.random() < 0.05:
        files = [(name, text.replace("\n", "\r\n")) for name, text in files]
    options: tuple[str, ...] = ()
    r = rnd.random()
    if r < 0.15:
        options = ("-r",)
    elif r < 0.20:
        options = ("-d",)
    elif r < 0.25:
        options = ("-m",)
    elif r < 0.28:
        options = ("-x",)
    elif r < 0.30:
        options = ("-s",)
    return files, options



# Characters a damaged line gains: the dialect's punctuation plus ones it rejects.
MUTATION_CHARS = "abxz019 \t,=/()[]+-*&!.\\~#$%:;\"'?@^_|{}<>`"
MACRO1_FILE_CAP = 4 << 20          # bytes; see run_macro1 (macro1 can loop for ever)


def mutate(seed: int, index: int) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """Program ``index`` with one to three random edits: inserted, deleted or repeated
    characters, so that the error paths (messages, listing markers, exit status, no
    tape) are compared as thoroughly as the good ones."""
    files, options = generate(seed, index)
    rnd = random.Random(f"macro1-mutant:{seed}:{index}")
    name, text = files[0]
    lines = text.split("\n")
    for _ in range(rnd.randint(1, 3)):
        k = rnd.randrange(len(lines))
        line = lines[k]
        pos = rnd.randint(0, len(line))
        r = rnd.random()
        if r < 0.45:
            line = line[:pos] + rnd.choice(MUTATION_CHARS) + line[pos:]
        elif r < 0.75 and line:
            line = line[:pos] + line[pos + 1:]
        else:
            line = line[:pos] + rnd.choice(MUTATION_CHARS) * rnd.randint(2, 4) + line[pos:]
        lines[k] = line
    return [(name, "\n".join(lines))] + files[1:], options


