// The Worker's Python: Pyodide started with the project's code already imported, from a snapshot of that moment
// that an earlier visit kept in this browser's own cache storage, when there is one.
//
// Why: starting CPython in WebAssembly and importing the game driver takes about 2 s of the visitor's machine
// on every visit, the same work each time.  Pyodide can save its memory at a moment and start from it again
// (its `_makeSnapshot` and `_loadSnapshot` options, pinned with Pyodide by web/package-lock.json): the first
// visit saves the moment just after the imports (31 MB, kept with the site's other data in this browser, never
// sent anywhere), and a return starts from it in about 0.4 s.  A snapshot is only good for the same Python
// (python.zip), the same Pyodide and the same browser; its name says all three, so a site that is updated, or a
// browser that is, makes a new one and the old one is deleted.  A snapshot that will not start is deleted and
// Python starts as on a first visit.  Where the browser keeps no cache storage (a page served over plain http
// from another machine is not a "secure context"), every visit starts Python afresh.

import { loadPyodide, version } from "./pyodide/pyodide.mjs";

const STORE = "kalah-python-snapshot";  // the cache storage's name: this site's, in this browser
const PREPARE = `
import sys
sys.path.insert(0, "/kalah")
import pyodide.ffi
import python_bridge.browser.worker
`;

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The snapshot's name: a URL of this site's, never fetched (the cache storage keys its entries by URL); the
 *  same for every folder of the site that holds the same Python. */
async function snapshotName(python) {
  const browser = await sha256(new TextEncoder().encode(`${version} ${navigator.userAgent}`));
  return new URL(`/python-snapshot/${await sha256(python)}-${browser.slice(0, 16)}`, self.location.origin).href;
}

async function openStore() {
  try {
    return self.caches && crypto.subtle ? await caches.open(STORE) : null;
  } catch {
    return null;  // (storage turned off, a private window's rules)
  }
}

/** Keep `snapshot` as `name`, and no other: the store holds one snapshot, the current site's. */
async function keep(store, name, snapshot) {
  for (const old of await store.keys()) {
    if (old.url !== name) await store.delete(old);
  }
  await store.put(name, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
}

/** Pyodide with python.zip's packages unpacked at /kalah and the Worker's Python imported; and how it started:
 *  {pyodide, fromSnapshot}. */
export async function startPython(python) {
  const indexURL = new URL("./pyodide/", import.meta.url).href;
  const store = await openStore();
  const name = store && await snapshotName(python);
  const saved = store && await store.match(name);
  if (saved) {
    try {
      const pyodide = await loadPyodide({ indexURL, _loadSnapshot: new Uint8Array(await saved.arrayBuffer()) });
      pyodide.unpackArchive(python, "zip", { extractDir: "/kalah" });  // (files: the tape, modules not imported yet)
      pyodide.runPython("import python_bridge.browser.worker");  // (there already: a snapshot that lacks it fails here)
      return { pyodide, fromSnapshot: true };
    } catch (failure) {
      console.warn(`the saved Python would not start (${failure?.message ?? failure}): starting afresh`);
      await store.delete(name);
    }
  }
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: Boolean(store) });
  pyodide.unpackArchive(python, "zip", { extractDir: "/kalah" });
  pyodide.runPython(PREPARE);
  if (store) {
    keep(store, name, pyodide.makeMemorySnapshot())
      .catch((failure) => console.warn(`the Python snapshot was not kept: ${failure?.message ?? failure}`));
  }
  return { pyodide, fromSnapshot: false };
}
