// A PDP-1 as WebAssembly for a program in another language (Python's WasmSimh): one machine a
// process, spoken to in lines of JSON on stdin, each answered by one line on stdout.
//
//   node web/node_machine.mjs [build/web/pdp1.js]
//   {"op": "file", "path": "/kalah.rim", "data": BASE64}   -> {"ok": true}
//   {"op": "command", "line": "cont", "budget": 1000000}    -> {"ok": true, "output", "stop", "spent", "status", "pc"}
//   {"op": "keys", "text": "1\r"}                            -> {"ok": true, "waiting": N}
// A request it cannot do is answered {"ok": false, "error": "..."}; end of input ends it.

import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Machine } from "./machine.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const built = path.resolve(process.argv[2] ?? path.join(here, "..", "build", "web", "pdp1.js"));
const machine = Machine.create(createRequire(import.meta.url)(built));

function answer(request) {
  switch (request.op) {
    case "file":
      machine.writeFile(request.path, Buffer.from(request.data, "base64"));
      return {};
    case "command":
      return machine.command(String(request.line), Number(request.budget ?? 0));
    case "keys":
      return { waiting: machine.keys(String(request.text)) };
    default:
      throw new Error(`no such op: ${JSON.stringify(request.op)}`);
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    reply = { ok: true, ...answer(JSON.parse(line)) };
  } catch (failure) {
    reply = { ok: false, error: String(failure?.message ?? failure) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
