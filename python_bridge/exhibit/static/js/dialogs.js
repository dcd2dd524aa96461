// The two cards over the page, "How to play" (#rules) and "What is this?" (#about), as modal dialogs: each is
// marked role="dialog" aria-modal="true" and named by its heading in index.html. Opening one moves the focus
// into it, onto its button; while it is open the page behind it is inert (no key, touch or screen reader
// reaches the board or the game's buttons) and Tab goes round the card alone; its button, Escape or a touch on
// its shade closes it, and the focus goes back to where it was, or, that gone (the "play" button a game hides),
// to the visitor's row of pits. The bar stays live above the shade: a visitor who does not read the card's
// language changes it there, card open (a touch, or a key once the card is closed).

const $ = (id) => document.getElementById(id);
const CARDS = ["rules", "about"];
// what a card leaves awake behind it: the bar above its shade, the live regions (still heard), the notice
const AWAKE = "#bar, .overlay, script, [aria-live], [role=status], [role=log], [role=alert]";
const FOCUSABLE = "button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])";

let returnTo = null;  // what had the focus when a card opened
let slept = [];       // what an open card made inert (and only that: an element inert for another reason stays so)

export const openCard = () => CARDS.map($).find((card) => !card.hidden) || null;

// whether the focus can go to ``el`` now: still on the page, shown, not inert, not disabled
function usable(el) {
  return Boolean(el && el.isConnected && el.getClientRects().length && !el.closest("[inert]") && !el.disabled
    && el !== document.body);
}

function sleepBehind() {
  wake();
  const behind = [...document.body.children, ...$("kiosk").children]
    .filter((el) => el.id !== "kiosk" && !el.matches(AWAKE) && !el.inert);
  for (const el of behind) el.inert = true;
  slept = behind;
}

function wake() {
  for (const el of slept) el.inert = false;
  slept = [];
}

// show the card ``id`` (the other closed): the focus on its button
export function show(id) {
  if (!openCard()) returnTo = document.activeElement;
  for (const c of CARDS) $(c).hidden = c !== id;
  window.scrollTo(0, 0);  // a card opens at the top of the page: online, a short window's page scrolls (kiosk.css)
  sleepBehind();
  const first = [...$(id).querySelectorAll(FOCUSABLE)].find(usable);
  (first || $(id)).focus();
}

// close whichever card is open; the focus goes back if it was in the card (or nowhere)
export function close() {
  const card = openCard();
  if (!card) return;
  const active = document.activeElement;
  const hadFocus = !active || active === document.body || card.contains(active);
  for (const c of CARDS) $(c).hidden = true;
  wake();
  if (hadFocus) giveBack();
  returnTo = null;
}

function giveBack() {
  const row = document.querySelector('#bottom-row .pit[tabindex="0"]') || document.querySelector("#bottom-row .pit");
  const target = [returnTo, row, document.querySelector('[data-action="rules"]')].find(usable);
  if (target) target.focus();
}

// Tab and Shift+Tab go round the open card's controls; from outside it (the bar) they come into it
function trap(e, card) {
  const items = [...card.querySelectorAll(FOCUSABLE)].filter(usable);
  if (!items.length) { e.preventDefault(); return; }
  const at = items.indexOf(document.activeElement);
  const last = items.length - 1;
  const next = at === -1 ? items[e.shiftKey ? last : 0]
    : e.shiftKey && at === 0 ? items[last] : !e.shiftKey && at === last ? items[0] : null;
  if (next) { e.preventDefault(); next.focus(); }
}

// a card's keys, before the page's own (keys.js): Escape closes it, Tab stays within it
export function init() {
  document.addEventListener("keydown", (e) => {
    const card = openCard();
    if (!card || e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key === "Escape") { e.preventDefault(); close(); }
    else if (e.key === "Tab") trap(e, card);
  }, true);
  // a touch outside a card's box (on its shade) closes it
  for (const id of CARDS) $(id).addEventListener("click", (e) => { if (e.target.id === id) close(); });
}
