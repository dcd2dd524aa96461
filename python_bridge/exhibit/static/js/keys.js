// The keyboard, for a visitor who plays without touching the screen: online, and at the kiosk (a keyboard or a
// switch plugged in). Tab reaches the bar, the board and the game's buttons; the visitor's row of pits is one
// stop in the Tab order (a roving focus, which waits on the first pit that can be played) and the arrow keys,
// Home and End move along it; Enter or Space plays the pit in focus, as a touch does (each pit is a <button>:
// its click is the touch, one move a press); keys 1-6 play the pits from the visitor's left, s swaps under the
// pie rule. Nothing behind an open card takes a key (dialogs.js keeps Tab within the card, Escape closes it).
// At the kiosk the page takes no other key: no browser shortcut (reload, back, zoom) a visitor could break it with.

import { openCard } from "./cards.js";

const $ = (id) => document.getElementById(id);
const ALONG = ["ArrowLeft", "ArrowRight", "Home", "End"];
// the keys the page uses, which the kiosk leaves to the browser: a button's activation, the focus's moves
const OWN = new Set(["Tab", "Enter", " ", "Escape", ...ALONG]);
let hooks = { play: () => {}, swap: () => {}, swapOffered: () => false, active: () => {}, kiosk: true };

const row = () => [...$("bottom-row").children];

// one pit of the visitor's row in the Tab order: the one in focus, else the first that can be played, else the one
// that was, else the first; the PDP-1's pits are read by a screen reader but are never a stop (never the visitor's)
function rove() {
  for (const p of $("top-row").children) p.tabIndex = -1;
  const pits = row();
  const keep = pits.find((p) => p === document.activeElement) || pits.find((p) => p.dataset.legal === "yes")
    || pits.find((p) => p.tabIndex === 0) || pits[0];
  pits.forEach((p) => { p.tabIndex = p === keep ? 0 : -1; });
}

// an arrow key, Home or End on the visitor's row: the focus to the pit beside (or at the end), none past the ends
function along(e) {
  const pits = row();
  const at = pits.indexOf(e.target);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: pits.length - 1 }[e.key];
  e.preventDefault();
  if (to < 0 || to >= pits.length) return;
  pits[to].focus();
  rove();
}

function onKey(e) {
  if (e.ctrlKey || e.altKey || e.metaKey) { if (hooks.kiosk) e.preventDefault(); return; }  // online: the browser's
  hooks.active();
  if (openCard()) { if (hooks.kiosk && !OWN.has(e.key)) e.preventDefault(); return; }  // the card's keys alone
  if (/^[1-6]$/.test(e.key)) { e.preventDefault(); hooks.play(Number(e.key)); }
  else if ((e.key === "s" || e.key === "S") && hooks.swapOffered()) { e.preventDefault(); hooks.swap(); }
  else if (ALONG.includes(e.key) && e.target instanceof Element && e.target.closest("#bottom-row")) along(e);
  else if (hooks.kiosk && !OWN.has(e.key)) e.preventDefault();
}

// ``play(pit)``: the visitor's pit; ``swap()``, ``swapOffered()``: the pie rule's swap; ``active()``: a key was
// pressed (someone is there); ``kiosk``: true at the kiosk, where no key but the page's own reaches the browser
export function init(given) {
  hooks = { ...hooks, ...given };
  document.addEventListener("keydown", onKey);
  const rebuilt = new MutationObserver(rove);  // a new game's rows
  for (const id of ["top-row", "bottom-row"]) rebuilt.observe($(id), { childList: true });
  new MutationObserver(rove).observe($("bottom-row"), { subtree: true, attributes: true, attributeFilter: ["data-legal"] });
  rove();
}
