"""The layout of ``python_bridge``: packages by concern, each importing only the packages below it.

Read from the source with ``ast`` (every import, at module level or inside a function), so an
import circle or a forbidden dependency fails here before it confuses a reader.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python_bridge"

# what each package may import, besides itself, the standard library and third-party packages
ALLOWED: dict[str, set[str]] = {
    "reference": set(),
    "machine": {"reference", "tools"},
    "driver": {"machine", "reference", "tools"},
    "checking": {"driver", "machine", "reference", "tools"},
    "play": {"driver", "machine", "reference", "tools"},
    "demo": {"checking", "driver", "machine", "reference", "tools"},
    "exhibit": {"driver", "machine", "reference", "tools"},  # the page, its session, its guard: under both front ends
    "kiosk": {"driver", "exhibit", "machine", "reference", "tools"},  # the gallery
    "online": {"checking", "demo", "driver", "exhibit", "machine", "reference", "tools"},  # the web site
    "browser": {"driver", "exhibit", "machine", "reference", "tools"},  # the browser edition (a Worker's Python)
    "bench": {"browser", "checking", "driver", "exhibit", "kiosk", "machine", "online", "reference", "tools"},
    "commands": {"reference", "machine", "driver", "checking", "bench", "play", "demo", "exhibit", "kiosk", "online",
                 "tools"},
    "": {"commands"},  # python_bridge/__main__.py and __init__.py
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every module (dotted, absolute) that ``path`` imports, ours and others'."""
    me = module_name(path)
    package = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            for alias in node.names:  # ``from . import demo`` imports a module
                candidate = f"{target}.{alias.name}"
                if (PACKAGE.parent / candidate.replace(".", "/")).with_suffix(".py").exists():
                    found.add(candidate)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@cache
def graph() -> dict[str, set[str]]:
    """Module to the modules of ours it imports: read when a test first asks (every worker collects this file, and
    parsing the whole package there cost each of them 0.7 CPU-seconds)."""
    return {name: {t for t in imports_of(p) if t in MODULES and t != name} for name, p in MODULES.items()}


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else ""


EXHIBIT_FRONT_ENDS = ("kiosk", "online")


def test_the_exhibits_two_front_ends_stand_apart_on_the_exhibit() -> None:
    """The kiosk (a gallery) and the web site are two ways of serving one exhibit: neither imports the
    other, and each serves the exhibit's page, session and guard (a change for one touch screen cannot
    break the web site through the gallery's insides)."""
    kiosk, online = EXHIBIT_FRONT_ENDS
    assert online not in ALLOWED[kiosk] and kiosk not in ALLOWED[online]
    for front in EXHIBIT_FRONT_ENDS:
        assert "exhibit" in ALLOWED[front] and front not in ALLOWED["exhibit"]
        reached = {package_of(t) for m, targets in graph().items() if package_of(m) == front for t in targets}
        assert "exhibit" in reached, f"{front} does not serve the exhibit"
        assert not reached & (set(EXHIBIT_FRONT_ENDS) - {front}), f"{front} imports the other front end"
    for part in ("game_session", "page", "connection", "messages", "web_guard", "settings", "view"):
        assert f"python_bridge.exhibit.{part}" in MODULES, f"the exhibit has no {part}"
    assert (PACKAGE / "exhibit" / "static" / "index.html").is_file()


def test_every_module_is_in_a_package_of_the_layout() -> None:
    loose = [m for m in MODULES if package_of(m) == "" and m not in ("python_bridge", "python_bridge.__main__")]
    assert not loose, f"modules outside the packages: {loose}"
    assert {package_of(m) for m in MODULES} == set(ALLOWED)


def test_every_package_says_what_lives_there_and_what_it_may_import() -> None:
    for package in ALLOWED:
        if not package:
            continue
        doc = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text())) or ""
        assert "May import" in doc, f"{package}/__init__.py does not say what it may import"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_respect_the_layout(module: str) -> None:
    mine = package_of(module)
    for target in imports_of(MODULES[module]):
        top = target.split(".")[0]
        if top == "tools":
            assert "tools" in ALLOWED[mine], f"{module} imports {target}"
        elif top == "python_bridge":
            theirs = package_of(target) if target in MODULES else target.split(".")[1]
            assert theirs == mine or theirs in ALLOWED[mine], f"{module} ({mine}) imports {target} ({theirs})"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle in ``graph`` as a list of nodes, or None (depth-first search, three colours)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_circle_between_modules() -> None:
    assert find_cycle(graph()) is None, f"import circle: {' -> '.join(find_cycle(graph()) or [])}"


def test_no_import_circle_between_packages() -> None:
    packages: dict[str, set[str]] = {}
    for module, targets in graph().items():
        packages.setdefault(package_of(module), set()).update(
            package_of(t) for t in targets if package_of(t) != package_of(module))
    assert find_cycle(packages) is None


def test_no_import_circle_in_tools() -> None:
    """The cross-assembler's mixins once imported the Assembler (under TYPE_CHECKING, which ``imports_of``
    counts like any import): the one circle of the tree."""
    tools = {module_name(p): p for p in sorted((PACKAGE.parent / "tools").rglob("*.py"))}
    # ``from . import messages`` names the package, which is already loading: no edge to one's own packages
    graph = {name: {t for t in imports_of(p) if t in tools and t != name and not name.startswith(t + ".")}
             for name, p in tools.items()}
    assert graph["tools.macro.assembler"], "the graph of tools/ is empty: the test reads nothing"
    assert find_cycle(graph) is None, f"import circle: {' -> '.join(find_cycle(graph) or [])}"


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# -- one game driver ----------------------------------------------------------------------------
FRONT_ENDS = ("play", "demo", "exhibit", "kiosk")
# What runs a game on the PDP-1: made only by the driver (driver.driver) and what it calls.
DRIVER_ONLY_CALLS = {"TranscriptParser", "CrossChecker", "CycleCounter", "KalahMachine", "Simh", "restore_machine",
                     "checker_from_record", "think_to_break", "step_to_break", "read_in", "wait_for_break"}
# The emulator's running controls: a front end that called them would be running a game loop of its own.
DRIVER_ONLY_METHODS = {"step", "read_some", "expect", "expect_output", "cont", "go", "type", "wait_for_stop"}


def _called_names(tree: ast.AST) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                found.append((func.id, node.lineno))
            elif isinstance(func, ast.Attribute):
                found.append(("." + func.attr, node.lineno))
    return found


@pytest.mark.parametrize("module", sorted(m for m in MODULES if package_of(m) in FRONT_ENDS))
def test_front_ends_reach_the_emulator_only_through_the_driver(module: str) -> None:
    """play/, demo/, exhibit/ and kiosk/ make no parser, checker, machine or cycle counter of their own and run
    no emulator themselves: every game on the PDP-1 is the driver's (``driver.driver``)."""
    tree = ast.parse(MODULES[module].read_text())
    wrong = [f"{name} (line {line})" for name, line in _called_names(tree)
             if name in DRIVER_ONLY_CALLS or (name.startswith(".") and name[1:] in DRIVER_ONLY_METHODS)]
    assert not wrong, f"{module} runs the game itself: {', '.join(wrong)}"


EMULATOR = {"python_bridge.machine.simh", "python_bridge.machine.kalah_program"}


def test_the_driver_is_the_only_game_loop() -> None:
    """Outside driver/, in checking/ and bench/, nothing reads a running game's typewriter, steps its
    thinking or restores machines (a module that holds no emulator may parse a saved transcript)."""
    for module, path in MODULES.items():
        if package_of(module) not in ("checking", "bench"):
            continue
        names = {name for name, _line in _called_names(ast.parse(path.read_text()))}
        assert not names & {"restore_machine", "think_to_break"}, module
        if graph()[module] & EMULATOR:
            assert "TranscriptParser" not in names, f"{module} reads a running game itself"
