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
let flashing = null;  // the flash over the board: [message key, its params], null when none shows
let moveStarts = 0;  // sowings begun on this page (body[data-move-starts]: the browser tests watch it)
let rulesShownForVisit = false;

// ---- the message catalogues -----------------------------------------------------------------
async function loadCatalogues() {
  const langs = Object.keys(OWN_NAMES);
  const loaded = await Promise.all(langs.map((l) => fetch(`/static/i18n/${l}.json`).then((r) => r.json())));
  langs.forEach((l, i) => { catalogues[l] = loaded[i]; });
  drawRulePictures(await fetch("/static/rules.json").then((r) => r.json()));
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
  if (flashing) $("flash").textContent = t(...flashing);
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
// A page that cannot connect waits twice as long before each new try, up to a minute: a page refused for
// want of a place (the server keeps a few) asks again now and then, not every 2 s for ever. The kiosk's
// own page is never refused a place (the server keeps it one): only a restarting server keeps it out, so it
// tries again every 2 s at most, to be back at once.
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = CONTROL ? 2000 : 60000;
let retry = RETRY_FIRST_MS;
const retryWaits = [];  // every wait before a new try, in order (the browser tests read it)

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws` + (CONTROL ? `?control=${encodeURIComponent(CONTROL)}` : ""));
  socket.onopen = () => { retry = RETRY_FIRST_MS; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    socket = null;
    $("notice").hidden = false;  // the connection dropped: "one moment" until the server answers again
    retryWaits.push(retry);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, RETRY_MAX_MS);
  };
}

// whether this page controls the game; a watching page says so and shows nothing to touch
function setControl(controls) {
  document.body.dataset.control = controls ? "yes" : "no";
  if (state) { drawTexts(); drawNames(); drawLegal(); }
}
const watching = () => document.body.dataset.control === "no";

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
      setControl(msg.control);
      break;
    case "control": setControl(msg.control); break;
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
  unflash();
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
  unflash();  // a flash belongs to the move before: it goes when the next move is sown
  document.body.dataset.moveStarts = ++moveStarts;
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
    flash("flash.capture", { n: last.captured });
    setTimeout(() => {
      document.querySelectorAll(".captured").forEach((e) => e.classList.remove("captured"));
      if (anim !== item) return;
      showBoard(item.target);
      nextAnimation();
    }, 700);
    return;
  }
  if (last && last.extra_turn) flash("flash.again");
  showBoard(item.target);
  nextAnimation();
}

// "Extra turn!" or "Capture! +n" over the board: shown when its move has been sown, gone after a moment or
// as soon as another move is sown (or the board is redrawn), whichever comes first; a language chosen
// while it shows says it again in that language

function flash(key, params = {}) {
  const f = $("flash");
  flashing = [key, params];
  f.textContent = t(key, params);
  f.classList.add("show");
  clearTimeout(flashTimer);
  flashTimer = setTimeout(unflash, 1200);
}

function unflash() {
  clearTimeout(flashTimer);
  flashing = null;
  $("flash").classList.remove("show");
}

// the animations are over: draw what the server says now
function settle() {
  if (state) showBoard(state.board);
  drawLegal();
  drawLastMark();
}

function drawLegal() {
  const mine = state && state.mode === "visitor" && state.phase === "your_turn" && !moveSent && !anim && !watching();
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
  if (!state || state.mode !== "visitor" || watching()) return;  // attract mode: the touch starts a game (below)
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
  // A card stays until it is closed, or until a visitor's game needs the screen: the first visitor game
  // after attract mode shows how to play by itself (in place of an open "What is this?"); a visitor who
  // has left (back to attract mode after the countdown) leaves no card open for the next one.
  if (s.mode === "visitor" && before && before.mode === "attract" && !rulesShownForVisit && !watching()) {
    rulesShownForVisit = true;
    $("about").hidden = true;
    $("rules").hidden = false;
  }
  if (s.mode === "attract" && before && before.mode === "visitor") { $("rules").hidden = true; $("about").hidden = true; }
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
  $("bottom-name").textContent = t(`side.${bottomPlayer()}`);
}

// who plays the bottom row, as the page words it: "visitor" (you), "player" (the visitor, seen from a
// watching page) or "demo" (attract mode's demonstration player)
function bottomPlayer() {
  if (!state || state.mode !== "visitor") return "demo";
  return watching() ? "player" : "visitor";
}

function moveText(last) {
  const who = last.player === "pdp-1" ? "pdp1" : bottomPlayer();
  if (last.swap) return t(`move.swap.${who}`);
  let text = t(`move.${who}`, { pit: last.pit });
  if (last.captured) text += ", " + t("move.capture", { n: last.captured });
  if (last.extra_turn) text += ", " + t("move.again");
  return text;
}

function drawTexts() {
  const s = state;
  if (!s) return;
  const who = bottomPlayer();
  let status = t(s.phase === "your_turn" && who === "player" ? "status.your_turn.player" : `status.${s.phase}`);
  let detail = s.last ? moveText(s.last) : "";
  if (s.phase === "game_over" && s.result) {
    const r = s.result;
    status = t(r.winner === null ? "result.draw" : r.winner === "pdp-1" ? "result.pdp1" : `result.${who}`);
    detail = t(`result.score.${who}`, { a: r.pdp1, b: r.visitor });
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

function drawLamps(l) {
  for (const reg of document.querySelectorAll("#console .reg")) {
    lamps(reg.querySelector(".lamps"), l[reg.dataset.reg] || 0, Number(reg.dataset.bits));
  }
}

function drawLights(l) {
  lights = l;
  drawLamps(l);
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
  if (!state || watching()) return;
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

// The four pictures of the rules card, drawn from static/rules.json: positions of a real quick game (checked
// against the reference by tests/kiosk/test_rules_pictures.py), each with arrows for what the visitor's move
// does. An SVG of its own for each: the PDP-1's store at the left, its pits on top (its pit 4 at the left),
// the visitor's pits below and the visitor's store at the right, as on the board.
const SVG = "http://www.w3.org/2000/svg";
const MINI = { pitX: (col) => 57 + 34 * col, top: 34, bottom: 70, r: 15, storeLeft: 21, storeRight: 195 };

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
  return name[0] === "b" ? { x: MINI.pitX(k - 1), y: MINI.bottom, row: "bottom" } : { x: MINI.pitX(m - k), y: MINI.top, row: "top" };
}

function miniArrow(from, to, m, id) {
  const a = miniCell(from, m), b = miniCell(to, m);
  const above = a.row === "top";  // the PDP-1's seeds travel over the top, the visitor's under the bottom
  const start = { x: a.x, y: above ? a.y - MINI.r - 1 : a.y + MINI.r + 1 };
  const end = b.row === "store" ? { x: b.x, y: above ? 14 : 90 } : { x: b.x, y: above ? b.y - MINI.r - 3 : b.y + MINI.r + 3 };
  const bend = above ? -10 : 114;
  const path = svgElement("path", { d: `M${start.x} ${start.y} Q${(start.x + end.x) / 2} ${bend} ${end.x} ${end.y}`,
    class: "arrow", "marker-end": `url(#${id})`, "data-from": from, "data-to": to });
  return path;
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
      parts.push(c.row === "store" ? svgElement("rect", { x: c.x - 14, y: 20, width: 28, height: 64, rx: 12, class: cls, "data-cell": name })
        : svgElement("circle", { cx: c.x, cy: c.y, r: MINI.r, class: cls, "data-cell": name }));
      parts.push(svgElement("text", { x: c.x, y: c.y, class: "seeds", "data-cell": name }, String(n)));
    }
    for (const [from, to] of p.arrows) parts.push(miniArrow(from, to, m, id));
    svg.replaceChildren(...parts);
  }
}

// the console's names beside its lamps where the column is wide enough (80 units) and every name fits on
// its line beside them in every language (so a change of language never changes the console's size, nor
// the paper's above it); else in two columns, each name on one line above its lamps; else in one column
function fitConsole() {
  const unit = Math.min(window.innerWidth, window.innerHeight) / 134;
  const console_ = $("console");
  console_.classList.toggle("wide", console_.clientWidth >= 80 * unit);
  console_.classList.remove("pairs");
  const names = [...console_.querySelectorAll(".reg .name")];
  const fits = { wide: (name) => name.parentElement.scrollWidth <= name.parentElement.clientWidth + 1,
    pairs: (name) => name.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(name).lineHeight) };
  for (const lang of Object.keys(catalogues)) {
    for (const name of names) name.textContent = catalogues[lang][name.dataset.i18n];
    if (console_.classList.contains("wide") && !names.every(fits.wide)) console_.classList.replace("wide", "pairs");
    if (console_.classList.contains("pairs") && !names.every(fits.pairs)) console_.classList.remove("pairs");
  }
  for (const name of names) name.textContent = t(name.dataset.i18n);
}
window.addEventListener("resize", fitConsole);

drawLamps({});  // every lamp there, unlit, from the start: the console's arrangement is chosen with them (fitConsole)
loadCatalogues().then(() => { setLanguage(language); connect(); });
