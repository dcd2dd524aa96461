// What a screen reader hears: one polite live region (#announce, visually hidden), and only this module
// writes to it. Each event is said once, in the page's language: a move and what it did (a capture, an
// extra turn), "the PDP-1 is thinking", the visitor's turn, the result, the countdown back to the
// demonstration, the place in line (online), a game a cross-check mismatch stopped and a hint after a touch that
// plays nothing. Why one region:
// two (the flash over the board and the messages below it) changing at once made a screen reader read an
// event twice, or cut one off with the other. Why keys: the server sends its whole state again and again
// (a reconnection's hello, a repeated state, a language switch redraws it all); an event is said only when
// its key (the game's number with the move's number, or the question's turn) has not been said before.
// Sentences that come within moments of each other (a move, then the thinking) are said together.
// On demand (the "Read the board" button, or the key b) the whole board is put into the region as text.

import { current, seeds, t } from "./i18n.js";
import { mismatchText } from "./messages.js";

const GATHER_MS = 250;   // sentences this close together are said as one text
const GATHER_MAX_MS = 1000;  // ... but none waits longer than this
const REFILL_MS = 60;    // the region emptied this long before it takes a text again (the same text is said again)
const $ = (id) => document.getElementById(id);
const ONLINE = () => document.body.dataset.site === "online";

let said = null;       // the events' keys already said (null until the first state: what it shows is not news)
let lastQueue = null;  // online: the place in line already said
let pending = [];      // sentences to say, each a function giving its text in the language at that moment
let gatherTimer = null;
let firstPending = 0;
let refillTimer = null;
let waitingText = "";  // the text the region takes when it has been empty a moment
let spokenIn = null;   // the language of the region's text

// a sentence ends with its stop (the catalogues' texts may end with "!" or "…", or with nothing)
const sentence = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);

function say(words) {
  if (!pending.length) firstPending = Date.now();
  pending.push(words);
  clearTimeout(gatherTimer);
  gatherTimer = setTimeout(() => flush(), Math.max(0, Math.min(GATHER_MS, firstPending + GATHER_MAX_MS - Date.now())));
}

// what is pending said now, with ``more`` (a text) after it
function flush(more = "") {
  clearTimeout(gatherTimer);
  const text = [...pending.map((w) => sentence(w())), more].filter(Boolean).join(" ");
  pending = [];
  if (text) put(text);
}

// emptied first, then filled: a text the same as the one there is still said again (a text not yet put
// goes before the new one, never lost)
function put(text) {
  const region = $("announce");
  clearTimeout(refillTimer);
  const all = [waitingText, text].filter(Boolean).join(" ");
  waitingText = all;
  region.textContent = "";
  refillTimer = setTimeout(() => { waitingText = ""; region.textContent = all; }, REFILL_MS);
}

// a language chosen: nothing is said again; what the region holds goes (it is in the other language)
export function languageChanged() {
  if (current() === spokenIn) return;
  spokenIn = current();
  if (!waitingText) $("announce").textContent = "";  // (a text about to be said is said still)
}

function moveWords(last, who) {
  const w = last.player === "pdp-1" ? "pdp1" : who;
  if (last.swap) return [() => t(`move.swap.${w}`)];
  const words = [() => t(`move.${w}`, { pit: last.pit })];
  if (last.captured) words.push(() => t(`a11y.say.capture.${w}`, { seeds: seeds(last.captured) }));
  if (last.extra_turn) words.push(() => t(`a11y.say.again.${w}`));
  return words;
}

function resultWords(result, who) {
  const winner = result.winner === null ? "result.draw" : result.winner === "pdp-1" ? "result.pdp1" : `result.${who}`;
  return [() => t(winner), () => t(`result.score.${who}`, { a: result.pdp1, b: result.visitor })];
}

// a game a cross-check mismatch stopped: that it stopped, and why
const mismatchWords = (m) => [() => t("status.mismatch"), () => mismatchText(m)];

// the keys of what a state shows: each event's, null where the state shows none
function keys(s) {
  const move = s.last ? s.last.number : 0;
  return {
    mode: s.mode,
    move: s.last ? `${s.game}:${move}` : null,
    thinking: s.phase === "thinking" ? `${s.game}:${move}` : null,
    turn: s.phase === "your_turn" ? `${s.game}:${s.turn}` : null,
    result: s.phase === "game_over" && s.result ? `${s.game}` : null,
    mismatch: s.phase === "mismatch" ? `${s.game}` : null,
    counting: s.countdown !== null && s.countdown !== undefined,
  };
}

// a state from the server; ``who``: the bottom row's player as the page words it ("visitor", "player" or "demo")
export function state(s, who) {
  const now = keys(s);
  const before = said;
  said = { ...(said || {}), mode: now.mode, counting: now.counting };
  if (!before) { said = now; return; }  // the page's first state: what it shows is not news
  if (s.mode === "visitor") lastQueue = null;  // a machine of one's own: a later wait is said again
  if (s.mode === "attract") {  // the demonstration plays itself: one sentence as it begins, then nothing
    if (before.mode !== "attract" && !ONLINE()) say(() => t("a11y.say.demo"));
    return;
  }
  const fresh = (kind) => now[kind] !== null && now[kind] !== before[kind];
  const words = [];
  if (fresh("move")) words.push(...moveWords(s.last, who));
  if (fresh("thinking")) words.push(() => t("a11y.say.thinking"));
  if (fresh("turn") && who !== "demo") {
    words.push(() => t(`a11y.say.turn.${who === "player" ? "player" : "visitor"}`));
    if (s.swap && who === "visitor") words.push(() => t("swap.explain"));
  }
  if (fresh("result")) words.push(...resultWords(s.result, who));
  if (fresh("mismatch")) words.push(...mismatchWords(s.mismatch));
  if (now.counting && !before.counting) words.push(() => t("countdown", { n: s.countdown }), () => t("countdown.touch"));
  for (const kind of ["move", "thinking", "turn", "result", "mismatch"]) if (now[kind] !== null) said[kind] = now[kind];
  words.forEach(say);
}

// online: the place in line ("queue") or the line full ("full"), each place said once however often it comes
export function waiting(msg) {
  const key = msg.type === "full" ? "full" : `queue:${msg.position}`;
  if (key === lastQueue) return;
  lastQueue = key;
  const minutes = Math.max(1, Math.ceil((msg.estimate_s ?? msg.retry_s) / 60));
  say(() => (msg.type === "full" ? t("online.full", { minutes }) : t("online.queue", { position: msg.position, minutes })));
}

// a touch (or a key) that played nothing: its hint, said each time (it answers the visitor's own action)
export function hint(key) { say(() => t(key)); }

// "one moment" (the connection lost, or the PDP-1 being restored): said once each time it shows
let noticeShown = false;
export function notice(shown) {
  if (shown && !noticeShown) say(() => t("notice"));
  noticeShown = shown;
}

// ---- the whole board as text, on demand --------------------------------------------------------
function sideWords(owner, pits, store) {
  const list = pits.map((n, i) => t("a11y.board.pit", { pit: i + 1, seeds: seeds(n) })).join("; ");
  return t(`a11y.board.side.${owner}`, { pits: list, store: seeds(store) });
}

// the board described: whose turn it is (or the result), the PDP-1's pits by its own numbers and its store,
// then the bottom row's pits (1 at the left) and store
export function describe(s, who) {
  const b = s && s.board;
  if (!b || !b.pits) return t("a11y.board.empty");
  const parts = [];
  if (s.phase === "game_over" && s.result) parts.push(...resultWords(s.result, who).map((w) => w()));
  else if (s.phase === "mismatch") parts.push(...mismatchWords(s.mismatch).map((w) => w()));
  else if (b.to_move === "top") parts.push(t("a11y.board.turn.pdp1"));
  else if (b.to_move === "bottom") parts.push(t(`a11y.board.turn.${who}`));
  parts.push(sideWords("pdp1", [...b.top].reverse(), b.top_store), sideWords(who, b.bottom, b.bottom_store));
  return parts.map(sentence).join(" ");
}

// ``current()``: {state, who} now (null before the first state). The button and the key b read the board;
// not while a card is open over the page (nothing behind a card takes a key), nor with a modifier held.
export function init(current) {
  const read = () => { const c = current(); flush(describe(c && c.state, c ? c.who : "visitor")); };
  document.querySelector('[data-action="read-board"]').addEventListener("click", (e) => { e.stopPropagation(); read(); });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "b" && e.key !== "B") return;
    if (e.ctrlKey || e.altKey || e.metaKey || document.querySelector(".overlay:not([hidden])")) return;
    if (e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
    e.preventDefault();
    read();
  });
}
