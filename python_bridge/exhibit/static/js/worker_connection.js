// The browser edition's connection: the same messages as the WebSocket's (connection.js), to and from the
// Worker that runs the PDP-1 (SIMH as WebAssembly) and the game driver (Python in Pyodide) in this browser.
// Nothing here reaches the network during a game: the Worker is this page's own, and so is everything it loads.
// A Worker that fails (its files missing, a setting it refuses) is reported as a drop: the page says so.
//
// A site that keeps its visitors' records (its settings.toml's [browser] records, which the online server of the
// browser edition writes: the Worker names it in each record as `send_to`) is sent each finished game's record as
// the game ends, once: a POST of its text to the page's own site (keepalive: a page closed at that moment still
// delivers it). A record the site could not take then (the network gone, the server busy) is sent again as the
// visitor leaves (the page hidden or closed); one it refused (the reference found it untrue) is not. A static
// host's folder names no such place: its page sends nothing, ever.

const KEEPALIVE_MAX = 60000;  // characters: a browser keeps at most 64 KB of requests alive past the page

export function openWorkerConnection({ onMessage, onDrop }) {
  // what the benchmark reads (make bench-web, through kiosk.measured): how the Worker's Python started (its
  // milliseconds, from a snapshot kept by an earlier visit or not), each reply's wall seconds and each paced
  // reply's counted 1960 seconds, as the Worker says them (the page draws none of them)
  const measured = { started: null, replied: [], paced: [] };
  const worker = new Worker(new URL("../../worker.mjs", import.meta.url), { type: "module" });
  let failed = false;
  const fail = () => { if (!failed) { failed = true; onDrop(); } };
  worker.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "started") { measured.started = { ms: message.ms, fromSnapshot: message.fromSnapshot }; return; }
    if (message.type === "replied") { measured.replied.push(message.seconds); return; }
    if (message.type === "paced") { measured.paced.push([message.counted, message.wall]); return; }
    if (message.type === "failed") { console.error(`the PDP-1 could not start: ${message.reason}`); fail(); return; }
    if (message.type === "record" && message.send_to) sendRecord(message);
    onMessage(message);
  };
  worker.onerror = (event) => { console.error(`the PDP-1's Worker failed: ${event.message}`); fail(); };
  const sendUnsent = () => unsent.splice(0).forEach(sendRecord);  // (the visitor leaving: each once more)
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") sendUnsent(); });
  window.addEventListener("pagehide", sendUnsent);
  return {
    send(message) { if (!failed) worker.postMessage(JSON.stringify(message)); },
    drop() {},  // (nothing is lost between a page and its own Worker: there is nothing to send again)
    retryWaits: () => [],
    measured: () => structuredClone(measured),
  };
}

const unsent = [];  // records the site could not take when they were sent, to be sent again as the visitor leaves

// one record to the site, on this page's own origin only; kept for the leaving if the site could not take it
function sendRecord(record) {
  const address = new URL(record.send_to, document.baseURI);
  if (address.origin !== location.origin) { console.error(`no record is sent to another site: ${address}`); return; }
  fetch(address, { method: "POST", body: record.text, keepalive: record.text.length < KEEPALIVE_MAX })
    .then((answer) => {
      if (answer.status >= 500) unsent.push(record);  // (busy, or its store away: again later)
      else if (!answer.ok) answer.text().then((why) => console.warn(`the site refused the game's record: ${why}`));
    })
    .catch(() => unsent.push(record));
}
