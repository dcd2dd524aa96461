// The typewriter's paper: red for what the PDP-1 types, black for the keys typed to it. The server sends
// the sheet whole on (re)connection and then what is typed, each piece with its place on the sheet.

const KEEP = 20000, TRIM_AT = 40000;  // characters: the sheet keeps its last pages
let sheet = { game: -1, base: 0, text: "" };

export const text = () => sheet.text;

export function replaceSheet(p) {
  sheet = { game: p.game, base: p.base, text: p.text };
  draw();
}

// add a piece; returns what was new ("" for a repeat), or null when a piece is missing (reconnect)
export function addPiece(msg) {
  if (msg.reset || msg.game !== sheet.game) sheet = { game: msg.game, base: msg.at, text: "" };
  const end = sheet.base + sheet.text.length;
  if (msg.at > end) return null;
  const overlap = end - msg.at;
  const fresh = overlap < msg.text.length ? msg.text.slice(overlap) : "";
  sheet.text += fresh;
  if (sheet.text.length > TRIM_AT) { sheet.base += sheet.text.length - KEEP; sheet.text = sheet.text.slice(-KEEP); }
  draw();
  return fresh;
}

function draw() {
  const lines = sheet.text.split("\n").slice(-120);
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
  document.getElementById("paper").replaceChildren(...nodes);
}
