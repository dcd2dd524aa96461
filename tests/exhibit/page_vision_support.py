"""What ``test_page_vision`` and ``test_page_zoom`` share: windows of any size, scale and media, the page's states
walked in every language, and its contrast read (their server and browser are ``conftest``'s)."""

from __future__ import annotations

from tests.browser import BYPASS_CSP
from tests.kiosk.kiosk_page_checks import (
    CONTRAST,
    look_through,
)
from tests.web.served_folder import HELLO_MS

LANGUAGES = ("en", "pl", "tl", "az")
YOUR_MOVE = 'body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal'
MM_10_INCH = 0.170  # the kiosk's smallest screen, 1280x800 at 10.1 inches
SCROLL_TRIES = 3  # a finger's drag drawn again when Chromium took it for no scroll


class Window:
    """A page in a window of its own: ``width`` x ``height`` CSS px at ``scale`` device px a CSS px; any error of
    the page fails the test.  (The walks that measure sizes ask for reduced motion: each move drawn at once.)"""

    def __init__(self, browser, url: str, width: int, height: int, scale: float = 1, **options) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale,
                                           has_touch=True, bypass_csp=BYPASS_CSP, **options)
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = url

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.context.close()
        assert not self.errors, self.errors

    def zoom(self, zoom: float, width: int, height: int) -> None:
        """The open page zoomed as a visitor zooms a page they have open: its window ``width`` x ``height`` CSS px at
        ``zoom`` device px a CSS px, laid out again where it is, not loaded again (the browser edition's PDP-1, in
        the page's Worker, starts once).  The emulation lasts as long as its DevTools session: the window's."""
        self.devtools = self.page.context.new_cdp_session(self.page)
        self.devtools.send("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": zoom, "mobile": False})
        self.page.wait_for_function(f"innerWidth === {width} && devicePixelRatio === {zoom}")

    def open(self, init_script: str | None = None):
        page = self.page
        if init_script:
            page.add_init_script(init_script)
        page.goto(self.url + "/")
        page.wait_for_selector('[data-action="play"]', state="visible")
        # the server's first word drawn (its hello: the language buttons): the page's HTML starts in attract mode, so
        # the play button shows before it (measured then, the choices were not there yet; the status line had no text
        # yet and was missing from a walk's sizes, once under load)
        page.wait_for_selector("#languages button", timeout=HELLO_MS)
        page.wait_for_function("document.getElementById('status').textContent.trim() !== ''")
        page.wait_for_function("document.fonts.status === 'loaded'")
        return page


def _language(page, language: str) -> None:
    page.locator(f'[data-lang="{language}"]').tap()
    page.wait_for_function(f"document.documentElement.lang === '{language}'")


def _card(page, name: str, open_it: bool) -> None:
    page.locator(f'[data-action="{name if open_it else "close-" + name}"]').tap()
    page.wait_for_selector(f"#{name}:not([hidden])" if open_it else f"#{name}[hidden]", state="attached")


def _play(page) -> None:
    """The game begun (the quick one), the rules card closed if it showed, the visitor asked a move."""
    page.locator('[data-choice="quick"]').tap()
    page.locator('[data-action="play"]').tap()
    page.wait_for_selector('body[data-mode="visitor"]')
    if page.locator('[data-action="close-rules"]').is_visible():
        _card(page, "rules", False)
    page.wait_for_selector(YOUR_MOVE)
    page.wait_for_selector('body:not([data-sowing="yes"])')


def _move(page) -> bool:
    """One move of the visitor's (its last legal pit), then the visitor's turn again: False once the game is over."""
    turn = page.evaluate("kiosk.state.turn")
    page.locator("#bottom-row .pit.legal").last.tap()
    page.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")
    page.wait_for_selector(f'{YOUR_MOVE}, body[data-phase="game_over"]')
    page.wait_for_selector('body:not([data-sowing="yes"])')
    return page.locator('body[data-phase="game_over"]').count() == 0


ZOOMS = ((1, 1920, 1080), (1.25, 1536, 864), (1.5, 1280, 720), (2, 960, 540))  # a 1920x1080 window, zoomed
# the status line, "How to play" and the main button (Touch to play), by their places on the page (SIZES' keys)
MAIN_TEXTS = ("#kiosk>#messages>#status", "#kiosk>#bar>button[1]", "#kiosk>#actions>div[4]>button[0]")


def _in_every_language(page, what: str, screenfuls: tuple[str, ...] = ("en",), sizes: bool = False) -> list[str]:
    """The page as it is, in each language, looked through (every screenful down in ``screenfuls``' languages, the
    top in the others; the kiosk's sizes too if ``sizes``); then English again."""
    problems = []
    for language in LANGUAGES:
        _language(page, language)
        problems += [f"{what} in {language}: {p}" for p in
                     look_through(page, MM_10_INCH, every_screenful=language in screenfuls, sizes=sizes)]
    _language(page, "en")
    return problems


def _walk(page, states: tuple[str, ...], where: str, screenfuls: tuple[str, ...] = ("en",),
          sizes: bool = False) -> list[str]:
    """Each state in each language, looked through (_in_every_language)."""
    problems = []
    for state in states:
        _into(page, state)
        problems += _in_every_language(page, f"{where} {state}".strip(), screenfuls, sizes)
        _out_of(page, state)
    return problems


def _into(page, state: str) -> None:
    """The page brought to ``state``: a card opened, the game begun, or a move made."""
    if state in ("about", "rules"):
        _card(page, state, True)
    if state == "your turn":
        _play(page)
    if state == "after a move":
        _move(page)
        assert page.locator("#board .last").count() == 1


def _out_of(page, state: str) -> None:
    if state in ("about", "rules"):
        _card(page, state, False)


def _scroll_by_touch(page, x: int, y: int) -> None:
    """A finger on the screen at (x, y) drawn up 300 px, as a visitor scrolls a page down: a touch, no tap."""
    from playwright.sync_api import TimeoutError as NotYet

    cdp = page.context.new_cdp_session(page)
    for _ in range(SCROLL_TRIES):  # (on a loaded host Chromium once took such a drag for no scroll: drawn again)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, 21):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 15 * step}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        try:
            page.wait_for_function("scrollY > 0", timeout=5_000)
            return
        except NotYet:
            continue
    raise AssertionError(f"the page never scrolled under a finger drawn up from ({x}, {y})")


def _contrast(page, states: tuple[str, ...], where: str) -> list[str]:
    problems = []
    for state in states:
        _into(page, state)
        report = page.evaluate(CONTRAST)
        assert report["texts"] >= 4, (where, state, report)
        assert state not in ("your turn", "after a move") or report["marks"] >= 8, (where, state, report)
        problems += [f"{where} {state}: {p}" for p in report["problems"]]
        _out_of(page, state)
    return problems
