// The kiosk page: draws what the server sends and sends the visitor's touches. The game itself is
// decided by the server (and the PDP-1): the page only shows a touched pit's seeds being sown at
// once, before the PDP-1 confirms, and then always settles on the board the server sent.
// After a reload or a dropped connection the server's "hello" redraws everything.
"use strict";

const $ = (id) => document.getElementById(id);
const OWN_NAMES = { en: "English", pl: "Polski", tl: "Tagalog", az: "Azərbaycan" };
const SOW_STEP_MS = 140;  // one seed into the next pit
const HINT_MS = 2200;
const DOUBLE_TAP_MS = 600;  // a second touch this soon after a move is the same touch

let socket = null;
let retry = 250;
let state = null;
let lights = null;
let paper = { game: -1, base: 0, text: "" };
let lastTouchSent = 0;
let catalogues = {};
let language = "en";
let defaultLanguage = "en";
let moveSent = false;       // a move was sent and the server has not moved on yet: further taps wait
let moveSentAt = 0;
let hintTimer = null;
let flashTimer = null;
let rulesShownForVisit = false;

// ---- the message catalogues -----------------------------------------------------------------
async function loadCatalogues() {
  const langs = Object.keys(OWN_NAMES);
  const loaded = await Promise.all(langs.map((l) => fetch(`/static/i18n/${l}.json`).then((r) => r.json())));
  langs.forEach((l, i) => { catalogues[l] = loaded[i]; });
}

function t(key, params = {}) {
  const text = (catalogues[language] || {})[key];
  if (text === undefined) { console.error(`missing message ${key} in ${language}`); return `[${key}]`; }
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
}

function setLanguage(lang) {
  if (!catalogues[lang]) return;
  language = lang;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.querySelectorAll("#languages button").forEach((b) => b.classList.toggle("chosen", b.dataset.lang === lang));
  buildChoices();
  fitConsole();
  if (state) { drawTexts(); drawNames(); }
  if (lights) drawConsoleStatus();
}

function buildLanguages(langs) {
  const box = $("languages");
  if (box.dataset.built === langs.join(",")) return;
  box.dataset.built = langs.join(",");
  box.replaceChildren(...langs.map((l) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.lang = l;
    b.lang = l;
    b.textContent = OWN_NAMES[l];
    b.classList.toggle("chosen", l === language);
    b.addEventListener("click", (e) => { e.stopPropagation(); setLanguage(l); });
    return b;
  }));
}

// ---- the connection -------------------------------------------------------------------------
// The kiosk's own browser opens /?control=TOKEN: the token goes on to the WebSocket, which makes this
// page the one that controls the game (the others watch). The protocol is in kiosk/messages.py.
const CONTROL = new URLSearchParams(location.search).get("control");

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws` + (CONTROL ? `?control=${encodeURIComponent(CONTROL)}` : ""));
  socket.onopen = () => { retry = 250; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    socket = null;
    $("notice").hidden = false;  // the connection dropped: "one moment" until the server answers again
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 2000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function sendAnswer(message) {
  // the turn this answers, so a late or doubled touch is refused (kiosk/messages.py)
  if (state && state.turn !== undefined) message.turn = state.turn;
  send(message);
}

function receive(msg) {
  switch (msg.type) {
    case "hello":
      paper = { game: msg.paper.game, base: msg.paper.base, text: msg.paper.text };
      drawPaper();
      stopSowing();
      render(msg.state, true);
      if (msg.lights) drawLights(msg.lights);
      document.body.dataset.control = msg.control ? "yes" : "no";
      break;
    case "control": document.body.dataset.control = msg.control ? "yes" : "no"; break;
    case "state": render(msg, false); break;
    case "paper": addPaper(msg); break;
    case "lights": drawLights(msg); break;
    case "rejected":
      if (moveSent) { moveSent = false; stopSowing(); if (state) showBoard(state.board); drawLegal(); }
      break;
  }
}

// ---- the paper: red for what the PDP-1 types, black for the keys typed to it ---------------
function addPaper(msg) {
  if (msg.reset || msg.game !== paper.game) paper = { game: msg.game, base: msg.at, text: "" };
  const end = paper.base + paper.text.length;
  if (msg.at > end) { if (socket) socket.close(); return; }  // a gap: reconnect and get the whole sheet
  const overlap = end - msg.at;
  const fresh = overlap < msg.text.length ? msg.text.slice(overlap) : "";
  paper.text += fresh;
  if (paper.text.length > 40000) { paper.base += paper.text.length - 20000; paper.text = paper.text.slice(-20000); }
  drawPaper();
  if (fresh) sound.typed(fresh);
}

function drawPaper() {
  const lines = paper.text.split("\n").slice(-120);
  const pre = $("paper");
  const nodes = [];
  lines.forEach((line, i) => {
    const ask = line.lastIndexOf("? ");  // "your move? 3": the question is the PDP-1's, the answer the visitor's
    const red = document.createElement("span");
    red.className = "pdp1";
    red.textContent = ask >= 0 ? line.slice(0, ask + 2) : line;
    nodes.push(red);
    if (ask >= 0 && ask + 2 < line.length) {
      const black = document.createElement("span");
      black.className = "visitor";
      black.textContent = line.slice(ask + 2);
      nodes.push(black);
    }
    if (i < lines.length - 1) nodes.push(document.createTextNode("\n"));
  });
  pre.replaceChildren(...nodes);
}

// ---- the board ------------------------------------------------------------------------------
function pitButton(side, pit) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "pit";
  b.dataset.side = side;
  b.dataset.pit = pit;
  b.innerHTML = '<span class="count"></span>';
  b.addEventListener("click", (e) => { e.stopPropagation(); touchPit(side, pit); });
  return b;
}

function buildBoard(m) {
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

let shown = null;  // the board as drawn now: {top: [...], bottom: [...], top_store, bottom_store}

function showBoard(b) {
  shown = { top: [...b.top], bottom: [...b.bottom], top_store: b.top_store, bottom_store: b.bottom_store };
  buildBoard(b.top.length);
  [...$("top-row").children].forEach((el, i) => { el.querySelector(".count").textContent = shown.top[i]; });
  [...$("bottom-row").children].forEach((el, i) => { el.querySelector(".count").textContent = shown.bottom[i]; });
  $("top-store").querySelector(".count").textContent = shown.top_store;
  $("bottom-store").querySelector(".count").textContent = shown.bottom_store;
}

function cell(row, col) {
  if (row === "top-store") return $("top-store");
  if (row === "bottom-store") return $("bottom-store");
  return $(row === "top" ? "top-row" : "bottom-row").children[col];
}

// The holes a seed passes, in order, from column ``col`` of ``row``: anticlockwise, the mover's
// store included and the other store skipped.
function sowingPath(row, col, seeds, m) {
  const ring = [];
  for (let c = 0; c < m; c++) ring.push(["bottom", c]);
  ring.push(["bottom-store", 0]);
  for (let c = m - 1; c >= 0; c--) ring.push(["top", c]);
  ring.push(["top-store", 0]);
  const skip = row === "top" ? "bottom-store" : "top-store";
  let at = ring.findIndex(([r, c]) => r === row && c === col);
  const path = [];
  while (path.length < seeds) {
    at = (at + 1) % ring.length;
    if (ring[at][0] !== skip) path.push(ring[at]);
  }
  return path;
}

const queue = [];   // moves to show, each {row, col, target (board or null), last (or null)}
let anim = null;

function stopSowing() {
  queue.length = 0;
  if (anim) clearTimeout(anim.timer);
  anim = null;
  document.body.dataset.sowing = "no";
  document.querySelectorAll(".sown, .captured").forEach((e) => e.classList.remove("sown", "captured"));
}

function enqueueMove(row, col, target, last) {
  queue.push({ row, col, target, last });
  if (!anim) nextAnimation();
}

function nextAnimation() {
  const item = queue.shift();
  document.body.dataset.sowing = item ? "yes" : "no";
  if (!item) { anim = null; settle(); return; }
  anim = item;
  const m = shown.top.length;
  const counts = item.row === "top" ? shown.top : shown.bottom;
  const seeds = counts[item.col];
  if (!seeds) { finishAnimation(item); return; }
  counts[item.col] = 0;
  cell(item.row, item.col).querySelector(".count").textContent = 0;
  const path = sowingPath(item.row, item.col, seeds, m);
  let i = 0;
  const step = () => {
    if (anim !== item) return;  // replaced meanwhile (a new game, a reconnection, a refused move)
    document.querySelectorAll(".sown").forEach((e) => e.classList.remove("sown"));
    if (i >= path.length) { finishAnimation(item, path[path.length - 1]); return; }
    const [r, c] = path[i++];
    const el = cell(r, c);
    if (r === "top-store") shown.top_store++;
    else if (r === "bottom-store") shown.bottom_store++;
    else (r === "top" ? shown.top : shown.bottom)[c]++;
    el.querySelector(".count").textContent = r === "top-store" ? shown.top_store : r === "bottom-store" ? shown.bottom_store
      : (r === "top" ? shown.top : shown.bottom)[c];
    el.classList.add("sown");
    sound.seed();
    item.timer = setTimeout(step, SOW_STEP_MS);
  };
  item.timer = setTimeout(step, SOW_STEP_MS);
}

function finishAnimation(item, landing) {
  if (anim !== item) return;
  if (!item.target) { item.waiting = landing || true; return; }  // the visitor's own move, not yet confirmed
  const last = item.last;
  if (last && last.captured && landing) {
    const [r, c] = landing;
    const opposite = r === "bottom" ? cell("top", c) : r === "top" ? cell("bottom", c) : null;
    cell(r, c).classList.add("captured");
    if (opposite) opposite.classList.add("captured");
    flash(t("flash.capture", { n: last.captured }));
    setTimeout(() => {
      document.querySelectorAll(".captured").forEach((e) => e.classList.remove("captured"));
      if (anim !== item) return;
      showBoard(item.target);
      nextAnimation();
    }, 700);
    return;
  }
  if (last && last.extra_turn) flash(t("flash.again"));
  showBoard(item.target);
  nextAnimation();
}

function flash(text) {
  const f = $("flash");
  f.textContent = text;
  f.classList.add("show");
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => f.classList.remove("show"), 1000);
}

// the animations are over: draw what the server says now
function settle() {
  if (state) showBoard(state.board);
  drawLegal();
  drawLastMark();
}

function drawLegal() {
  const mine = state && state.mode === "visitor" && state.phase === "your_turn" && !moveSent && !anim;
  [...$("bottom-row").children].forEach((b) => {
    const legal = mine && state.legal.includes(Number(b.dataset.pit));
    b.classList.toggle("legal", legal);
    b.dataset.legal = legal ? "yes" : "no";  // not "disabled": a touch on any pit gets an answer (a hint)
  });
  document.body.classList.toggle("swap-offered", Boolean(mine && state.swap));
}

function drawLastMark() {
  document.querySelectorAll(".last").forEach((e) => e.classList.remove("last"));
  const last = state && state.last;
  if (last && last.row && !anim) {
    const b = cell(last.row, last.col);
    if (b) b.classList.add("last");
  }
}

function touchPit(side, pit) {
  if (!state || state.mode !== "visitor") return;  // attract mode: the touch starts a game (below)
  if (side === "pdp-1") { hint("hint.theirs"); return; }
  if (moveSent || anim || state.phase !== "your_turn") {
    if (Date.now() - moveSentAt > DOUBLE_TAP_MS) hint("hint.thinking");  // a double tap gets no hint, and no move
    return;
  }
  const count = shown ? shown.bottom[pit - 1] : 0;
  if (!state.legal.includes(pit)) { hint(count === 0 ? "hint.empty" : "hint.thinking"); return; }
  moveSent = true;
  moveSentAt = Date.now();
  clearHint();
  sendAnswer({ type: "move", pit });
  drawLegal();
  enqueueMove("bottom", pit - 1, null, null);  // sow at once; the server's board follows
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
  clearTimeout(hintTimer);
  hintTimer = setTimeout(clearHint, HINT_MS);
}

// ---- the state from the server --------------------------------------------------------------
function sameMove(a, b) { return a && b && JSON.stringify(a) === JSON.stringify(b); }

function render(s, fresh) {
  const before = state;
  state = s;
  if (s.page) {
    defaultLanguage = s.page.language;
    sound.enabled = s.page.sound;
    buildLanguages(s.page.languages);
  }
  const enteringAttract = s.mode === "attract" && (!before || before.mode !== "attract");
  if (enteringAttract || fresh && !before) setLanguage(defaultLanguage);
  if (s.mode === "attract") rulesShownForVisit = false;
  if (s.mode === "visitor" && before && before.mode === "attract" && !rulesShownForVisit) {
    rulesShownForVisit = true;  // the first visitor game after attract mode: how to play, by itself
    $("rules").hidden = false;
  }
  if (s.mode === "attract") { $("rules").hidden = true; $("about").hidden = true; }
  if (s.phase !== "your_turn") moveSent = false;
  document.body.dataset.mode = s.mode;
  document.body.dataset.phase = s.phase;
  document.body.classList.toggle("counting", s.countdown !== null);
  if (before && before.phase !== "game_over" && s.phase === "game_over") sound.bell();

  const m = s.board.pits;
  const newGame = !before || before.game !== s.game || !shown || shown.top.length !== m;
  if (fresh || newGame) {
    stopSowing();
    showBoard(s.board);
  } else if (s.last && !sameMove(s.last, before.last) && s.last.row) {
    // a move just made: sow it on the board, then settle on the server's board
    const mineInFlight = anim && !anim.target && s.last.row === "bottom" && s.mode === "visitor";
    if (mineInFlight) {
      anim.target = s.board; anim.last = s.last;
      if (anim.waiting) finishAnimation(anim, anim.waiting === true ? null : anim.waiting);
    } else {
      enqueueMove(s.last.row, s.last.col, s.board, s.last);
    }
  } else if (s.last && !sameMove(s.last, before.last)) {  // a swap: straight to the new board
    enqueueMove(null, null, s.board, s.last);
  } else if (queue.length) {
    queue[queue.length - 1].target = s.board;  // the latest board for the move being shown
  } else if (!anim) {
    showBoard(s.board);
  }
  drawNames();
  drawLegal();
  drawLastMark();
  drawTexts();
  buildChoices();
  $("notice").hidden = !s.notice;
  if (lights) drawConsoleStatus();
}

function drawNames() {
  $("top-name").textContent = t("side.pdp1");
  $("bottom-name").textContent = t(state && state.mode === "visitor" ? "side.visitor" : "side.demo");
}

function moveText(last, visitor) {
  const who = last.player === "pdp-1" ? "pdp1" : visitor ? "visitor" : "demo";
  if (last.swap) return t(`move.swap.${who}`);
  let text = t(`move.${who}`, { pit: last.pit });
  if (last.captured) text += ", " + t("move.capture", { n: last.captured });
  if (last.extra_turn) text += ", " + t("move.again");
  return text;
}

function drawTexts() {
  const s = state;
  if (!s) return;
  const visitor = s.mode === "visitor";
  let status = t(`status.${s.phase}`), detail = s.last ? moveText(s.last, visitor) : "";
  if (s.phase === "game_over" && s.result) {
    const r = s.result;
    status = r.winner === null ? t("result.draw") : r.winner === "pdp-1" ? t("result.pdp1") : visitor ? t("result.visitor") : t("result.demo");
    detail = t(visitor ? "result.score.visitor" : "result.score.demo", { a: r.pdp1, b: r.visitor });
  }
  if (s.countdown !== null) { status = t("countdown", { n: s.countdown }); detail = t("countdown.touch"); }
  $("status").textContent = status;
  const d = $("detail");
  if (d.dataset.hint) d.textContent = t(d.dataset.hint);
  else d.textContent = detail;
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
    const el = $(box);
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

// ---- the console ----------------------------------------------------------------------------
function lamps(el, value, bits) {
  if (el.children.length !== bits) {
    const spans = [];
    for (let i = 0; i < bits; i++) {
      const lamp = document.createElement("span");
      lamp.className = "lamp" + (i > 0 && (bits - i) % 3 === 0 ? " group" : "");
      spans.push(lamp);
    }
    el.replaceChildren(...spans);
  }
  for (let i = 0; i < bits; i++) el.children[i].classList.toggle("on", Boolean((value >> (bits - 1 - i)) & 1));
}

function drawLights(l) {
  lights = l;
  for (const reg of document.querySelectorAll("#console .reg")) {
    lamps(reg.querySelector(".lamps"), l[reg.dataset.reg] || 0, Number(reg.dataset.bits));
  }
  drawConsoleStatus();
}

function drawConsoleStatus() {
  const phase = state ? state.phase : "starting";
  let text = "";
  if (phase === "thinking") text = t("console.thinking", { s: (lights ? lights.seconds : 0).toFixed(1) });
  else if (phase === "your_turn" || phase === "demo_turn") text = t("console.waiting");
  else if (phase === "typing") text = t("console.typing");
  else if (phase === "starting") text = t("console.starting");
  $("console-status").textContent = text;
}

// ---- the typewriter's sound, synthesised (no sound files) -----------------------------------
const sound = {
  enabled: false,  // until the server says what the configuration wants
  ctx: null,
  next: 0,
  context() {
    if (!this.enabled) return null;
    if (!this.ctx) { try { this.ctx = new AudioContext(); } catch (e) { this.enabled = false; return null; } }
    if (this.ctx.state === "suspended") this.ctx.resume();
    return this.ctx;
  },
  noise(at, length, freq, gain, q = 1.5) {
    const ctx = this.ctx;
    const buffer = ctx.createBuffer(1, Math.max(1, Math.floor(ctx.sampleRate * length)), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / data.length, 3);
    const src = ctx.createBufferSource();
    src.buffer = buffer;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass"; filter.frequency.value = freq; filter.Q.value = q;
    const g = ctx.createGain();
    g.gain.value = gain;
    src.connect(filter).connect(g).connect(ctx.destination);
    src.start(at);
  },
  strike(at) { this.noise(at, 0.035, 2400, 0.9); this.noise(at, 0.02, 600, 0.5); },
  carriageReturn(at) {
    const ctx = this.ctx;
    this.noise(at, 0.25, 900, 0.25, 0.7);
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.setValueAtTime(120, at + 0.24); o.frequency.exponentialRampToValueAtTime(60, at + 0.32);
    g.gain.setValueAtTime(0.5, at + 0.24); g.gain.exponentialRampToValueAtTime(0.001, at + 0.34);
    o.connect(g).connect(ctx.destination); o.start(at + 0.24); o.stop(at + 0.36);
  },
  typed(text) {
    const ctx = this.context();
    if (!ctx) return;
    const now = ctx.currentTime;
    if (this.next < now) this.next = now;
    for (const ch of text) {
      if (this.next > now + 0.6) break;  // text arriving faster than a typewriter: no backlog of sound
      if (ch === "\n") { this.carriageReturn(this.next); this.next += 0.3; }
      else if (ch !== " ") { this.strike(this.next); this.next += 0.05; }
      else this.next += 0.03;
    }
  },
  seed() { const ctx = this.context(); if (ctx) this.noise(ctx.currentTime, 0.03, 1200, 0.25, 4); },
  bell() {
    const ctx = this.context();
    if (!ctx) return;
    const at = Math.max(ctx.currentTime, this.next);
    for (const [f, v] of [[2093, 0.35], [4186, 0.12]]) {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(v, at); g.gain.exponentialRampToValueAtTime(0.0005, at + 1.6);
      o.connect(g).connect(ctx.destination); o.start(at); o.stop(at + 1.7);
    }
  },
};

// ---- touches --------------------------------------------------------------------------------
// Any touch: in attract mode it starts a game (unless it was on the bar, a choice or a card);
// otherwise it tells the server someone is there (which stops a countdown).
document.addEventListener("pointerdown", (e) => {
  sound.context();
  if (!state) return;
  const quiet = e.target.closest("#bar, [data-choice], .overlay");
  if (state.mode === "attract") { if (!quiet) send({ type: "play" }); return; }
  const now = Date.now();
  if (now - lastTouchSent > 1000 || state.countdown !== null) { lastTouchSent = now; send({ type: "touch" }); }
});
const act = (name, fn) => document.querySelector(`[data-action="${name}"]`).addEventListener("click", (e) => { e.stopPropagation(); fn(); });
act("play", () => send({ type: "play" }));
act("new-game", () => send({ type: "new_game" }));
act("swap", () => { if (!moveSent) { moveSent = true; drawLegal(); sendAnswer({ type: "swap" }); } });
act("rules", () => { $("about").hidden = true; $("rules").hidden = false; });
act("about", () => { $("rules").hidden = true; $("about").hidden = false; });
act("close-rules", () => { $("rules").hidden = true; });
act("close-about", () => { $("about").hidden = true; });
for (const id of ["rules", "about"]) $(id).addEventListener("click", (e) => { if (e.target.id === id) $(id).hidden = true; });
// Nothing a visitor could break: no context menu, no dragging, no keyboard shortcuts.
for (const kind of ["contextmenu", "dragstart", "selectstart"]) document.addEventListener(kind, (e) => e.preventDefault());
document.addEventListener("keydown", (e) => e.preventDefault());

// the four pictures of the rules card (drawn once; the captions come from the catalogue)
function drawRulePictures() {
  const pictures = {
    // cells: store, 4 top pits, store / 4 bottom pits; classes mark the move
    sow: { top: [3, 3, 3, 3], bottom: [3, 0, 4, 4], stores: [0, 1], marks: { b1: "from", b2: "to", b3: "to", s1: "to" }, arrow: "→" },
    again: { top: [3, 3, 3, 3], bottom: [3, 3, 0, 4], stores: [0, 2], marks: { b2: "from", b3: "to", s1: "to" }, arrow: "↻" },
    capture: { top: [3, 3, 3, 3], bottom: [1, 0, 3, 4], stores: [0, 1], marks: { b0: "to", t0: "taken", s1: "to" }, arrow: "" },
    end: { top: [0, 0, 0, 0], bottom: [0, 0, 0, 0], stores: [11, 13], marks: { s0: "to", s1: "to" }, arrow: "" },
  };
  for (const fig of document.querySelectorAll(".pictures figure")) {
    const p = pictures[fig.dataset.rule];
    const mini = fig.querySelector(".mini");
    const span = (text, cls, col, row) => {
      const s = document.createElement("span");
      s.textContent = text;
      s.className = cls || "";
      s.style.gridColumn = col; if (row) s.style.gridRow = row;
      return s;
    };
    const cells = [span(p.stores[0], "st " + (p.marks.s0 || ""), 1)];
    p.top.forEach((n, i) => cells.push(span(n, p.marks["t" + i], i + 2, 1)));
    cells.push(span(p.stores[1], "st " + (p.marks.s1 || ""), 6));
    p.bottom.forEach((n, i) => cells.push(span(n, p.marks["b" + i], i + 2, 2)));
    mini.replaceChildren(...cells);
  }
}

// the console's names beside its lamps where the column is wide enough (80 units), above them where not
// (and only if every name then fits on its line, in the language shown)
function fitConsole() {
  const unit = Math.min(window.innerWidth, window.innerHeight) / 134;
  const console_ = $("console");
  console_.classList.toggle("wide", console_.clientWidth >= 80 * unit);
  if (!console_.classList.contains("wide")) return;
  for (const name of console_.querySelectorAll(".reg .name")) {
    if (name.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(name).fontSize) * 1.1) {
      console_.classList.remove("wide");
      return;
    }
  }
}
window.addEventListener("resize", fitConsole);
fitConsole();

drawRulePictures();
loadCatalogues().then(() => { setLanguage(language); connect(); });
