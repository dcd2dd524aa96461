"""The README and docs/ as a reader uses them: every command they show exists, and the cheap ones run as written.

Why: a page that shows a command that no longer exists, or a make target that was renamed, sends a
newcomer astray at the first step, and a figure typed by hand goes stale.  So this test reads the
pages themselves: every ``make X`` they name must be a Makefile target, every
``python -m python_bridge CMD`` a real command, every ``python -m module`` an importable module,
every relative link a file (and heading) that exists; the cheap command lines in their code blocks
(``--help``, ``ref``, ``tools.tape check``, short games on 1 or 2 pits or seeds, one-seed proofs) are
run exactly as written and must end with the status the page implies.  The README stays a first
page (at most 200 lines), and no page refers to the project's issue tracker by number.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from python_bridge.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]

# Commands and pages the docs name that other branches add; until they are merged their checks are
# skipped (with this reason), not dropped.  Empty this after the merge: then a missing one fails.

# python_bridge commands whose shown lines are run; the others (games at a terminal, shows, servers,
# benchmarks) take minutes or a person, so only their names are checked.  --help/--version always run.
RUN_COMMANDS = {"ref", "crosscheck", "fuzz", "think", "prove"}
RUN_MODULES = {"tools.tape", "tools.macro"}
# shown lines that demonstrate an error, and the status they must end with
EXPECTED_STATUS = {".venv/bin/python -m python_bridge play --pits 9": 2}
TIMEOUT = 120


def text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def shown_lines(page: Path) -> list[str]:
    """The command lines of a page's code blocks (indented or fenced; not the Python example), joined at ``\\``."""
    lines, fenced, language = [], False, ""
    pending = ""
    for raw in text(page).splitlines():
        if raw.lstrip().startswith("```"):
            fenced, language = (not fenced), raw.strip()[3:]
            continue
        if fenced and language not in ("", "sh", "bash", "text"):
            continue
        if not (fenced or raw.startswith("    ")):
            continue
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if re.match(r"(sudo )?make |\.venv/bin/python |python -m ", line):
            lines.append(line)
    return lines


def spans(page: Path) -> list[str]:
    """Inline code spans and code-block lines: where a page names commands."""
    return re.findall(r"`([^`\n]+)`", text(page)) + shown_lines(page)


def makefile_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))


def argv_of(line: str) -> list[str]:
    return shlex.split(line, comments=True)


# ------------------------------------------------------------------------------ the README, every page

def test_the_readme_is_a_first_page() -> None:
    lines = text(README).splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines"
    for heading in ("## Requirements", "## Two commands", "## The commands at a glance"):
        assert heading in lines, heading
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{page.name})" in text(README), f"the README's map leaves out docs/{page.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_names_an_issue_by_number(page: Path) -> None:
    found = re.findall(r"\bissues?\s*#?\d+", text(page), re.I)
    assert not found, f"{page.name}: {found}"


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_reaches_a_page_and_heading(page: Path) -> None:
    for target in re.findall(r"\]\(([^)\s]+)\)", text(page)):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.is_file(), f"{page.name} links to {target}, which does not exist"
        if anchor and linked.suffix == ".md":
            headings = {_slug(h) for h in re.findall(r"^#+ (.*)$", linked.read_text(), re.M)}
            assert anchor in headings, f"{page.name} links to {target}: no such heading"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_make_target_named_exists(page: Path) -> None:
    targets = makefile_targets()
    named = {m for span in spans(page) for m in re.findall(r"(?:^|\s)make ([a-z][\w-]*)", span)}
    assert named - targets == set(), f"{page.name} names make targets the Makefile lacks"


def _bridge_commands(page: Path) -> set[str]:
    return {m for span in spans(page) for m in re.findall(r"python -m python_bridge (--?[\w-]+|[a-z][\w-]*)", span)
            if m not in ("--help", "-h")}


def _modules(page: Path) -> set[str]:
    return {m for span in spans(page) for m in re.findall(r"python -m ([\w.]+)", span)}


DOC_COMMANDS = sorted({name for page in PAGES for name in _bridge_commands(page)})


@pytest.mark.parametrize("name", DOC_COMMANDS)
def test_every_bridge_command_named_is_real(name: str) -> None:
    assert name == "--version" or name in COMMANDS, (f"the docs name python -m python_bridge {name}, "
                                                     "which is not a command")


@pytest.mark.parametrize("module", sorted({m for page in PAGES for m in _modules(page)}))
def test_every_module_run_with_python_m_exists(module: str) -> None:
    assert importlib.util.find_spec(module) is not None, module


def test_the_figures_page_is_generated() -> None:
    """docs/figures.md is make figures' output: every section there, in the generator's order."""
    from python_bridge.bench.figures_page import SECTIONS, kept_sections

    page = ROOT / "docs" / "figures.md"
    assert list(kept_sections(page)) == [section.name for section in SECTIONS]
    assert "make figures" in text(page)


# ------------------------------------------------------------------------------ running what is shown

def _runnable(line: str) -> bool:
    argv = argv_of(line)
    if len(argv) < 4 or argv[:2] != [".venv/bin/python", "-m"]:
        return False
    module, first = argv[2], argv[3]
    if "--help" in argv or "--version" in argv or line in EXPECTED_STATUS:
        return True
    if module == "python_bridge":
        if first == "prove":
            return "--seeds" in argv and argv[argv.index("--seeds") + 1] == "1"
        return first in RUN_COMMANDS
    return module in RUN_MODULES


RUNNABLE = sorted({line for page in PAGES for line in shown_lines(page) if _runnable(line)})


def test_the_docs_show_runnable_commands() -> None:
    assert len(RUNNABLE) >= 10, RUNNABLE


@pytest.mark.parametrize("line", RUNNABLE)
def test_a_shown_command_runs_as_written(line: str) -> None:
    argv = argv_of(line)
    done = subprocess.run([sys.executable, *argv[1:]], cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    expected = EXPECTED_STATUS.get(line, 0)
    assert done.returncode == expected, f"{line}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    if expected == 2:
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_readmes_typewriter_sample_is_a_game_the_reference_agrees_with() -> None:
    """The sample is a real transcript: every board, move and PDP-1 choice in it checks against the reference
    (the same parser and cross-checker as a live game), and the game is played to its end."""
    from python_bridge.driver.crosscheck import CrossChecker
    from python_bridge.machine.transcript import Title, TranscriptParser

    section = text(README).split("## What the typewriter prints", 1)[1].split("\n## ", 1)[0]
    sample = "\n".join(line[4:] for line in section.splitlines() if line.startswith("    ")) + "\n"
    checker = None
    for event in TranscriptParser().feed(sample):
        if isinstance(event, Title):
            checker = CrossChecker(event)
        else:
            assert checker is not None, "the sample does not start with the program's title"
            checker.on_event(event)
    assert checker is not None and checker.finished and checker.moves_checked >= 6
