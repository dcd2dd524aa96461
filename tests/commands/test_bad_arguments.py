"""Every command, every option, every bad value: one line on stderr, exit status 2, never a traceback.

The cases are drawn from each command's own argparse definitions (``build_parser()``, or
the parser its ``main`` builds), so an option added tomorrow is tried tomorrow: for a
bounded number the values just outside its range, 10**30 and a 5,000-digit number; for
every option malformed, empty and non-ASCII values, a missing value, a value given to a
flag; for choices a near miss; for folders and files ones that cannot be used.  New
commands are picked up from ``python_bridge.__main__.COMMANDS``.  The cases run in this
process (a guard fails a case that starts real work), a sample of them as real processes;
each entry point must have at least ``MIN_CASES`` to try, so a parser the cases cannot read fails.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from python_bridge.__main__ import COMMANDS, command_module, own_parser
from tools.papertape import write_block_tape

ROOT = Path(__file__).resolve().parents[2]
START = "4 4 4 4 4 4 0 4 4 4 4 4 4 0 s"
HUGE = "9" * 5000
GUARD_SECONDS = 20  # a bad input is refused at once; one that is not would start real work

MIN_CASES = 5  # every entry point is tried with at least this many bad inputs (most with dozens or hundreds)

# A valid value for each positional or required option, so one argument at a time can be spoilt.
BASELINE = {"position": START, "pit": "3", "depth": "2", "bound": "0", "pits": "2", "seeds": "2",
            "record": str(ROOT / "tests" / "play" / "records" / "kalah-sample-game1.txt")}

MALFORMED = ["x", "", " 1", "1 ", "1.5", "1_0", "0x10", "1e3", "-", "--1", "é", "３", "٣", "€3", "🙂", "\x1b[A"]
NOT_A_NUMBER_FLOAT = ["nan", "inf", "-inf", "1e999", "x", "", "é", "３", HUGE]


class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


class _Overran(Exception):
    """A case that was not refused at once."""


@dataclass(frozen=True)
class EntryPoint:
    name: str                                   # as a user types it
    main: Callable[[list[str]], int | None]
    parser: Callable[[], argparse.ArgumentParser]


def captured_parser(main: Callable[[list[str]], object]) -> argparse.ArgumentParser:
    """The parser a ``main`` builds, for commands without ``build_parser()``: stopped at parse_args."""
    original = argparse.ArgumentParser.parse_args

    def capture(self, *args, **kwargs):
        raise _Captured(self)

    argparse.ArgumentParser.parse_args = capture  # type: ignore[method-assign]
    try:
        main([])
    except _Captured as got:
        return got.parser
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise AssertionError("main() did not parse its arguments with argparse")


def bridge_entry(name: str) -> EntryPoint:
    module = command_module(name)
    build = own_parser(module) or (lambda: captured_parser(module.main))
    return EntryPoint(f"python -m python_bridge {name}", module.main, build)


def tool_entry(dotted: str) -> EntryPoint:
    module = importlib.import_module(dotted)
    return EntryPoint(f"python -m {dotted}", module.main, module.build_parser)


TOOLS = ["tools.tape", "tools.macro.bench"]


def entry_points() -> list[EntryPoint]:
    return [bridge_entry(name) for name in COMMANDS] + [tool_entry(dotted) for dotted in TOOLS]


# ---------------------------------------------------------------------------- the cases

def sub_parsers(parser: argparse.ArgumentParser,
                prefix: list[str]) -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    """The parser and every sub-command's parser, with the words that reach it."""
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                yield from sub_parsers(sub, prefix + [word])


def value_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]


def takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0


def bounds(action: argparse.Action) -> tuple[float, float] | None:
    kind = action.type
    if hasattr(kind, "lo") and hasattr(kind, "hi"):
        return kind.lo, kind.hi
    if isinstance(action.choices, range):
        return action.choices.start, action.choices.stop - 1
    return None


def is_numeric(action: argparse.Action) -> bool:
    return action.type in (int, float) or bounds(action) is not None


def is_float(action: argparse.Action) -> bool:
    return action.type is float or getattr(action.type, "floating", False)


def bad_values(action: argparse.Action, scratch: Path) -> list[str]:
    """Values this option or positional must refuse."""
    values = list(MALFORMED) + [HUGE, "10" * 40]
    limits = bounds(action)
    if limits is not None:
        lo, hi = limits
        if is_float(action):
            values = NOT_A_NUMBER_FLOAT + [str(lo - 1), str(hi * 10 + 1), str(-abs(hi) - 1)]
        else:
            values += [str(int(lo) - 1), str(int(hi) + 1), str(10**30), str(-(10**30))]
    name = getattr(action.type, "__name__", "")
    if name == "folder_name":
        values = ["/proc/no-such-folder", str(scratch / "a-file"), "", "a\0b", "/dev/null/x"]
    elif name == "readable_file":
        values = ["/no/such/file", str(scratch), "", "a\0b"]
    elif action.type is Path:
        values = ["/no/such/tape.rim", "", "a\0b", str(scratch)]
    elif action.choices is not None and not isinstance(action.choices, range):
        choices = [str(c) for c in action.choices]
        values = ["nonsense", "", "é", choices[0].upper() + "x", choices[0] + " ", HUGE]
    return values


def good(action: argparse.Action) -> str:
    assert action.dest in BASELINE, (f"{action.dest!r} is required: give it a good value in BASELINE "
                                     f"so that its neighbours can be tried one at a time")
    return BASELINE[action.dest]


def baseline(parser: argparse.ArgumentParser) -> list[str]:
    """The required arguments with good values, positionals in order."""
    argv: list[str] = []
    for action in value_actions(parser):
        if not action.option_strings:
            if action.nargs not in ("*", "?"):
                argv.append(good(action))
        elif action.required:
            argv += [action.option_strings[0], good(action)]
    return argv


def with_value(parser: argparse.ArgumentParser, action: argparse.Action, value: str) -> list[str]:
    """The baseline with ``action`` given ``value`` (replacing a positional's good value)."""
    argv: list[str] = []
    for other in value_actions(parser):
        if not other.option_strings:
            if other is action:
                argv.append(value)
            elif other.nargs not in ("*", "?"):
                argv.append(good(other))
        elif other.required and other is not action:
            argv += [other.option_strings[0], good(other)]
    if action.option_strings:
        argv += [f"{action.option_strings[-1]}={value}" if value.startswith("-") else action.option_strings[-1]]
        if not value.startswith("-"):
            argv.append(value)
    return argv


def cases_for(parser: argparse.ArgumentParser, scratch: Path) -> list[list[str]]:
    cases: list[list[str]] = []
    good = baseline(parser)
    cases += [good + ["--no-such-option"], good + ["--pïts", "3"], good + ["extra-word"]]
    for action in value_actions(parser):
        if takes_value(action):
            for value in bad_values(action, scratch):
                cases.append(with_value(parser, action, value))
            if action.option_strings:
                cases.append(good + [action.option_strings[0]])           # the value missing
        else:
            cases.append(good + [f"{action.option_strings[0]}=yes"])      # a flag given a value
    return cases


# Bad combinations no single option can see, and values the commands check themselves.
EXTRA = {
    "python -m python_bridge fuzz": [["--cases", "10", "--group", "1"], ["--cases", "40", "--group", "1"]],
    "python -m python_bridge demo": [["--first", "pdp-1", "--records", "{scratch}"], ["--first", "you"]],
    "python -m python_bridge ref": [
        ["solve", "--pits", "6", "--seeds", "6"], ["solve", "--pits", "5", "--seeds", "5"],
        ["best", START, HUGE], ["best", START, "0"], ["best", START, "21"], ["best", START, "-" + HUGE],
        ["move", START, HUGE], ["move", START, "7"], ["move", START, "0"], ["move", START, "٣"],
        ["move", "4 4 4 4 4 4 0 4 4 4 4 4 4 " + HUGE + " s", "3"], ["move", START.replace("s", "é"), "3"],
        ["best", "0 0 0 0 0 0 24 0 0 0 0 0 0 24 e", "3"], ["move", "4 4 4 4 s", "2"],
    ],
    "python -m python_bridge bench-ref": [["--min-depth", "9", "--max-depth", "4"]],
    "python -m python_bridge strength": [["--games", "3"], ["--games", "999"], ["--opponents", "ab4,ab4"],
                                         ["--opponents", "ab4,"], ["--opponents", ",ab4"], ["--opponents", "AB4"],
                                         ["--opponents", "ab4 ,ab6"], ["--opponents", "mcts"]],
}


@contextlib.contextmanager
def guard(seconds: float) -> Iterator[None]:
    def overran(signum, frame):
        raise _Overran()

    previous = signal.signal(signal.SIGALRM, overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_in_process(main: Callable[[list[str]], int | None], argv: list[str]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with guard(GUARD_SECONDS):
                code: object = main(list(argv))
        except SystemExit as stop:
            code = stop.code
        except _Overran:
            code = "not refused: ran for more than %d s" % GUARD_SECONDS
        except BaseException as exc:  # what a user would see as a traceback
            code = f"traceback: {type(exc).__name__}: {exc}"[:300]
    return code, out.getvalue(), err.getvalue()


def verdict(code: object, out: str, err: str) -> str | None:
    """None when the input got one line on stderr and exit 2; else what went wrong."""
    lines = err.splitlines()
    if code != 2:
        return f"exit {code!r}"
    if len(lines) != 1 or not err.endswith("\n"):
        return f"{len(lines)} lines on stderr: {err[:300]!r}"
    if "Traceback" in err or len(lines[0]) > 400:
        return f"not a short line: {lines[0][:300]!r}"
    return None


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bad-inputs")
    (folder / "a-file").write_text("not a folder\n")
    return folder


@pytest.fixture(scope="module")
def good_tape(scratch: Path) -> Path:
    tape = scratch / "good.rim"
    tape.write_bytes(write_block_tape({0o100: 0o760400}, 0o100))
    return tape


@pytest.mark.parametrize("entry", entry_points(), ids=lambda e: e.name.split()[-1])
def test_every_bad_value_gets_one_line_and_exit_2(entry: EntryPoint, scratch: Path, good_tape: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    BASELINE["tape"] = str(good_tape)
    monkeypatch.chdir(scratch)           # a case that wrongly ran would leave its files here, not in the project
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    cases = []
    for prefix, parser in sub_parsers(entry.parser(), []):
        cases += [prefix + argv for argv in cases_for(parser, scratch)]
    cases += [[word.format(scratch=scratch) for word in argv] for argv in EXTRA.get(entry.name, [])]
    failures = []
    for argv in cases:
        problem = verdict(*run_in_process(entry.main, argv))
        if problem:
            failures.append(f"{entry.name} {' '.join(repr(a)[:60] for a in argv)}: {problem}")
    assert len(cases) >= MIN_CASES, f"{entry.name}: only {len(cases)} bad inputs to try: the cases read nothing"
    assert not failures, f"{len(failures)} of {len(cases)} bad inputs not answered with one line and exit 2:\n" + \
        "\n".join(failures[:40])


@pytest.mark.parametrize("entry", entry_points(), ids=lambda e: e.name.split()[-1])
def test_every_option_has_help_and_every_number_a_range(entry: EntryPoint) -> None:
    problems = []
    for prefix, parser in sub_parsers(entry.parser(), []):
        where = " ".join([entry.name, *prefix])
        if not parser.description:
            problems.append(f"{where}: no description")
        for action in value_actions(parser):
            label = "/".join(action.option_strings) or action.dest
            if not action.help or action.help == argparse.SUPPRESS:
                problems.append(f"{where} {label}: no help text")
            if is_numeric(action) and bounds(action) is None:
                problems.append(f"{where} {label}: a number without a range")
            if bounds(action) is not None and isinstance(action.choices, range):
                problems.append(f"{where} {label}: a range as choices (its error lists every value)")
    assert not problems, "\n".join(problems)


# Options whose meaning differs where a command's spelling is fixed by its specification.
NAMED_ELSEWHERE = {("online", "--pace"): "fast|1960, as the online exhibit's settings name it (prove's is a factor)",
                   ("bench-online", "--pace"): "the online exhibit's pace, which it loads",
                   ("online-cluster", "--pace"): "the online exhibit's pace, its servers'"}


def test_the_same_option_means_the_same_in_every_command() -> None:
    """``--pits``, ``--level``, ``--first``, ``--records``...: one name, one range, one set of values."""
    seen: dict[str, tuple[str, object]] = {}
    problems = []
    for entry in entry_points():
        if not entry.name.startswith("python -m python_bridge "):
            continue
        for prefix, parser in sub_parsers(entry.parser(), []):
            for action in value_actions(parser):
                for option in action.option_strings:
                    if (entry.name.split()[-1], option) in NAMED_ELSEWHERE:
                        continue
                    # the upper bound may differ (bench --games costs more than crosscheck --games)
                    low = bounds(action)[0] if bounds(action) else None
                    if getattr(action.type, "even", False):
                        low -= 1  # an even count (strength --games: each opening with both colours) starts at 2
                    kind = (low, tuple(action.choices) if action.choices else None,
                            getattr(action.type, "__name__", None), action.dest, action.nargs)
                    where = " ".join([entry.name.split()[-1], *prefix])
                    if option in seen and seen[option][1] != kind:
                        problems.append(f"{option}: {seen[option][0]} has {seen[option][1]}, {where} has {kind}")
                    seen.setdefault(option, (where, kind))
    assert not problems, "\n".join(problems)
    assert "--out" not in seen and seen["--first"][1][1] == ("visitor", "pdp-1")


# ---------------------------------------------------------------------------- as real processes

SUBPROCESS_CASES = [
    ["-m", "python_bridge", "nonsense"],
    ["-m", "python_bridge"],
    ["-m", "python_bridge", "crosscheck", "--games", str(10**30)],
    ["-m", "python_bridge", "crosscheck", "--player-depth", "25"],
    ["-m", "python_bridge", "bench", "--positions", "0"],
    ["-m", "python_bridge", "ref", "best", START, HUGE],
    ["-m", "python_bridge", "ref", "solve", "--pits", "6", "--seeds", "6"],
    ["-m", "python_bridge", "play", "--records", "/proc/nope"],
    ["-m", "python_bridge", "demo", "--records", "/proc/nope"],
    ["-m", "python_bridge", "fuzz", "--cases", "10", "--jobs", "1000000"],
    ["-m", "python_bridge", "fuzz", "--group", "-1"],
    ["-m", "python_bridge", "play", "--level", "é"],
    ["-m", "python_bridge", "strength", "--games", "21"],
    ["-m", "tools.tape", "check", "/no/such/tape.rim"],
    ["-m", "python_bridge", "bench-ref", "--repeats", "0"],
]


@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=lambda a: " ".join(a[1:4])[:40])
def test_as_a_real_process_one_line_and_exit_2(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert verdict(done.returncode, done.stdout, done.stderr) is None, (done.returncode, done.stderr)
    assert done.stdout == ""


def test_a_batch_goes_on_past_a_bad_line() -> None:
    lines = [f"best {START} {'9' * 100_000}", f"move {START} 3", "move " + "é" * 5000 + " 1", f"best {START} 1"]
    done = subprocess.run([sys.executable, "-m", "python_bridge", "ref", "batch"], cwd=ROOT, timeout=60,
                          input="\n".join(lines).encode() + b"\n\xff\xfe\n", capture_output=True)
    answers = done.stdout.decode().splitlines()
    assert done.returncode == 0 and done.stderr == b""
    assert [a.split()[0] for a in answers] == ["error", "4", "error", "best", "error"]
    assert all(len(a) < 200 for a in answers)


def test_help_lists_every_command_on_one_line_each() -> None:
    done = subprocess.run([sys.executable, "-m", "python_bridge", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  ")]
    assert listed == list(COMMANDS)


def test_sizes_that_run_for_hours_are_announced_before_the_work(capsys: pytest.CaptureFixture[str]) -> None:
    from python_bridge.commands.fuzz import CASES_PER_SECOND
    from python_bridge.commands.validators import warn_if_long

    warn_if_long(10_000_000, CASES_PER_SECOND, "fuzz cases")
    warn_if_long(2000, CASES_PER_SECOND, "fuzz cases")           # a default run: nothing said
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "note: 10,000,000 fuzz cases will take about 1.9 hours here" in err


def test_bounded_numbers_take_plain_decimals_only() -> None:
    from python_bridge.commands.validators import bounded_float, bounded_int

    seconds, count = bounded_float(0.5, 3600), bounded_int(1, 6)
    assert seconds("2.5") == 2.5 and seconds("3600") == 3600 and count("6") == 6 and count("+3") == 3
    for text in ("nan", "inf", "-1", "0.1", "3601", "1e3", "", "٣", HUGE):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds(text)
    for text in ("0", "7", "1.0", "٣", "３", "1_0", " 3", HUGE, "-" + HUGE):
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            count(text)
        assert len(str(refused.value)) < 120


def test_never_more_emulators_than_work() -> None:
    """``fuzz --cases 10 --jobs 8`` is one group of work: it runs here, forking nothing."""
    import os

    from python_bridge.checking.parallel import deal
    from python_bridge.commands.validators import MAX_JOBS, resolve_jobs

    assert deal([1], 8, lambda share: (os.getpid(), share)) == [(os.getpid(), [1])]
    assert resolve_jobs(8, work=1) == 1 and resolve_jobs(0, work=1000) == min(os.cpu_count() or 1, 1000)
    assert MAX_JOBS == 4 * (os.cpu_count() or 1)
