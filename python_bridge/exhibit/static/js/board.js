// The board: the pits and stores drawn as the server sends them, and each move's sowing shown seed by
// seed along the path the server sends with it (the reference's sowing: the page holds no rules). A
// visitor's own move is sown at the touch, along the path the board came with, and the page then
// settles on the board the server sends after it.

import { seeds, t } from "./i18n.js";
import * as sound from "./sound.js";

const SOW_STEP_MS = 140;  // one seed into the next pit
const CAPTURE_MS = 700;   // a capture stays marked this long before the board settles
const FLASH_MS = 1200;
// a visitor who asks for less motion (prefers-reduced-motion, asked at each move: it may change meanwhile)
// sees each move's final board at once: no seed by seed, no marked capture, no flash (#detail says it all)
const still = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const $ = (id) => document.getElementById(id);

let shown = null;  // the board as drawn now: {top: [...], bottom: [...], top_store, bottom_store}
const queue = [];  // moves to show, each {row, col, path, target (board or null), last (or null)}
let anim = null;   // the move being shown
let moveStarts = 0;  // sowings begun on this page (body[data-move-starts]: the browser tests watch it)
let flashing = null;  // the flash over the board: [message key, its params], null when none shows
let flashTimer = null;
let handlers = { touched: () => {}, settled: () => {}, shown: () => {} };

// ``touched(side, pit)`` for a touch on a pit; ``settled()`` when the last animation is over; ``shown()`` when a
// move begins to be shown, or the server's word on the one shown comes (the page's words follow the board)
export function init(given) { handlers = given; }

export const drawn = () => shown && { ...shown, top: [...shown.top], bottom: [...shown.bottom] };
export const movesStarted = () => moveStarts;
export const animating = () => anim !== null;
// the move being shown now: its ``last`` (the server's word on it, or the page's own for the visitor's move until
// the server confirms it) and whether it is sown and ``waiting`` for that word; null when the board is still
export const showing = () => anim && { last: anim.last, waiting: Boolean(anim.waiting) };

function pitButton(side, pit) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "pit";
  b.dataset.side = side;
  b.dataset.pit = pit;
  b.innerHTML = '<span class="count"></span>';
  b.addEventListener("click", (e) => { e.stopPropagation(); handlers.touched(side, pit); });
  return b;
}

function build(m) {
  const board = $("board");
  if (Number(board.dataset.pits) === m) return;
  board.dataset.pits = m;
  board.style.setProperty("--pits", Math.max(m, 1));
  const topPits = [], bottomPits = [];
  for (let col = 0; col < m; col++) { topPits.push(m - col); bottomPits.push(col + 1); }
  $("top-row").replaceChildren(...topPits.map((p) => pitButton("pdp-1", p)));
  $("bottom-row").replaceChildren(...bottomPits.map((p) => pitButton("visitor", p)));
  const numbers = (pits) => pits.map((p) => { const s = document.createElement("span"); s.textContent = p; return s; });
  $("top-numbers").replaceChildren(...numbers(topPits));
  $("bottom-numbers").replaceChildren(...numbers(bottomPits));
}

export function show(b) {
  shown = { top: [...b.top], bottom: [...b.bottom], top_store: b.top_store, bottom_store: b.bottom_store };
  build(b.top.length);
  name();
}

// the bottom row's owner, as a screen reader names it: the visitor, or the demonstration player
const bottomOwner = () => (document.body.dataset.mode === "attract" ? "demo" : "visitor");

// a pit or store named for a screen reader, in the page's language: its owner, its number, its seeds ("Your pit 3:
// 4 seeds"), the seeds it shows now
function label(row, col) {
  const owner = row.startsWith("top") ? "pdp1" : bottomOwner();
  const what = { seeds: seeds(count(row, col)) };
  if (row.endsWith("store")) return t(`a11y.store.${owner}`, what);
  return t(`a11y.pit.${owner}`, { ...what, pit: cell(row, col).dataset.pit });
}

// a cell's seeds drawn, and its name with them: a name that counts other seeds than the pit shows (a seed
// sown since) is one a screen reader reads against the screen, and one a voice command by the number on
// show misses (WCAG 2.5.3, label in name)
function draw(row, col) {
  const el = cell(row, col);
  el.querySelector(".count").textContent = count(row, col);
  el.setAttribute("aria-label", label(row, col));
}

// every pit and store drawn and named (again: a language chosen, the mode changed); the PDP-1's pits are never
// the visitor's to play
export function name() {
  if (!shown) return;
  shown.top.forEach((_, i) => { draw("top", i); cell("top", i).setAttribute("aria-disabled", "true"); });
  shown.bottom.forEach((_, i) => draw("bottom", i));
  draw("top-store", 0);
  draw("bottom-store", 0);
}

export function cell(row, col) {
  if (row === "top-store") return $("top-store");
  if (row === "bottom-store") return $("bottom-store");
  return $(row === "top" ? "top-row" : "bottom-row").children[col];
}

function count(row, col) {
  if (row === "top-store") return shown.top_store;
  if (row === "bottom-store") return shown.bottom_store;
  return (row === "top" ? shown.top : shown.bottom)[col];
}

function addSeed(row, col) {
  if (row === "top-store") shown.top_store++;
  else if (row === "bottom-store") shown.bottom_store++;
  else (row === "top" ? shown.top : shown.bottom)[col]++;
}

export function stopSowing() {
  queue.length = 0;
  if (anim) clearTimeout(anim.timer);
  anim = null;
  document.body.dataset.sowing = "no";
  document.querySelectorAll(".sown, .captured").forEach((e) => e.classList.remove("sown", "captured"));
  unflash();
}

// show a move: from (row, col) along ``path``; ``target``, the board after it (null for the visitor's own
// move until the server confirms it), ``last``, the server's word on it (its capture, its extra turn)
export function enqueue(row, col, path, target, last) {
  queue.push({ row, col, path: path || [], target, last });
  if (!anim) next();
}

// the server confirmed the visitor's own move being sown: true when it was the one in flight
export function confirmOwn(target, last) {
  if (!anim || anim.target || last.row !== "bottom") return false;
  anim.target = target;
  anim.last = last;
  const item = anim;
  handlers.shown();
  if (item.waiting) finish(item, item.waiting === true ? null : item.waiting);
  return true;
}

// a newer board for the move waiting to be shown: true when there was one
export function retarget(board) {
  if (!queue.length) return false;
  queue[queue.length - 1].target = board;
  return true;
}

function next() {
  const item = queue.shift();
  document.body.dataset.sowing = item ? "yes" : "no";
  if (!item) { anim = null; handlers.settled(); return; }
  anim = item;
  unflash();  // a flash belongs to the move before: it goes when the next move is sown
  document.body.dataset.moveStarts = ++moveStarts;
  handlers.shown();
  if (anim !== item) return;  // (replaced meanwhile)
  if (item.row === null || !count(item.row, item.col)) { finish(item); return; }  // a swap: no seeds move
  (item.row === "top" ? shown.top : shown.bottom)[item.col] = 0;
  draw(item.row, item.col);
  if (still()) {  // every seed in its pit at once
    for (const [r, c] of item.path) addSeed(r, c);
    show(shown);
    finish(item, item.path[item.path.length - 1]);
    return;
  }
  let i = 0;
  const step = () => {
    if (anim !== item) return;  // replaced meanwhile (a new game, a reconnection, a refused move)
    document.querySelectorAll(".sown").forEach((e) => e.classList.remove("sown"));
    if (i >= item.path.length) { finish(item, item.path[item.path.length - 1]); return; }
    const [r, c] = item.path[i++];
    addSeed(r, c);
    draw(r, c);
    cell(r, c).classList.add("sown");
    sound.seed();
    item.timer = setTimeout(step, SOW_STEP_MS);
  };
  item.timer = setTimeout(step, SOW_STEP_MS);
}

function finish(item, landing) {
  if (anim !== item) return;
  if (!item.target) { item.waiting = landing || true; handlers.shown(); return; }  // the visitor's own, unconfirmed
  const last = item.last;
  if (last && last.captured && landing && !still()) {
    const [r, c] = landing;
    const opposite = r === "bottom" ? cell("top", c) : r === "top" ? cell("bottom", c) : null;
    cell(r, c).classList.add("captured");
    if (opposite) opposite.classList.add("captured");
    flash("flash.capture", { n: last.captured });
    setTimeout(() => {
      document.querySelectorAll(".captured").forEach((e) => e.classList.remove("captured"));
      if (anim !== item) return;
      show(item.target);
      next();
    }, CAPTURE_MS);
    return;
  }
  if (last && last.extra_turn) flash("flash.again");
  show(item.target);
  next();
}

// "Extra turn!" or "Capture! +n" over the board: shown when its move has been sown, gone after a moment or
// as soon as another move is sown (or the board is redrawn), whichever comes first
export function flash(key, params = {}) {
  if (still()) return;
  const f = $("flash");
  flashing = [key, params];
  f.textContent = t(key, params);
  f.classList.add("show");
  clearTimeout(flashTimer);
  flashTimer = setTimeout(unflash, FLASH_MS);
}

export function unflash() {
  clearTimeout(flashTimer);
  flashing = null;
  $("flash").classList.remove("show");
}

// a language chosen while a flash shows: it says it again in that language
export function reword() {
  if (flashing) $("flash").textContent = t(...flashing);
  name();
}

// the last move's pit marked: the one being sown while a move is shown (the server's ``last`` may be moves ahead)
export function markLast(last) {
  document.querySelectorAll(".last").forEach((e) => e.classList.remove("last"));
  const move = anim ? anim.last : last;
  if (move && move.row) {
    const b = cell(move.row, move.col);
    if (b) b.classList.add("last");
  }
}
