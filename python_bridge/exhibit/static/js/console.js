// The PDP-1's console: its lamps (the registers the server samples while the machine thinks or waits),
// the line under them saying what the machine does, and the console's layout, chosen to fit every language.

import { inEveryLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let lights = null;  // the last sample the server sent: registers, phase, 1960 seconds thought

export const lastLights = () => lights && { ...lights };

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

export function drawLamps(l) {
  for (const reg of document.querySelectorAll("#console .reg")) {
    lamps(reg.querySelector(".lamps"), l[reg.dataset.reg] || 0, Number(reg.dataset.bits));
  }
}

export function setLights(l, phase) {
  lights = l;
  drawLamps(l);
  drawStatus(phase);
}

// the line under the lamps, for the game's ``phase`` (its words in the language chosen)
export function drawStatus(phase) {
  if (!lights) return;  // nothing sampled yet: the line stays as the page began
  let text = "";
  if (phase === "thinking") text = t("console.thinking", { s: (lights ? lights.seconds : 0).toFixed(1) });
  else if (phase === "your_turn" || phase === "demo_turn") text = t("console.waiting");
  else if (phase === "typing") text = t("console.typing");
  else if (phase === "starting") text = t("console.starting");
  else if (phase === "mismatch") text = t("console.stopped");  // (a cross-check mismatch stopped the game)
  $("console-status").textContent = text;
}

// the console's names beside its lamps where the column is wide enough (80 units) and every name fits on
// its line beside them in every language (so a change of language never changes the console's size, nor
// the paper's above it); else in two columns, each name on one line above its lamps; else in one column.
// Chosen again only when what it depends on has changed (the console's width, the window, the fonts, the text's
// spacing: a visitor's own style sheet): trying every language lays the page out eight times over, and had
// made a change of language cost some 0.1 CPU-s, ten times the rest of it.
let fittedFor = "";

export function fit() {
  const unit = Math.min(window.innerWidth, window.innerHeight) / 134;
  const box = $("console");
  const names = [...box.querySelectorAll(".reg .name")];
  const look = names.length ? getComputedStyle(names[0]) : {};
  const inputs = [box.clientWidth, unit, document.fonts.status, look.fontFamily, look.fontSize, look.letterSpacing,
    look.wordSpacing, look.lineHeight].join(" ");
  if (inputs === fittedFor) return;
  fittedFor = inputs;
  box.classList.toggle("wide", box.clientWidth >= 80 * unit);
  box.classList.remove("pairs");
  const fits = { wide: (name) => name.parentElement.scrollWidth <= name.parentElement.clientWidth + 1,
    pairs: (name) => name.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(name).lineHeight) };
  const words = names.map((name) => inEveryLanguage(name.dataset.i18n));
  for (let lang = 0; lang < (words[0] || []).length; lang++) {
    names.forEach((name, i) => { name.textContent = words[i][lang]; });
    if (box.classList.contains("wide") && !names.every(fits.wide)) box.classList.replace("wide", "pairs");
    if (box.classList.contains("pairs") && !names.every(fits.pairs)) box.classList.remove("pairs");
  }
  for (const name of names) name.textContent = t(name.dataset.i18n);
}
