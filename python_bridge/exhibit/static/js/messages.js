// The messages under the board: the status line (what is happening now: the PDP-1 reading its tape, typing or
// thinking, a move's seeds being sown, the visitor's move, the result, the countdown, the place in line) and the
// line under it (the move the board shows, the score, what stopped a game, a hint). Drawn from what the page shows, which main.js works
// out from the server's state and the board, in the page's language.

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// a move in words: who played which pit, and what it did ("The PDP-1 played pit 6, moves again")
export function moveText(last, bottom) {
  const who = last.player === "pdp-1" ? "pdp1" : bottom;
  if (last.swap) return t(`move.swap.${who}`);
  let text = t(`move.${who}`, { pit: last.pit });
  if (last.captured) text += ", " + t("move.capture", { n: last.captured });
  if (last.extra_turn) text += ", " + t("move.again");
  return text;
}

// a game a cross-check mismatch stopped: the PDP-1's choice and the one the reference expected (a pit, in the PDP-1's
// own numbers as its moves are said, or "swap"), or, when the difference was not in a choice, that it did something else
export function mismatchText(m) {
  if (!m || m.pdp1 === null || m.reference === null) return t("mismatch.other");
  if (m.pdp1 === "swap") return t("mismatch.swap_pit", { reference: m.reference });
  if (m.reference === "swap") return t("mismatch.pit_swap", { pdp1: m.pdp1 });
  return t("mismatch.pits", { pdp1: m.pdp1, reference: m.reference });
}

// ``s``: the server's state; ``shown``: its {phase, last} as the page shows it now (a phase of its own, "sowing",
// while a move is sown); ``who``: the bottom row's player as the page words it; ``waiting``: online, the place in
// line (or the line full) while no machine is the visitor's, else null
export function draw(s, shown, who, waiting) {
  document.body.classList.toggle("in-line", Boolean(waiting && s.mode !== "visitor"));
  if (waiting && s.mode !== "visitor") {  // no machine yet: the place in line, or when to come back
    const minutes = Math.max(1, Math.ceil((waiting.estimate_s ?? waiting.retry_s) / 60));
    $("status").textContent = waiting.type === "full" ? t("online.full", { minutes })
      : t("online.queue", { position: waiting.position, minutes });
    $("detail").textContent = "";
    return;
  }
  const { phase, last } = shown;
  let status = t(phase === "your_turn" && who === "player" ? "status.your_turn.player" : `status.${phase}`);
  let detail = last ? moveText(last, who) : "";
  if (phase === "game_over" && s.result) {
    const r = s.result;
    status = t(r.winner === null ? "result.draw" : r.winner === "pdp-1" ? "result.pdp1" : `result.${who}`);
    detail = t(`result.score.${who}`, { a: r.pdp1, b: r.visitor });
  }
  if (phase === "mismatch") detail = mismatchText(s.mismatch);
  if (s.countdown !== null) { status = t("countdown", { n: s.countdown }); detail = t("countdown.touch"); }
  $("status").textContent = status;
  const d = $("detail");
  d.textContent = d.dataset.hint ? t(d.dataset.hint) : detail;
}
