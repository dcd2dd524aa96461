"""axe-core (Deque's accessibility engine) run on the exhibit's page in Chromium: WCAG 2.0, 2.1 and 2.2 at levels A
and AA, and axe's best practices, with the check of a control's visible text against its name (WCAG 2.5.3) always on.

Why one helper: the kiosk's and the online page's walks through their states (tests/kiosk/test_page_states.py,
tests/online/test_online_layout.py, tests/exhibit/test_axe.py) each ask it at every state they reach, in the
language on show; the engine is injected once a page load and its findings come back as one line each.
Why from npm: the set-up (scripts/bootstrap.sh test) installs the axe-core it pins into .venv/axe-core; the PyPI
wheels that ship one lag behind (4.12 ran no check of a control's visible text against its name, WCAG 2.5.3).
"""

from __future__ import annotations

import json
from functools import cache

from tests.programs import ROOT

AXE = ROOT / ".venv" / "axe-core" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")
TAGS = (*WCAG_TAGS, "best-practice")
# axe's best-practice rules the page does not follow, each with its reason (docs/accessibility.md lists them)
EXCEPTIONS: dict[str, str] = {}
# rules run whatever axe's version makes of them (label in name was one of its experimental rules, off unless
# asked for, in 4.12)
ALWAYS = ("label-content-name-mismatch",)
OPTIONS = """(tags) => ({runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
  rules: Object.fromEntries(%s.map((id) => [id, {enabled: true}]))})"""


@cache
def axe_script() -> str:
    """The engine's source, as the set-up installed it."""
    assert AXE.is_file(), f"{AXE} is missing: scripts/bootstrap.sh test installs it (make test runs it)"
    return AXE.read_text()


def inject(page) -> None:
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_script())  # (evaluated, not a script tag: the page's own policy allows no inline script)


def axe_problems(page, where: str) -> list[str]:
    """Every rule axe finds broken on ``page`` now, one line each: ``where: rule (impact): help -- targets``."""
    settle(page)
    return axe_findings(page, where)


def axe_findings(page, where: str) -> list[str]:
    """As ``axe_problems``, on the page as it is this moment (a move being sown, say), not once it is still."""
    inject(page)
    options = OPTIONS % json.dumps(ALWAYS)
    violations = page.evaluate(f"(tags) => axe.run(document, ({options})(tags)).then((r) => r.violations)",
                               list(TAGS))
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']} -- "
            + "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:4])
            for v in violations if v["id"] not in EXCEPTIONS]


SETTLED = """() => document.getAnimations().every((a) => a.playState !== "running"
                                                 || a.effect.getComputedTiming().iterations === Infinity)"""


def settle(page, timeout_ms: float = 10_000) -> None:
    """Every transition and finite animation over (a flash fading out is judged at its end, not half-faded;
    a loop, such as the play button's pulse, runs on)."""
    page.wait_for_function(SETTLED, timeout=timeout_ms)


def axe_version(page) -> str:
    inject(page)
    return page.evaluate("axe.version")
