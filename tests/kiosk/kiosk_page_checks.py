"""What the kiosk page must be on every screen, measured in a real Chromium: nothing cut off or
scrolling, no touch target under 15 mm, text read from 1.5 m at least 5 mm tall (capital letters),
every other text a visitor reads (the paper, the console, the choices, the cards) at least 3 mm,
and every visible string in the chosen language.  Used by tests/kiosk/test_browser.py and
tests/kiosk/test_page_states.py; the online page's layout test (tests/online/test_online_layout.py) uses the
same measures with options (a page that scrolls down, text under another box, labels at their buttons' edges).

A capital's height is measured from the font the browser renders: the ascent of "H" in the element's
computed font family and weight (a canvas's ``measureText`` at 100 px), times its computed size, times
the element's scale on the screen (an SVG's drawings are scaled to their box), in CSS pixels, times
the screen's millimetres a pixel.  The four
screens are the panels a museum may use, each named with its diagonal; their millimetres a pixel
follow from it: diagonal / sqrt(width² + height²) pixels.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tests.kiosk.kiosk_support import ROOT

CATALOGUES = ROOT / "python_bridge" / "exhibit" / "static" / "i18n"
MIN_TARGET_MM = 15.0
MIN_FAR_TEXT_MM = 5.0  # the height of a capital letter, text read from 1.5 m
MIN_TEXT_MM = 3.0  # the height of a capital letter, any other text a visitor reads
# strings that are the same in every language: numbers, the machine's name, and their mixtures
INVARIANT = re.compile(r"^[\d\s.,:;×+–\-()]*(PDP-1)?[\d\s.,:;×+–\-()]*$")


@dataclass(frozen=True)
class Screen:
    name: str
    width: int
    height: int
    mm_per_px: float


SCREENS = [
    Screen("1920x1080-24in", 1920, 1080, 0.277),  # a 24" monitor on a wall: 531 x 299 mm
    Screen("1280x800-10in", 1280, 800, 0.170),  # a 10.1" touch panel, the smallest: 218 x 136 mm
    Screen("1080x1920-21in", 1080, 1920, 0.248),  # a 21.5" panel in portrait: 268 x 476 mm
    Screen("1024x768-15in", 1024, 768, 0.297),  # a 15" 4:3 touch monitor: 304 x 228 mm
]


def catalogue(language: str) -> dict[str, str]:
    return json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))


# Everything is checked on what the visitor can see: an open card hides the page beneath it; a panel that scrolls
# down (a card's words, overflow-y auto) cuts off nothing above or below it, the visitor scrolls to it.
# Its argument: the screen's millimetres a pixel, or {mm, sizes, scrolls, covered}: sizes false leaves the
# sizes unchecked, scrolls true lets the page scroll down (a phone), covered true also finds text under another box.
_LAYOUT = r"""
(arg) => {
  const o = typeof arg === "number" ? { mm: arg } : arg, mm = o.mm, sizes = o.sizes !== false;
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight, de = document.documentElement;
  if (de.scrollWidth > vw || (!o.scrolls && de.scrollHeight > vh))
    problems.push(`the page scrolls: ${de.scrollWidth}x${de.scrollHeight}`);
  const shown = (el) => {
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && Number(cs.opacity) > 0;
  };
  const parentName = (el) => el.parentElement
    ? (el.parentElement.id || el.parentElement.getAttribute("class")) : "?";
  const name = (el) => el.id ? "#" + el.id : el.dataset.action ? `[data-action=${el.dataset.action}]`
    : el.dataset.choice ? `[data-choice=${el.dataset.choice}]` : el.dataset.lang ? `[data-lang=${el.dataset.lang}]`
    : `${el.tagName.toLowerCase()}.${el.getAttribute("class")} in ${parentName(el)}`;
  // the box drawn over a point of el's text, if any: something between the point's topmost element and
  // el's nearest common ancestor with it that paints there (a background, an image, or its own text)
  const paints = (a, x, y) => {
    const cs = getComputedStyle(a);
    if (a instanceof HTMLImageElement || a instanceof SVGElement || a instanceof HTMLButtonElement) return true;
    if (cs.backgroundImage !== "none" || !/rgba\(.*, 0\)$|transparent/.test(cs.backgroundColor)) return true;
    for (const n of a.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects())
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return true;
    }
    return false;
  };
  const coveredBy = (el, t, seen) => {
    const y = (Math.max(t.top, seen.top) + Math.min(t.bottom, seen.bottom)) / 2;
    if (seen.top >= seen.bottom) return null;  // out of sight: nothing to cover it
    for (const x of [t.left + 2, (t.left + t.right) / 2, t.right - 2]) {
      if (x < seen.left || x > seen.right || y < seen.top || y > seen.bottom) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || el.contains(hit)) continue;
      for (let a = hit; a && !a.contains(el); a = a.parentElement) if (paints(a, x, y)) return a;
    }
    return null;
  };
  const root = document.querySelector(".overlay:not([hidden])") || document.getElementById("kiosk");
  const canvas = document.createElement("canvas").getContext("2d");
  const far = new Set(root.querySelectorAll(".far, .far *, .pit .count, .store .count, .numbers span"));
  let farCount = 0, smallest = null;
  for (const el of root.querySelectorAll("*")) {
    if (!shown(el)) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    if (!text) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const t = range.getBoundingClientRect();
    const rolling = el.closest("#paper");  // the paper rolls up out of sight, as on the typewriter
    const down = rolling || o.scrolls;  // below the screen (or above it) is in sight once the page scrolls
    // a panel that scrolls down (a card's words) brings what is below or above it into sight: it must be on the
    // screen itself, its words in it
    let panel = null;
    for (let a = el; a && a !== document.body && !panel; a = a.parentElement)
      if (/auto|scroll/.test(getComputedStyle(a).overflowY)) panel = a;
    const high = panel ? panel.getBoundingClientRect() : t;
    if (t.left < -0.5 || t.right > vw + 0.5 || (!down && (high.top < -0.5 || high.bottom > vh + 0.5)))
      problems.push(`off the screen: ${name(el)} "${text.slice(0, 30)}"`);
    const seen = { left: 0, top: 0, right: vw, bottom: vh };  // where the text can be seen: the screen, less the clips
    let clipped = false;
    for (let a = el; a && a !== document.body; a = a.parentElement) {  // the element itself may clip its text
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const r = a.getBoundingClientRect();
      const across = t.left < r.left - 0.5 || t.right > r.right + 0.5;  // (a panel that scrolls across cuts off too)
      const scrolled = rolling || /auto|scroll/.test(cs.overflowY);
      if (!clipped && (across || (!scrolled && (t.top < r.top - 0.5 || t.bottom > r.bottom + 0.5))))
        problems.push(`cut off: ${name(el)} "${text.slice(0, 30)}" by ${name(a)}`);
      clipped = true;  // the nearest clip only: the text's own box is measured against it
      Object.assign(seen, { left: Math.max(r.left, seen.left), top: Math.max(r.top, seen.top),
        right: Math.min(r.right, seen.right), bottom: Math.min(r.bottom, seen.bottom) });
    }
    if (o.covered) {
      const over = coveredBy(el, t, seen);
      if (over) problems.push(`under another box: ${name(el)} "${text.slice(0, 30)}" under ${name(over)}`);
    }
    const cs = getComputedStyle(el);
    // the font's capital height measured at 100 px (a small size's glyph box is rounded to whole pixels)
    canvas.font = `${cs.fontStyle} ${cs.fontWeight} 100px ${cs.fontFamily}`;
    const scale = el instanceof SVGElement ? el.getScreenCTM().a : 1;
    const cap = canvas.measureText("H").actualBoundingBoxAscent / 100 * parseFloat(cs.fontSize) * scale * mm;
    const what = `${name(el)} "${text.slice(0, 30)}"`;
    if (!sizes) continue;
    if (far.has(el)) {
      farCount++;
      if (cap < %(far)s) problems.push(`text too small to read from 1.5 m: ${what} ${cap.toFixed(2)} mm`);
    } else if (cap < %(text)s) problems.push(`text too small to read: ${what} ${cap.toFixed(2)} mm`);
    if (!smallest || cap < smallest.mm) smallest = { mm: Number(cap.toFixed(2)), what };
  }
  let targets = 0;
  for (const b of root.querySelectorAll("button")) {
    if (!shown(b)) continue;
    targets++;
    if (!sizes) continue;
    const r = b.getBoundingClientRect();
    if (r.width * mm < %(target)s || r.height * mm < %(target)s)
      problems.push(`target under 15 mm: ${name(b)} ${(r.width * mm).toFixed(1)} x ${(r.height * mm).toFixed(1)} mm`);
  }
  return { problems, targets, farCount, smallest };
}
""" % {"far": MIN_FAR_TEXT_MM, "text": MIN_TEXT_MM, "target": MIN_TARGET_MM}

# The visible strings of the page (the paper excepted: the PDP-1 types English, as in 1960), by place.
_STRINGS = r"""
() => {
  const out = {};
  const root = document.querySelector(".overlay:not([hidden])") || document.getElementById("kiosk");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const path = (el) => { const parts = []; for (; el && el !== document.body; el = el.parentElement)
    parts.unshift(el.id ? "#" + el.id : `${el.tagName.toLowerCase()}[${[...el.parentElement.children].indexOf(el)}]`);
    return parts.join(">"); };
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement, text = n.textContent.trim();
    if (!text || el.closest("#paper, #languages")) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (!r.width || !r.height || cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    out[path(el)] = text;
  }
  return out;
}
"""


# Every visible button's label (and a link drawn as one) inside its button with ``spare`` pixels on each side: its
# edge is its border box less its border and any ring drawn inside it (an inset box shadow).
_LABELS = r"""
(spare) => {
  const problems = [];
  for (const b of document.querySelectorAll("button, a.big")) {
    const r = b.getBoundingClientRect(), cs = getComputedStyle(b);
    if (!r.width || !r.height || cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    if (!b.textContent.trim()) continue;
    let ring = 0;
    for (const shadow of cs.boxShadow.split(/,(?![^(]*\))/).filter((s) => s.includes("inset"))) {
      const lengths = shadow.match(/-?[\d.]+px/g) || [];
      ring = Math.max(ring, parseFloat(lengths[3] || "0") + Math.max(Math.abs(parseFloat(lengths[0] || "0")),
        Math.abs(parseFloat(lengths[1] || "0"))));
    }
    const range = document.createRange();
    range.selectNodeContents(b);
    const t = range.getBoundingClientRect();
    const room = { left: t.left - r.left - parseFloat(cs.borderLeftWidth) - ring,
      right: r.right - parseFloat(cs.borderRightWidth) - ring - t.right,
      top: t.top - r.top - parseFloat(cs.borderTopWidth) - ring,
      bottom: r.bottom - parseFloat(cs.borderBottomWidth) - ring - t.bottom };
    const tight = Object.entries(room).filter(([, px]) => px < spare);
    const name = b.dataset.action || b.dataset.lang || b.dataset.choice || b.id || b.className;
    if (tight.length)
      problems.push(`label at its button's edge: ${name} "${b.textContent.trim().slice(0, 30)}" `
        + tight.map(([side, px]) => `${side} ${px.toFixed(1)} px`).join(", "));
  }
  return problems;
}
"""


def layout_problems(page, screen: Screen) -> dict:
    return page.evaluate(_LAYOUT, screen.mm_per_px)


def layout_report(page, mm_per_px: float, *, sizes: bool = True, scrolls: bool = False,
                  covered: bool = False) -> dict:
    """The layout checks with options: ``sizes`` False leaves text and target sizes unchecked, ``scrolls`` True
    lets the page scroll down (text below the screen is not off it), ``covered`` True finds text under another box."""
    return page.evaluate(_LAYOUT, {"mm": mm_per_px, "sizes": sizes, "scrolls": scrolls, "covered": covered})


def label_problems(page, spare: float = 2.0) -> list[str]:
    """Visible buttons whose label comes nearer than ``spare`` pixels to the button's edge."""
    return page.evaluate(_LABELS, spare)


def assert_layout(page, screen: Screen, state: str) -> dict:
    """Every check above on what the visitor sees now; returns the report (``smallest``: the smallest capital)."""
    report = layout_problems(page, screen)
    assert not report["problems"], f"{screen.name}, {state}: " + "; ".join(report["problems"])
    assert report["targets"] > 0 and report["farCount"] > 0, (screen.name, state, report)
    return report


def visible_strings(page) -> dict[str, str]:
    return page.evaluate(_STRINGS)


def box(page, selector: str) -> dict:
    return page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return {x: r.x, y: r.y, w: r.width, h: r.height}; }", selector)


def board_box(page) -> dict:
    return box(page, "#board")


ZONES = ("#board", "#paper-roll", "#console", "#messages", "#actions", "#bar")  # none may move or change size


def untranslated(english: dict[str, str], other: dict[str, str], language: str) -> list[str]:
    """Places whose string did not change, or that still show an English message."""
    english_messages = {v for v in catalogue("en").values()} - set(catalogue(language).values())
    wrong = []
    for place, text in other.items():
        if INVARIANT.match(text):
            continue
        if english.get(place) == text:
            wrong.append(f"unchanged at {place}: {text!r}")
        elif text in english_messages:
            wrong.append(f"English at {place}: {text!r}")
        elif text.startswith("[") and text.endswith("]"):
            wrong.append(f"missing message at {place}: {text!r}")
    missing = [p for p in english if p not in other and not INVARIANT.match(english[p])]
    return wrong + [f"gone in {language}: {p}" for p in missing]


# --- what the eye and the zoom need (WCAG 1.4.3, 1.4.4, 1.4.10, 1.4.11, 1.4.12, 2.3.1),
# tests/exhibit/test_page_vision.py

# The size of every visible text in device pixels (its computed size times the screen's device pixels a CSS
# pixel: a zoomed page is a window of fewer CSS pixels, each more device pixels), by its place on the page.
SIZES = r"""
() => {
  const out = {};
  const root = document.querySelector(".overlay:not([hidden])") || document.getElementById("kiosk");
  const path = (el) => { const parts = []; for (; el && el !== document.body; el = el.parentElement)
    parts.unshift(el.id ? "#" + el.id : `${el.tagName.toLowerCase()}[${[...el.parentElement.children].indexOf(el)}]`);
    return parts.join(">"); };
  for (const el of root.querySelectorAll("*")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (!r.width || !r.height || cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    out[path(el)] = parseFloat(cs.fontSize) * devicePixelRatio;
  }
  return out;
}
"""

# WCAG 1.4.12's text spacing, as a visitor's own style sheet sets it
TEXT_SPACING = """* { line-height: 1.5 !important; letter-spacing: .12em !important; word-spacing: .16em !important; }
p { margin-bottom: 2em !important; }"""

# Every change of an element's classes (its look), as the page settles after each task: time, the classes that
# changed, whether it is a console lamp.  Run before the page's own scripts (an init script).
WATCH_FLASHES = r"""
window.visionChanges = [];
(() => {
  const seen = new WeakMap(), ids = new WeakMap();
  let next = 0;
  new MutationObserver((records) => {
    const now = performance.now();
    for (const el of new Set(records.map((r) => r.target))) {
      const before = seen.has(el) ? seen.get(el) : (records.find((r) => r.target === el).oldValue || "");
      const was = before.split(/\s+/).filter(Boolean), is = [...el.classList];
      seen.set(el, el.className.baseVal ?? el.className);
      const changed = [...was.filter((c) => !is.includes(c)), ...is.filter((c) => !was.includes(c))];
      if (!changed.length) continue;
      if (!ids.has(el)) ids.set(el, ++next);
      window.visionChanges.push({ id: ids.get(el), t: now, classes: changed.join(" "),
        lamp: el.classList.contains("lamp"), what: el.id || el.dataset.pit || el.className });
    }
  }).observe(document, { attributes: true, attributeFilter: ["class"], attributeOldValue: true, subtree: true });
})();
"""

# What WATCH_FLASHES saw: elements whose look changed seven times (more than three flashes) within a second, the
# console's lamps left out and their whole area given instead; animations repeating more than three times a second.
FLASHES = r"""
() => {
  const changes = window.visionChanges.filter((c) => !c.lamp), byId = {};
  for (const c of changes) (byId[c.id] ||= []).push(c);
  const fast = [];
  for (const list of Object.values(byId))
    for (let i = 0; i + 6 < list.length; i++)
      if (list[i + 6].t - list[i].t < 1000) {
        fast.push(list.slice(i, i + 7).map((c) => `${c.what}: ${c.classes} at ${Math.round(c.t)}`));
        break;
      }
  const animations = document.getAnimations().map((a) => a.effect.getComputedTiming())
    .filter((t) => t.iterations > 1 && t.duration < 1000 / 3).map((t) => t.duration);
  let lampArea = 0;
  for (const lamp of document.querySelectorAll("#console .lamp")) {
    const r = lamp.getBoundingClientRect();
    lampArea += r.width * r.height;
  }
  return { changes: changes.length, fast, animations, lampArea };
}
"""

# Contrast, from the page's computed colours and WCAG's relative luminance: every visible text against what it sits
# on (its ancestors' backgrounds laid one over another, translucent ones blended; an SVG text against the shape
# under it), 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold); the board's marks 3:1: each pit and store
# against the board, a legal pit's ring and the last move's outline against the board, the PDP-1's pits' ring
# against its hole.  Only what the visitor sees: an open card hides the page beneath it.
CONTRAST = r"""
() => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]*)\)/);
    if (!m) return null;
    const v = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, under) => top[3] >= 1 ? top
    : [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const background = (el) => {
    const chain = [];
    for (let a = el; a; a = a.parentElement) chain.unshift(a);
    let bg = [255, 255, 255, 1];
    for (const a of chain) {
      const c = parse(getComputedStyle(a).backgroundColor);
      if (c && c[3] > 0) bg = over(c, bg);
    }
    return bg;
  };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const shown = (el) => { const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && Number(cs.opacity) > 0; };
  const name = (el) => el.id ? "#" + el.id : `${el.tagName.toLowerCase()}.${el.getAttribute("class")} in ${
    el.parentElement.id || el.parentElement.getAttribute("class")}`;
  // an SVG text sits on the topmost filled shape of its drawing under its middle
  const svgBackground = (el) => {
    const r = el.getBoundingClientRect();
    for (const a of document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2)) {
      if (a === el || !(a instanceof SVGGeometryElement) || !el.ownerSVGElement.contains(a)) continue;
      const fill = parse(getComputedStyle(a).fill);
      if (fill && fill[3] > 0) return over(fill, background(el.ownerSVGElement));
    }
    return background(el.ownerSVGElement);
  };
  const problems = [];
  let texts = 0, marks = 0;
  const root = document.querySelector(".overlay:not([hidden])") || document.getElementById("kiosk");
  for (const el of root.querySelectorAll("*")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) || !shown(el)) continue;
    const cs = getComputedStyle(el), svg = el instanceof SVGElement;
    const bg = svg ? svgBackground(el) : background(el);
    const fg = over(parse(svg ? cs.fill : cs.color), bg);
    const size = parseFloat(cs.fontSize) * (svg ? el.getScreenCTM().a : 1);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const need = large ? 3 : 4.5, got = ratio(fg, bg);
    texts++;
    if (got < need)
      problems.push(`text ${name(el)} "${el.textContent.trim().slice(0, 20)}" ${got.toFixed(2)}:1, under ${need}:1`);
  }
  const mark = (what, a, b) => { marks++; const got = ratio(a, b);
    if (got < 3) problems.push(`${what} ${got.toFixed(2)}:1, under 3:1`); };
  const board = document.getElementById("board");
  if (root.id === "kiosk" && shown(board)) {
    const panel = background(board);
    for (const el of board.querySelectorAll(".pit, .store")) {
      if (!shown(el)) continue;
      const cs = getComputedStyle(el), fill = over(parse(cs.backgroundColor), panel);
      mark(`${name(el)} against the board`, fill, panel);
      const ring = parse(cs.boxShadow);  // the first shadow: a legal pit's ring, the PDP-1's pits' inner ring
      if (el.matches(".pit.legal")) mark(`the legal ring of ${name(el)} against the board`, over(ring, panel), panel);
      else if (el.matches('.pit[data-side="pdp-1"]:not(.sown, .captured)'))
        mark(`the ring of ${name(el)} against its hole`, over(ring, fill), fill);
      if (el.matches(".last"))
        mark(`the last move's outline on ${name(el)}`, over(parse(cs.outlineColor), panel), panel);
    }
  }
  return { problems, texts, marks };
}
"""


def look_through(page, mm_per_px: float, every_screenful: bool = True, sizes: bool = False) -> list[str]:
    """The layout checks, text under another box included, at each screenful down a page that scrolls (or only its
    top); the page that cannot scroll must hold everything on its screen.  Without sizes (a zoomed page is not the
    kiosk's) unless ``sizes``.  Problems, each once."""
    scrolls = page.evaluate("['auto', 'scroll'].includes(getComputedStyle(document.documentElement).overflowY)")
    height, screen = page.evaluate("[document.documentElement.scrollHeight, innerHeight]")
    problems: list[str] = []
    for top in range(0, height, screen) if scrolls and every_screenful else [0]:
        page.evaluate(f"window.scrollTo(0, {top})")
        problems += layout_report(page, mm_per_px, sizes=sizes, scrolls=scrolls, covered=True)["problems"]
    page.evaluate("window.scrollTo(0, 0)")
    return sorted(set(problems))
