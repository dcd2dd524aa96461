// The browser edition's Worker: the PDP-1 (SIMH 3.8.1's pdp1 as WebAssembly) and the project's one game driver
// (Python, in Pyodide) beside it, every move cross-checked by the Python reference, all in the visitor's browser.
//
// The page (exhibit/static/js/worker_connection.js) speaks to this Worker in the online exhibit's protocol
// (exhibit/messages.py), as it would to a server's WebSocket: the page's messages come in as JSON text and wait
// in `inbox` until Python asks for the next one (kalah_page.next_message, a promise Python waits on through
// Pyodide's run_sync: the Worker's own event loop runs meanwhile, and nothing spins); Python's messages go out
// as they are made.  Nothing here decides anything of the game: this file only starts the machine and the
// interpreter and carries messages.  Everything comes from this folder: no other origin is asked for anything.

import { startPython } from "./python_start.mjs";
import createPdp1 from "./pdp1.mjs";
import { Machine } from "./machine.mjs";

const inbox = [];     // the page's messages not yet taken by Python
let waiting = null;   // Python's wait for the next one: {resolve, timer}

self.onmessage = (event) => {
  if (waiting) {
    const { resolve, timer } = waiting;
    waiting = null;
    clearTimeout(timer);
    resolve(event.data);
  } else {
    inbox.push(event.data);
  }
};

/** The page's next message (its JSON text), or undefined (None in Python) after `ms` milliseconds without one. */
function nextMessage(ms) {
  if (inbox.length) return Promise.resolve(inbox.shift());
  return new Promise((resolve) => {
    const timer = setTimeout(() => { waiting = null; resolve(undefined); }, Math.max(0, ms));
    waiting = { resolve, timer };
  });
}

async function bytes(name) {
  const answer = await fetch(new URL(name, import.meta.url));
  if (!answer.ok) throw new Error(`${name}: ${answer.status}`);
  return new Uint8Array(await answer.arrayBuffer());
}

async function start() {
  const started = performance.now();
  // python.zip: the project's python_bridge and tools, and build/kalah.rim with its symbols (make web)
  const [wasmBinary, python, settings] = await Promise.all(
    [bytes("pdp1.wasm"), bytes("python.zip"), bytes("settings.toml")]);
  const { pyodide, fromSnapshot } = await startPython(python);
  // what the benchmark reads (kiosk.measured): how long Python took to be ready, and whether from a snapshot
  postMessage(JSON.stringify({ type: "started", ms: Math.round(performance.now() - started), fromSnapshot }));
  pyodide.registerJsModule("kalah_page", {
    post: (text) => postMessage(text),
    next_message: nextMessage,
    new_machine: () => Machine.create(createPdp1, { wasmBinary }),
    settings: new TextDecoder().decode(settings),
  });
  await pyodide.runPythonAsync(`
from python_bridge.browser.worker import main
main()
`);
}

start().catch((failure) => postMessage(JSON.stringify({ type: "failed", reason: String(failure?.message ?? failure) })));
