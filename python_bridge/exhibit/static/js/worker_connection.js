// The browser edition's connection: the same messages as the WebSocket's (connection.js), to and from the
// Worker that runs the PDP-1 (SIMH as WebAssembly) and the game driver (Python in Pyodide) in this browser.
// Nothing here reaches the network: the Worker is this page's own, and so is everything it loads.
// A Worker that fails (its files missing, a setting it refuses) is reported as a drop: the page says so.

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
    onMessage(message);
  };
  worker.onerror = (event) => { console.error(`the PDP-1's Worker failed: ${event.message}`); fail(); };
  return {
    send(message) { if (!failed) worker.postMessage(JSON.stringify(message)); },
    drop() {},  // (nothing is lost between a page and its own Worker: there is nothing to send again)
    retryWaits: () => [],
    measured: () => structuredClone(measured),
  };
}
