"""``make pictures``: the docs' pictures of the exhibit, screenshots of its real pages in Debian's Chromium.

Why screenshots by a command: a museum's designer decides by looking, and a picture drawn by hand, or
taken once by hand, stops being the page the day the page changes.  Here each picture is the page as a
visitor sees it, served by the real server at its shipped settings (the kiosk's ``kiosk.sample.toml``,
the online exhibit's defaults; only the pace is fast, so that a game under way is reached in seconds),
on the real emulator, a game under way: the board, the typewriter's paper, the console's lamps.

Deterministic: the visitor's touches are seeded, the PDP-1's replies follow from them, the page is
asked for reduced motion and is taken only at the visitor's question with no seed in flight and the
fonts loaded, drawn afresh whole: two runs give the same files, byte for byte (so a run that changes a
picture is a page that changed).  Device scale 1 and the screen sizes the docs name keep the files small
enough to commit.  The servers and the browser are those of ``make bench-kiosk`` (``kiosk_visit``) and
``make bench-online`` (``online_load``), not a harness of their own.
"""

from __future__ import annotations

import random
import shutil
import struct
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .kiosk_visit import CHROMIUM, CHROMIUM_ARGS, ROOT, browser_ready, shipped_kiosk, shipped_strength
from .online_load import one_server

FOLDER = ROOT / "docs" / "pictures"
SEED = 1960  # the visitor's touches
MOVES = 4  # the visitor's moves before the picture: the board well under way, the paper long enough to fill
YOUR_TURN = 'body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal'
# no scroll bar (a touch screen shows none), no sound, one raster thread (fewer pixels differing between runs)
STILL_ARGS = ("--hide-scrollbars", "--mute-audio", "--num-raster-threads=1")
PROMPTS = "(kiosk.paper.text.match(/your move/g) || []).length"


@dataclass(frozen=True)
class Picture:
    """One picture the docs show: its file in docs/pictures and the screen it is taken on."""

    name: str
    site: str  # "kiosk" or "online"
    width: int
    height: int
    touch: bool  # a touch screen (the kiosk, a phone) or a mouse (a desktop)
    what: str

    @property
    def path(self) -> Path:
        return FOLDER / self.name


PICTURES = (
    Picture("kiosk-1280x800.png", "kiosk", 1280, 800, True,
            "the kiosk's screen (its smallest, a 10.1\" panel), a classic game under way"),
    Picture("online-phone-390x844.png", "online", 390, 844, True,
            "the online page on a phone, a game under way (the top of the page)"),
    Picture("online-desktop-1280x800.png", "online", 1280, 800, False,
            "the online page on a desktop, a game under way"),
)


def _open(browser, picture: Picture, url: str):
    """A fresh page at the picture's screen size, device scale 1, reduced motion, at ``url``."""
    context = browser.new_context(viewport={"width": picture.width, "height": picture.height},
                                  device_scale_factor=1, has_touch=picture.touch, reduced_motion="reduce",
                                  bypass_csp=True)  # (the page's policy forbids the eval of wait_for_function)
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector('[data-action="play"]', state="visible")
    return context, page


def _touch(page, picture: Picture, selector: str) -> None:
    """A touch on a touch screen, a click with the mouse on a desktop."""
    target = page.locator(selector).first
    target.tap() if picture.touch else target.click()


def _start(page, picture: Picture, choices: tuple[str, ...]) -> None:
    """The visitor's choices touched, then play; how to play closed if it opens."""
    for choice in choices:
        _touch(page, picture, f'[data-choice="{choice}"]')
    _touch(page, picture, '[data-action="play"]')
    page.wait_for_selector(f'#rules:not([hidden]), {YOUR_TURN}')
    if page.locator("#rules:not([hidden])").count():
        _touch(page, picture, '[data-action="close-rules"]')
    page.wait_for_selector(YOUR_TURN)


def _play(page, picture: Picture, rng: random.Random, moves: int) -> None:
    """``moves`` seeded touches of the visitor's legal pits, each waited for until the visitor is asked again."""
    for _ in range(moves):
        page.wait_for_selector(YOUR_TURN)
        prompts = page.evaluate(PROMPTS)
        pits = page.locator("#bottom-row .pit.legal")
        _touch(page, picture, f"#bottom-row .pit.legal >> nth={rng.randrange(pits.count())}")
        page.wait_for_function(f"document.body.dataset.phase === 'game_over' || "
                               f"(document.body.dataset.phase === 'your_turn' && {PROMPTS} > {prompts})")


def _still(page, picture: Picture) -> None:
    """The visitor's question on the screen and nothing moving: no seed in flight, the fonts loaded; a moment
    for the last lamps the server sent; then the whole page drawn afresh (the window a pixel taller and back),
    as the same game's pixels differed run to run at the pits' rims, the board having been drawn in parts."""
    page.wait_for_selector(YOUR_TURN)
    page.wait_for_selector('body:not([data-sowing="yes"])')
    page.wait_for_function("document.fonts.status === 'loaded'")
    page.mouse.move(0, 0)  # (no hover left on a pit by a click)
    time.sleep(1.0)
    page.set_viewport_size({"width": picture.width, "height": picture.height + 1})
    page.set_viewport_size({"width": picture.width, "height": picture.height})
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    time.sleep(0.5)


def take(browser, picture: Picture, url: str, choices: tuple[str, ...], out: Path) -> None:
    """One picture: a seeded game to its ``MOVES``-th question, the screen saved as PNG at ``out``."""
    context, page = _open(browser, picture, url)
    try:
        _start(page, picture, choices)
        _play(page, picture, random.Random(SEED), MOVES)
        _still(page, picture)
        page.screenshot(path=str(out), animations="disabled", caret="hide")
    finally:
        context.close()


@dataclass(frozen=True)
class Looked:
    """What a picture's pixels say: its size, its distinct colours and the share of its commonest one."""

    width: int
    height: int
    colours: int
    commonest: float  # 0-1


def look(png: bytes) -> Looked:
    """A PNG's size and colours (8-bit RGB or RGBA, not interlaced: what Chromium writes), by the standard
    library alone (no imaging package is installed): the docs' test judges a picture not blank by them."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, data, header = 8, b"", b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        header, data = (body, data) if kind == b"IHDR" else (header, data + body if kind == b"IDAT" else data)
        at += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    channels = {2: 3, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"a PNG of depth {depth}, colour type {colour_type}, interlace {interlace}: not read here")
    raw, stride = zlib.decompress(data), width * channels
    seen: Counter[bytes] = Counter()
    above = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        line = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), above, channels)
        seen.update(bytes(line[i:i + channels]) for i in range(0, stride, channels))
        above = line
    return Looked(width, height, len(seen), seen.most_common(1)[0][1] / (width * height))


def _unfilter(kind: int, line: bytearray, above: bytearray, bpp: int) -> bytearray:
    """PNG's five row filters undone (the specification's section 9)."""
    if kind == 1:
        for i in range(bpp, len(line)):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif kind == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, above, strict=True))
    elif kind == 3:
        for i in range(len(line)):
            line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + above[i]) // 2) & 255
    elif kind == 4:
        for i in range(len(line)):
            a, b, c = (line[i - bpp], above[i], above[i - bpp]) if i >= bpp else (0, above[i], 0)
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    elif kind:
        raise ValueError(f"a row filter {kind}: PNG has none such")
    return line


def make_pictures(folder: Path = FOLDER) -> int:
    """Take every picture, then put them all in ``folder`` (none replaced unless all were taken); a line each
    (its size, colours and bytes); 0 when all were taken, else 1 and one line saying what failed."""
    browser_ready("pictures")
    from playwright.sync_api import Error as BrowserError
    from playwright.sync_api import sync_playwright

    kiosk_choices = ("classic", shipped_strength())
    with tempfile.TemporaryDirectory(prefix="pictures-") as scratch, sync_playwright() as pw:
        taken = Path(scratch) / "taken"
        taken.mkdir()
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, *STILL_ARGS])
        try:
            with shipped_kiosk(Path(scratch) / "kiosk", "fast") as url:
                for picture in (p for p in PICTURES if p.site == "kiosk"):
                    take(browser, picture, url, kiosk_choices, taken / picture.name)
            with one_server("fast", None) as (site, _):
                for picture in (p for p in PICTURES if p.site == "online"):
                    take(browser, picture, site.url, (), taken / picture.name)
        except (BrowserError, RuntimeError) as exc:  # (ServerDidNotStart is a RuntimeError)
            print(f"pictures: not taken, none replaced: {str(exc).splitlines()[0][:300]}", file=sys.stderr)
            return 1
        finally:
            browser.close()
        for picture in PICTURES:
            shutil.copyfile(taken / picture.name, folder / picture.name)
            print(describe(picture, folder), flush=True)
    return 0


def describe(picture: Picture, folder: Path) -> str:
    """The picture's line: its file, size, distinct colours and bytes, and what it shows."""
    png = (folder / picture.name).read_bytes()
    seen = look(png)
    return (f"{picture.name}: {seen.width}x{seen.height}, {seen.colours} colours (the commonest "
            f"{seen.commonest:.0%} of the pixels), {len(png) // 1024} KB: "
            f"{picture.what}")
