// The two cards over the page, "How to play" and "What is this?", and the rules card's four pictures,
// drawn from static/rules.json: positions of a real quick game (checked against the reference by
// tests/kiosk/test_rules_pictures.py), each with arrows for what the visitor's move does. An SVG of its own
// for each: the PDP-1's store at the left, its pits on top (its pit 4 at the left), the visitor's pits
// below and the visitor's store at the right, as on the board.

import * as dialogs from "./dialogs.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const MINI = { pitX: (col) => 57 + 34 * col, top: 34, bottom: 70, r: 15, storeLeft: 21, storeRight: 195 };

// the cards are modal dialogs (dialogs.js): the focus goes into one as it opens, and back as it closes
export const showRules = () => dialogs.show("rules");
export const showAbout = () => dialogs.show("about");
export const closeCards = dialogs.close;
export const openCard = dialogs.openCard;
// Escape, Tab kept within an open card, and a touch on a card's shade, which closes it; and the cards' room under
// the bar, which stays above them: where the bar ends (lower when its words need more room: a language's longer
// names, a visitor's own text spacing), kept in --bar-end for kiosk.css
export function init() {
  dialogs.init();
  const bar = $("bar"), root = document.documentElement;
  new ResizeObserver(() => root.style.setProperty("--bar-end", `${bar.getBoundingClientRect().bottom + scrollY}px`))
    .observe(bar);
}

export async function loadRulePictures() {
  drawRulePictures(await fetch(new URL("../rules.json", import.meta.url)).then((r) => r.json()));
}

function svgElement(name, attributes, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function miniCell(name, m) {  // b1..bm, t1..tm (the PDP-1's own numbers), sb, st -> {x, y, row}
  if (name === "sb") return { x: MINI.storeRight, y: 52, row: "store" };
  if (name === "st") return { x: MINI.storeLeft, y: 52, row: "store" };
  const k = Number(name.slice(1));
  return name[0] === "b" ? { x: MINI.pitX(k - 1), y: MINI.bottom, row: "bottom" }
    : { x: MINI.pitX(m - k), y: MINI.top, row: "top" };
}

function miniArrow(from, to, m, id) {
  const a = miniCell(from, m), b = miniCell(to, m);
  const above = a.row === "top";  // the PDP-1's seeds travel over the top, the visitor's under the bottom
  const start = { x: a.x, y: above ? a.y - MINI.r - 1 : a.y + MINI.r + 1 };
  const end = b.row === "store" ? { x: b.x, y: above ? 14 : 90 }
    : { x: b.x, y: above ? b.y - MINI.r - 3 : b.y + MINI.r + 3 };
  const bend = above ? -10 : 114;
  return svgElement("path", { d: `M${start.x} ${start.y} Q${(start.x + end.x) / 2} ${bend} ${end.x} ${end.y}`,
    class: "arrow", "marker-end": `url(#${id})`, "data-from": from, "data-to": to });
}

function drawRulePictures(rules) {
  const m = rules.pits;
  for (const p of rules.pictures) {
    const svg = document.querySelector(`.pictures figure[data-rule="${p.rule}"] svg`);
    const id = `arrowhead-${p.rule}`;
    svg.setAttribute("viewBox", "0 0 216 104");
    const parts = [svgElement("defs", {})];
    parts[0].append(svgElement("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse" }));
    parts[0].firstChild.append(svgElement("path", { d: "M0 0 L10 5 L0 10 Z", class: "arrowhead" }));
    parts.push(svgElement("rect", { x: 2, y: 16, width: 212, height: 72, rx: 10, class: "mini-board" }));
    const marked = new Set(p.arrows.map(([from]) => from));
    const cells = [["st", p.top_store], ["sb", p.bottom_store]];
    p.top.forEach((n, col) => cells.push([`t${m - col}`, n]));
    p.bottom.forEach((n, col) => cells.push([`b${col + 1}`, n]));
    for (const [name, n] of cells) {
      const c = miniCell(name, m);
      const cls = `hole${name === `b${p.pit}` ? " played" : marked.has(name) ? " moved" : ""}`;
      parts.push(c.row === "store"
        ? svgElement("rect", { x: c.x - 14, y: 20, width: 28, height: 64, rx: 12, class: cls, "data-cell": name })
        : svgElement("circle", { cx: c.x, cy: c.y, r: MINI.r, class: cls, "data-cell": name }));
      parts.push(svgElement("text", { x: c.x, y: c.y, class: "seeds", "data-cell": name }, String(n)));
    }
    for (const [from, to] of p.arrows) parts.push(miniArrow(from, to, m, id));
    svg.replaceChildren(...parts);
  }
}

// where a visitor reports an accessibility problem, as the museum set it (accessibility_contact): a link on
// "What is this?", shown only when set
export function showContact(contact) {
  const link = $("contact-link");
  if (!contact || link.getAttribute("href") === contact) { $("about-contact").hidden = !contact; return; }
  link.setAttribute("href", contact);
  link.textContent = contact.replace(/^mailto:/, "");
  $("about-contact").hidden = false;
}
