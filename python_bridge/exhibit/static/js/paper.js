// The typewriter's paper: red for what the PDP-1 types, black for the keys typed to it. The server sends
// the sheet whole on (re)connection and then what is typed, each piece with its place on the sheet.

const KEEP = 20000, TRIM_AT = 40000;  // characters: the sheet keeps its last pages
// The typewriter's typeface asked for as the page opens, not when the PDP-1 types its first line: the browser
// edition's page asks for nothing after its first question (the font came just then, when the game began).
document.fonts.load('1em "GNU Typewriter"').catch(() => {});
let sheet = { game: -1, base: 0, text: "" };

export const text = () => sheet.text;

export function replaceSheet(p) {
  sheet = { game: p.game, base: p.base, text: p.text };
  draw();
}

// add a piece; returns what was new ("" for a repeat), or null when a piece is missing (reconnect)
export function addPiece(msg) {
  if (msg.reset || msg.game !== sheet.game) {
    sheet = { game: msg.game, base: msg.at, text: "" };
    draw();
  }
  const end = sheet.base + sheet.text.length;
  if (msg.at > end) return null;
  const overlap = end - msg.at;
  const fresh = overlap < msg.text.length ? msg.text.slice(overlap) : "";
  if (!fresh) return fresh;
  sheet.text += fresh;
  if (sheet.text.length > TRIM_AT) {
    sheet.base += sheet.text.length - KEEP;
    sheet.text = sheet.text.slice(-KEEP);
    draw();
  } else {
    drawAppended(fresh.split("\n").length - 1);
  }
  return fresh;
}

// Why the paper is drawn a line at a time: a character typed changes only the last line, and the kiosk's
// typewriter types all day.  Drawn whole for each piece, the last 120 lines were taken down and laid out
// again some ten times a second at 1960 speed.
const SHOWN = 120;  // lines on the paper (older ones have rolled up out of sight)
let drawn = [];  // the nodes of each line shown, oldest first

// one line's nodes: what the PDP-1 typed (red), the visitor's answer after its question (black), its newline
function lineNodes(line, last) {
  const ask = line.lastIndexOf("? ");  // "your move? 3": the question is the PDP-1's, the answer the visitor's
  const red = document.createElement("span");
  red.className = "pdp1";
  red.textContent = ask >= 0 ? line.slice(0, ask + 2) : line;
  const nodes = [red];
  if (ask >= 0 && ask + 2 < line.length) {
    const black = document.createElement("span");
    black.className = "visitor";
    black.textContent = line.slice(ask + 2);
    nodes.push(black);
  }
  if (!last) nodes.push(document.createTextNode("\n"));
  return nodes;
}

function draw() {
  const lines = sheet.text.split("\n").slice(-SHOWN);
  drawn = lines.map((line, i) => lineNodes(line, i === lines.length - 1));
  document.getElementById("paper").replaceChildren(...drawn.flat());
}

// ``added`` lines typed after the last one shown: that one drawn again, the new ones below it, the oldest
// ones beyond SHOWN taken away
function drawAppended(added) {
  const paper = document.getElementById("paper");
  const lines = sheet.text.split("\n");
  for (const node of drawn.pop() || []) node.remove();
  for (let i = Math.max(0, lines.length - 1 - added); i < lines.length; i++) {
    const nodes = lineNodes(lines[i], i === lines.length - 1);
    drawn.push(nodes);
    paper.append(...nodes);
  }
  while (drawn.length > SHOWN) for (const node of drawn.shift()) node.remove();
}
