"""What the kiosk page must be on every screen, measured in a real Chromium: nothing cut off or
scrolling, no touch target under 15 mm, text read from 1.5 m at least 5 mm tall (capital letters),
every other text a visitor reads (the paper, the console, the choices, the cards) at least 3 mm,
and every visible string in the chosen language.  Used by tests/kiosk/test_browser.py and
tests/kiosk/test_page_states.py.

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

CATALOGUES = ROOT / "python_bridge" / "kiosk" / "static" / "i18n"
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


# Everything is checked on what the visitor can see: an open card hides the page beneath it.
_LAYOUT = r"""
(mm) => {
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight, de = document.documentElement;
  if (de.scrollWidth > vw || de.scrollHeight > vh)
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
    if (t.left < -0.5 || t.right > vw + 0.5 || (!rolling && (t.top < -0.5 || t.bottom > vh + 0.5)))
      problems.push(`off the screen: ${name(el)} "${text.slice(0, 30)}"`);
    for (let a = el; a && a !== document.body; a = a.parentElement) {  // the element itself may clip its text
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const r = a.getBoundingClientRect();
      const across = t.left < r.left - 0.5 || t.right > r.right + 0.5;
      if (across || (!rolling && (t.top < r.top - 0.5 || t.bottom > r.bottom + 0.5)))
        problems.push(`cut off: ${name(el)} "${text.slice(0, 30)}" by ${name(a)}`);
      break;
    }
    const cs = getComputedStyle(el);
    // the font's capital height measured at 100 px (a small size's glyph box is rounded to whole pixels)
    canvas.font = `${cs.fontStyle} ${cs.fontWeight} 100px ${cs.fontFamily}`;
    const scale = el instanceof SVGElement ? el.getScreenCTM().a : 1;
    const cap = canvas.measureText("H").actualBoundingBoxAscent / 100 * parseFloat(cs.fontSize) * scale * mm;
    const what = `${name(el)} "${text.slice(0, 30)}"`;
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


def layout_problems(page, screen: Screen) -> dict:
    return page.evaluate(_LAYOUT, screen.mm_per_px)


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
