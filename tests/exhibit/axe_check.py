"""axe-core (Deque's accessibility engine, shipped for Playwright by the axe-playwright-python package) run on
the exhibit's page in Chromium: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.

Why one helper: the kiosk's and the online page's walks through their states (tests/kiosk/test_page_states.py,
tests/online/test_online_layout.py, tests/exhibit/test_axe.py) each ask it at every state they reach, in the
language on show; the engine is injected once a page load and its findings come back as one line each.
"""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")
# axe's best-practice rules the page does not follow, each with its reason (docs/accessibility.md lists them)
EXCEPTIONS: dict[str, str] = {}


def axe_problems(page, where: str) -> list[str]:
    """Every rule axe finds broken on ``page`` now, one line each: ``where: rule (impact): help -- targets``."""
    settle(page)
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": list(TAGS)}, "resultTypes": ["violations"]}
    violations = page.evaluate("(options) => axe.run(document, options).then((r) => r.violations)", options)
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
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    return page.evaluate("axe.version")
