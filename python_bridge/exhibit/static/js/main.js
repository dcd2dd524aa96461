// The kiosk page: draws what the server sends and sends the visitor's touches. The game itself is decided
// by the server (and the PDP-1): the page only shows a touched pit's seeds being sown at once, along the
// path the server sent, before the PDP-1 confirms, and then always settles on the board the server sent.
// After a reload or a dropped connection the server's "hello" redraws everything. This module holds the
// game as the page knows it (the server's last state) and wires the others: connection, board, paper,
// i18n, console, cards and sound, each of which keeps its own.

import * as board from "./board.js";
import * as cards from "./cards.js";
import * as announce from "./announce.js";
import { openConnection } from "./connection.js";
import * as consoleLights from "./console.js";
import * as i18n from "./i18n.js";
import * as keys from "./keys.js";
import * as messages from "./messages.js";
import * as paper from "./paper.js";
import * as sound from "./sound.js";

const $ = (id) => document.getElementById(id);
const t = i18n.t;
const HINT_MS = 2200;
const DOUBLE_TAP_MS = 600;  // a second touch this soon after a move is the same touch
const TOUCH_EVERY_MS = 1000;  // "still here" goes to the server at most this often
// A visitor trying the languages one after another: the one chosen is said to the server once they stop (each
// said at once spent the messages the server allows a page a second, and the move tapped next was refused)
const SAY_LANGUAGE_MS = 600;
// The kiosk's own browser opens /?control=TOKEN: the token, passed to the WebSocket, makes this page control the game
const CONTROL = new URLSearchParams(location.search).get("control");
// Online (the server marks the page data-site="online") every visitor has a game of their own, by ID: kept in
// this tab's sessionStorage, so that a reload or a dropped connection comes back to the same game.
const ONLINE = document.body.dataset.site === "online";
// The browser edition (make web): the PDP-1 runs in this page's own Worker; each game's record is a file made here
const BROWSER = document.body.dataset.edition === "browser";
const GAME_KEY = "kalah-game";
function query() {
  if (CONTROL) return `?control=${encodeURIComponent(CONTROL)}`;
  const game = ONLINE ? sessionStorage.getItem(GAME_KEY) : null;
  const server = sentTo ? `&server=${encodeURIComponent(sentTo.server)}` : "";
  return game ? `?game=${encodeURIComponent(game)}${server}` : "";
}
// online, past one host: a full server sends a page that asks to play to another with room ("elsewhere");
// the page goes there (the load balancer routes ?server=) and asks again, with the same choices
let sentTo = null;

let state = null;          // the server's last state
let defaultLanguage = "en";
let moveSent = false;      // a move was sent and the server has not moved on yet: further taps wait
let moveSentAt = 0;
let lastTouchSent = 0;
let hintTimer = null;
let languageTimer = null;  // a language chosen and not yet said to the server
let rulesShownForVisit = false;
let connection = null;
let waiting = null;        // online: the "queue" or "full" message on show while no machine is ours
// online: the move sent for a question not yet seen answered; a server lost before it kept the move asks the
// same question again (the same turn) on another server, and the move is sent again, once a connection
let unanswered = null;
let resent = false;

// (a language chosen and not said yet is said first: the server keeps the order the visitor chose in)
const send = (message) => { if (languageTimer !== null) sayLanguage(); if (connection) connection.send(message); };
const watching = () => document.body.dataset.control === "no";

function setLanguage(lang) {
  if (!i18n.choose(lang)) return;
  clearTimeout(languageTimer);  // (kept with an online game's record: the curators count games by language)
  languageTimer = setTimeout(sayLanguage, SAY_LANGUAGE_MS);
  announce.languageChanged();  // (nothing is said again in the new language)
  buildChoices();
  consoleLights.fit();
  if (state) { drawTexts(); drawNames(); }
  consoleLights.drawStatus(phase());
  board.reword();
}

const phase = () => (state ? state.phase : "starting");
function sayLanguage() {
  clearTimeout(languageTimer);
  languageTimer = null;
  if (connection && document.body.dataset.control === "yes") connection.send({ type: "language", language: i18n.current() });
}

// whether this page controls the game; a watching page says so and shows nothing to touch
function setControl(controls) {
  document.body.dataset.control = controls ? "yes" : "no";
  if (state) { drawTexts(); drawNames(); drawLegal(); }
}

function sendAnswer(message) {
  // the turn this answers, so a late or doubled touch is refused (kiosk/messages.py)
  if (state && state.turn !== undefined) message.turn = state.turn;
  // (sent again only after a new connection's hello: the same question shown again meanwhile is not a loss)
  if (ONLINE && (message.type === "move" || message.type === "swap")) { unanswered = { ...message }; resent = true; }
  send(message);
}

function playHere(sent) {
  sentTo = null;
  for (const what of ["game", "strength"]) {
    if (sent.choices && sent.choices[what]) send({ type: "choose", [what]: sent.choices[what] });
  }
  send({ type: "play" });
}

function answerAgainIfAskedAgain(s) {
  if (!unanswered) return;
  if (s.phase === "game_over" || s.turn > unanswered.turn) { unanswered = null; return; }
  if (s.phase === "your_turn" && s.turn === unanswered.turn && !resent) { resent = true; send(unanswered); }
}

function receive(msg) {
  switch (msg.type) {
    case "hello":
      if (ONLINE && msg.game) showGame(msg.game);
      waiting = null;
      resent = false;
      if (sentTo) playHere(sentTo);
      paper.replaceSheet(msg.paper);
      board.stopSowing();
      render(msg.state, true);
      if (msg.lights) consoleLights.setLights(msg.lights, phase());
      setControl(msg.control);
      sayLanguage();
      break;
    case "control": setControl(msg.control); break;
    case "state": render(msg, false); if (ONLINE) answerAgainIfAskedAgain(msg); break;
    case "paper": {
      const fresh = paper.addPiece(msg);
      if (fresh === null) connection.drop();  // a gap: reconnect and get the whole sheet
      else if (fresh) sound.typed(fresh);
      break;
    }
    case "lights": consoleLights.setLights(msg, phase()); break;
    case "queue": case "full": waiting = msg; drawTexts(); announce.waiting(msg); break;
    case "record": offerRecord(msg); break;
    case "elsewhere": sentTo = { server: msg.server, choices: state ? state.choices : null }; break;
    case "rejected":
      if (moveSent) { moveSent = false; board.stopSowing(); if (state) board.show(state.board); follow(); }
      break;
  }
}

// ---- the visitor's touches on the board -----------------------------------------------------
function touchPit(side, pit) {
  if (state && state.mode === "attract" && !watching()) { send({ type: "play" }); return; }  // (as a tap anywhere)
  if (!state || state.mode !== "visitor" || watching()) return;
  if (side === "pdp-1") { hint("hint.theirs"); return; }
  if (moveSent || board.animating() || state.phase !== "your_turn") {
    // (a double tap: no hint, no move; a touch while seeds are sown, or after the game, hears what the status says)
    const sowing = board.showing() && !board.showing().waiting;
    const ended = ["game_over", "mismatch"].includes(state.phase) ? `status.${state.phase}` : "hint.thinking";
    if (Date.now() - moveSentAt > DOUBLE_TAP_MS) hint(sowing ? "status.sowing" : ended);
    return;
  }
  const drawn = board.drawn();
  const count = drawn ? drawn.bottom[pit - 1] : 0;
  if (!state.legal.includes(pit)) { hint(count === 0 ? "hint.empty" : "hint.thinking"); return; }
  moveSent = true;
  moveSentAt = Date.now();
  clearHint();
  sendAnswer({ type: "move", pit });
  drawLegal();
  // sown at once, named as the visitor's (what it captures, whether it moves again: the server's word, to come)
  const mine = { row: "bottom", col: pit - 1, player: "visitor", pit, swap: false, captured: 0, extra_turn: false,
    provisional: true };
  board.enqueue("bottom", pit - 1, state.board.paths[String(pit)], null, mine);  // the board follows
}

function clearHint() {
  const d = $("detail");
  clearTimeout(hintTimer);
  delete d.dataset.hint;
  d.classList.remove("hint");
  drawTexts();
}

function hint(key) {
  const d = $("detail");
  d.textContent = t(key);
  d.classList.add("hint");
  d.dataset.hint = key;
  announce.hint(key);
  clearTimeout(hintTimer);
  hintTimer = setTimeout(clearHint, HINT_MS);
}

function drawLegal() {
  const mine = state && state.mode === "visitor" && state.phase === "your_turn" && !moveSent && !board.animating()
    && !watching();
  [...$("bottom-row").children].forEach((b) => {
    const legal = mine && state.legal.includes(Number(b.dataset.pit));
    b.classList.toggle("legal", legal);
    b.dataset.legal = legal ? "yes" : "no";  // not "disabled": a touch on any pit gets an answer (a hint)
    b.setAttribute("aria-disabled", legal ? "false" : "true");  // (a screen reader says it cannot be played)
  });
  document.body.classList.toggle("swap-offered", Boolean(mine && state.swap));
}

// the animations are over: draw what the server says now
function settle() {
  if (state) board.show(state.board);
  follow();
}

// What the page shows now, which its words follow: the server's phase and last move once the board has caught up
// with them. The server is often ahead: the visitor's move is still being sown when the PDP-1 has replied and the
// visitor is asked again. While a move is sown the page says so, and names that move; a move sent and not yet
// answered is the PDP-1 typing it; the visitor's move is theirs to make only when a pit can be touched.
function shownNow() {
  const sowing = board.showing();
  if (sowing) return { phase: sowing.waiting ? "typing" : "sowing", last: sowing.last };
  return { phase: state.phase === "your_turn" && moveSent ? "typing" : state.phase, last: state.last };
}

// the state as shown (what the live region says, and what the board is read as): the server's, with the shown
// phase and move; the result once the last move is on the board; a move the server has not confirmed not yet said
function shownState() {
  const now = shownNow();
  const last = now.last && now.last.provisional ? null : now.last;
  const b = { ...state.board, ...(board.drawn() || {}) };
  if (now.phase !== state.phase) b.to_move = null;  // (whose move it is, said once the page shows it)
  return { ...state, phase: now.phase, last, result: now.phase === "game_over" ? state.result : null, board: b };
}

// the page's words, its pits to touch and its marked move, as the board shows the game now (after each move sown)
function follow() {
  if (!state) return;
  drawLegal();
  board.markLast(state.last);
  drawTexts();
  announce.state(shownState(), bottomPlayer());  // what a screen reader hears of it, once
}

// ---- the state from the server --------------------------------------------------------------
function sameMove(a, b) { return a && b && JSON.stringify(a) === JSON.stringify(b); }

function render(s, fresh) {
  const before = state;
  state = s;
  if (s.page) {
    defaultLanguage = s.page.language;
    sound.setEnabled(s.page.sound);
    i18n.buildLanguageButtons(s.page.languages, setLanguage);
    cards.showContact(s.page.contact);
  }
  const enteringAttract = s.mode === "attract" && (!before || before.mode !== "attract");
  if (enteringAttract || fresh && !before) setLanguage(defaultLanguage);
  if (s.mode === "attract") rulesShownForVisit = false;
  // A card stays until it is closed, or until a visitor's game needs the screen: the first visitor game
  // after attract mode shows how to play by itself (in place of an open "What is this?"); a visitor who
  // has left (back to attract mode after the countdown) leaves no card open for the next one.
  if (s.mode === "visitor" && before && before.mode === "attract" && !rulesShownForVisit && !watching()) {
    rulesShownForVisit = true;
    cards.showRules();
  }
  if (s.mode === "attract" && before && before.mode === "visitor") cards.closeCards();
  if (s.phase !== "your_turn") moveSent = false;
  document.body.dataset.mode = s.mode;
  document.body.dataset.phase = s.phase;
  document.body.classList.toggle("counting", s.countdown !== null);
  if (before && before.phase !== "game_over" && s.phase === "game_over") sound.bell();

  const drawn = board.drawn();
  const newGame = !before || before.game !== s.game || !drawn || drawn.top.length !== s.board.pits;
  if (fresh || newGame) {
    board.stopSowing();
    board.show(s.board);
  } else if (s.last && !sameMove(s.last, before.last)) {
    // a move just made (or a swap, with no seeds to sow): sow it, then settle on the server's board
    const mine = s.mode === "visitor" && board.confirmOwn(s.board, s.last);
    if (!mine) board.enqueue(s.last.row, s.last.col, s.last.path, s.board, s.last);
  } else if (!board.retarget(s.board) && !board.animating()) {
    board.show(s.board);  // (or the latest board for the move being shown)
  }
  drawNames();
  buildChoices();
  $("notice").hidden = !s.notice;
  announce.notice(Boolean(s.notice));
  $("download").hidden = !(ONLINE && s.mode === "visitor") || (BROWSER && !$("download").href);
  consoleLights.drawStatus(s.phase);  // (the console's word is the machine's own, as its lamps are)
  follow();
}

function drawNames() {
  $("top-name").textContent = t("side.pdp1");
  $("bottom-name").textContent = t(`side.${bottomPlayer()}`);
}

// who plays the bottom row, as the page words it: "visitor" (you), "player" (the visitor, seen from a
// watching page) or "demo" (attract mode's demonstration player)
function bottomPlayer() {
  if (ONLINE) return "visitor";  // online there is no demonstration player: the bottom row is always yours
  if (!state || state.mode !== "visitor") return "demo";
  return watching() ? "player" : "visitor";
}

// online: the game's ID kept in the tab, and its paper a link away
function showGame(game) {
  sessionStorage.setItem(GAME_KEY, game);
  $("download").href = `/games/${encodeURIComponent(game)}/paper.svg`;
}

// the browser edition: the last finished game's record (the one record format), the visitor's to keep
function offerRecord(msg) {
  const link = $("download");
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([`${msg.text}\n`], { type: "text/plain" }));
  link.download = `kalah-pdp1-game${msg.game}.txt`;
  link.hidden = !(state && state.mode === "visitor");
}

// the status line and the one under it, as the board shows the game (a hint, while one shows, stays)
function drawTexts() {
  if (state) messages.draw(state, shownNow(), bottomPlayer(), waiting);
}

function choiceButton(name, what) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.choice = name;
  b.innerHTML = "<b></b><small></small>";
  b.addEventListener("click", (e) => { e.stopPropagation(); send({ type: "choose", [what]: name }); });
  return b;
}

function buildChoices() {
  if (!state || !state.choices) return;
  const c = state.choices;
  for (const [box, names, what] of [["game-choices", c.games, "game"], ["strength-choices", c.strengths, "strength"]]) {
    const el = $(box); el.parentElement.hidden = names.length === 0;  // (none offered: no heading over nothing)
    if (el.dataset.built !== names.join(",")) {
      el.dataset.built = names.join(",");
      el.replaceChildren(...names.map((n) => choiceButton(n, what)));
    }
    for (const b of el.children) {
      b.querySelector("b").textContent = t(`choice.${b.dataset.choice}`);
      b.querySelector("small").textContent = t(`choice.${b.dataset.choice}.detail`);
      b.classList.toggle("chosen", c[what] === b.dataset.choice);
    }
  }
}

// ---- touches anywhere, the buttons, and what a visitor cannot do ---------------------------
// Any touch: in attract mode a tap starts a game (unless it was on the bar, a choice or a card; a touch that
// scrolls a page taller than its screen, a visitor's own text spacing, starts none); otherwise it tells the
// server someone is there (which stops a countdown).
document.addEventListener("pointerdown", () => {
  sound.wake();
  if (state && !watching() && state.mode !== "attract") stillHere();
});
document.addEventListener("click", (e) => {
  if (state && !watching() && state.mode === "attract" && !e.target.closest("#bar, [data-choice], .overlay")) {
    send({ type: "play" });
  }
});
function stillHere() {  // a touch or a key in a visitor's game: someone is there (a countdown stops)
  const now = Date.now();
  if (now - lastTouchSent > TOUCH_EVERY_MS || state.countdown !== null) { lastTouchSent = now; send({ type: "touch" }); }
}
const act = (name, fn) => document.querySelector(`[data-action="${name}"]`)
  .addEventListener("click", (e) => { e.stopPropagation(); fn(); });
act("play", () => send({ type: "play" }));
act("new-game", () => send({ type: "new_game" }));
act("swap", () => { if (!moveSent) { moveSent = true; follow(); sendAnswer({ type: "swap" }); } });
act("rules", cards.showRules);
act("about", cards.showAbout);
act("close-rules", cards.closeCards);
act("close-about", cards.closeCards);
cards.init();
// Nothing a visitor could break at the kiosk: no context menu, no dragging (and no keyboard shortcut: keys.js).
for (const kind of ["contextmenu", "dragstart", "selectstart"]) document.addEventListener(kind, (e) => e.preventDefault());
// A keyboard plays too (keys.js): Tab, the arrows and Enter or Space; keys 1-6 the pits from the visitor's left.
keys.init({ play: (pit) => touchPit("visitor", pit), swapOffered: () => Boolean(state && state.swap),
  swap: () => document.querySelector('[data-action="swap"]').click(), kiosk: !ONLINE,
  active: () => { sound.wake(); if (state && !watching() && state.mode !== "attract") stillHere(); } });
window.addEventListener("resize", consoleLights.fit);

// What the browser tests read, and the few calls they make as a visitor's touch would: read-only views
// of each module's own state (copies), never the state itself.
window.kiosk = {
  get state() { return state && structuredClone(state); },
  get shown() { return board.drawn(); },
  get paper() { return { text: paper.text() }; },
  get lights() { return consoleLights.lastLights(); },
  get moveStarts() { return board.movesStarted(); },
  get retryWaits() { return connection ? connection.retryWaits() : []; },
  get measured() { return connection && connection.measured ? connection.measured() : null; },  // (browser edition)
  get sound() { return sound.status(); },
  send, setLanguage, flash: board.flash, unflash: board.unflash,
};

if (BROWSER) { $("download").dataset.i18n = "browser.record"; $("about-browser").hidden = false; }
board.init({ touched: touchPit, settled: settle, shown: follow });
announce.init(() => state && { state: structuredClone(shownState()), who: bottomPlayer() });
consoleLights.drawLamps({});  // every lamp there, unlit, from the start: the console's layout is chosen with them
Promise.all([i18n.loadCatalogues(), cards.loadRulePictures()]).then(() => {
  setLanguage(i18n.current());
  connection = openConnection({ control: CONTROL, query, onMessage: receive,
    onDrop: () => { $("notice").hidden = false; announce.notice(true); } });
});
