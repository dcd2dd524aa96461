// The kiosk page: draws what the server sends, sends the visitor's touches. It decides nothing
// about the game itself; after a reload or a dropped connection the server's "hello" redraws all.
"use strict";

const $ = (id) => document.getElementById(id);
let socket = null;
let retry = 250;
let state = null;
let paper = { game: -1, base: 0, text: "" };
let lastTouchSent = 0;
let toastTimer = null;

const PHASE_TEXT = {
  starting: "The PDP-1 reads its paper tape\u2026",
  typing: "The PDP-1 is typing\u2026",
  thinking: "The PDP-1 is thinking\u2026",
  your_turn: "Your move: touch one of your pits",
  demo_turn: "The demonstration player chooses\u2026",
  game_over: "Game over",
  one_moment: "One moment\u2026",
};

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

function receive(msg) {
  switch (msg.type) {
    case "hello":
      paper = { game: msg.paper.game, base: msg.paper.base, text: msg.paper.text };
      drawPaper();
      render(msg.state);
      if (msg.lights) drawLights(msg.lights);
      document.body.dataset.control = msg.control ? "yes" : "no";
      break;
    case "control": document.body.dataset.control = msg.control ? "yes" : "no"; break;
    case "state": render(msg); break;
    case "paper": addPaper(msg); break;
    case "lights": drawLights(msg); break;
    case "rejected": toast(msg.reason); break;
  }
}

function addPaper(msg) {
  if (msg.reset || msg.game !== paper.game) {
    paper = { game: msg.game, base: msg.at, text: "" };
  }
  const end = paper.base + paper.text.length;
  if (msg.at > end) { if (socket) socket.close(); return; }  // a gap: reconnect and get the whole sheet
  const overlap = end - msg.at;
  if (overlap < msg.text.length) paper.text += msg.text.slice(overlap);
  if (paper.text.length > 40000) { paper.base += paper.text.length - 20000; paper.text = paper.text.slice(-20000); }
  drawPaper();
}

function drawPaper() {
  const lines = paper.text.split("\n");
  $("paper").textContent = lines.slice(-200).join("\n");
  const roll = $("paper-roll");
  roll.scrollTop = roll.scrollHeight;  // the newest line at the bottom, as on the typewriter
}

function pitButton(row, col, count, pit) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "pit";
  b.dataset.row = row;
  b.dataset.col = col;
  b.dataset.pit = pit;
  b.disabled = true;
  b.innerHTML = `<span class="count">${count}</span>` + (row === "bottom" ? `<span class="number">${pit}</span>` : "");
  if (row === "bottom") b.addEventListener("click", (e) => { e.stopPropagation(); send({ type: "move", pit, turn: state.turn }); });
  return b;
}

// The rows are updated in place (rebuilt only when the number of pits changes), so a
// message that arrives while a finger is on a pit never swaps the button under it.
function syncRow(row, name, counts, pitFor) {
  if (row.children.length !== counts.length) {
    row.replaceChildren(...counts.map((n, col) => pitButton(name, col, n, pitFor(col))));
  }
  counts.forEach((n, col) => {
    const b = row.children[col];
    b.querySelector(".count").textContent = n;
    b.disabled = true;
    b.classList.remove("legal");
  });
}

function render(s) {
  state = s;
  document.body.dataset.mode = s.mode;
  document.body.dataset.phase = s.phase;
  const board = s.board;
  const m = board.pits;
  $("board").style.setProperty("--pits", Math.max(m, 1));
  $("board").dataset.toMove = board.to_move || "";
  const visitor = s.mode === "visitor" ? "You" : "Demonstration player";
  $("bottom-label").textContent = visitor;
  $("bottom-store-name").textContent = s.mode === "visitor" ? "You" : "Demo";
  const top = $("top-row"), bottom = $("bottom-row");
  syncRow(top, "top", board.top, (col) => m - col);
  syncRow(bottom, "bottom", board.bottom, (col) => col + 1);
  $("top-store").querySelector(".count").textContent = board.top_store;
  $("bottom-store").querySelector(".count").textContent = board.bottom_store;
  for (const pit of s.legal) {
    const b = bottom.children[pit - 1];
    if (b) { b.disabled = false; b.classList.add("legal"); }
  }
  document.querySelectorAll(".last").forEach((e) => e.classList.remove("last"));
  if (s.last && s.last.row) {
    const b = (s.last.row === "top" ? top : bottom).children[s.last.col];
    if (b) b.classList.add("last");
  }
  $("last-move").textContent = s.last ? s.last.text + "." : "";
  const st = board.settings;
  $("settings").textContent = st ? `${st.pits} pits, ${st.seeds} seeds, ${st.level ? "level " + st.level : "level auto"}, ${st.rules}` : "";
  $("status").textContent = PHASE_TEXT[s.phase] || "";
  $("swap").hidden = !(s.phase === "your_turn" && s.swap);
  $("front-panel").hidden = s.phase !== "thinking";
  $("attract").hidden = s.mode !== "attract";
  $("countdown").hidden = s.countdown === null;
  if (s.countdown !== null) $("countdown-seconds").textContent = s.countdown;
  $("notice").hidden = !s.notice;
  const showResult = s.phase === "game_over" && s.result && s.countdown === null;
  $("result").hidden = !showResult;
  if (showResult) {
    const r = s.result;
    $("winner").textContent = r.winner === null ? "A draw!" : (r.winner === "You" ? "You win!" : `${r.winner === "PDP-1" ? "The PDP-1" : "The " + r.winner.toLowerCase() + " player"} wins`);
    $("score").textContent = `PDP-1 ${r.pdp1} \u2013 ${s.mode === "visitor" ? "you" : "demo"} ${r.visitor}`;
  }
}

function lamps(el, value, bits, group) {
  const spans = [];
  for (let i = bits - 1; i >= 0; i--) {
    const lamp = document.createElement("span");
    lamp.className = "lamp" + ((value >> i) & 1 ? " on" : "") + (group && (bits - 1 - i) % group === 0 && i !== bits - 1 ? " group" : "");
    spans.push(lamp);
  }
  el.replaceChildren(...spans);
}

function drawLights(l) {
  const reg = (name) => document.querySelector(`.register[data-reg="${name}"] .lamps`);
  lamps(reg("ac"), l.ac, 18, 3);
  lamps(reg("io"), l.io, 18, 3);
  lamps(reg("pc"), l.pc, 12, 3);
  lamps(reg("pf"), l.pf, 6, 0);
  $("thinking-time").textContent = l.seconds.toFixed(1);
}

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 1500);
}

// Any touch: in attract mode it starts a game; otherwise it tells the server someone is there.
document.addEventListener("pointerdown", () => {
  if (!state) return;
  if (state.mode === "attract") { send({ type: "play" }); return; }
  const now = Date.now();
  if (now - lastTouchSent > 1000) { lastTouchSent = now; send({ type: "touch" }); }
});
$("swap").addEventListener("click", (e) => { e.stopPropagation(); send({ type: "swap", turn: state.turn }); });
$("new-game").addEventListener("click", (e) => { e.stopPropagation(); send({ type: "new_game" }); });
// Nothing a visitor could break: no context menu, no dragging, no keyboard shortcuts.
for (const kind of ["contextmenu", "dragstart", "selectstart"]) document.addEventListener(kind, (e) => e.preventDefault());
document.addEventListener("keydown", (e) => e.preventDefault());
connect();
