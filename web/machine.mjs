// The PDP-1 as WebAssembly: one machine, driven in slices, for node (web/node_machine.mjs) and a browser's Worker.
//
// Why slices: the emulator never runs on its own.  Each call runs one SIMH command line (as typed at
// `sim>`: `attach ptr /kalah.rim`, `boot ptr`, `cont`, `step 100`, `examine pc`, `break 5562`,
// `show time` ...) and a run stops after at most `budget` instructions, so a page stays idle while the
// visitor thinks and a Worker takes keys between slices.  Keys wait in a queue that the typewriter's
// keyboard poll (SIMH's own pdp1_stddev.c) takes one a poll, echoing them as on a terminal.
//
// The module built by `make web` (build/web/pdp1.js) is given, not imported, since node loads it with
// require() and a Worker with importScripts() or as a module of its own.

const decoder = new TextDecoder("latin1"); // SIMH's bytes as characters, one for one

export class Machine {
  /** A machine of its own from the module factory `createPdp1` (options: emscripten's, e.g. wasmBinary). */
  static create(createPdp1, options = {}) {
    const module = createPdp1({ print: () => {}, printErr: () => {}, ...options });
    const failed = module._web_init();
    if (failed) throw new Error("SIMH could not set up its console");
    return new Machine(module);
  }

  constructor(module) {
    this.module = module;
  }

  /** A file in the machine's in-memory file system (a tape to attach or load). */
  writeFile(path, bytes) {
    this.module.FS.writeFile(path, bytes);
  }

  /** Run one SIMH command line; a run stops after at most `budget` instructions (0: no limit).
   *  Returns {output, stop, spent, status, pc}: what the command printed (the typewriter's output
   *  for a run), the message SIMH printed when the run stopped by itself ("" if it did not, or
   *  its budget ended it: then `spent`), SIMH's status (0 when it took the command) and the PC. */
  command(line, budget = 0) {
    const m = this.module;
    const status = m.ccall("web_command", "number", ["string", "number"], [line, budget]);
    const start = m._web_output();
    const all = decoder.decode(m.HEAPU8.subarray(start, start + m._web_output_length()));
    const runEnd = m._web_run_end();
    const spent = m._web_budget_spent() === 1;
    if (runEnd < 0) return { output: all, stop: "", spent, status, pc: m._web_pc() };
    return { output: all.slice(0, runEnd), stop: spent ? "" : all.slice(runEnd), spent, status, pc: m._web_pc() };
  }

  /** Keys typed on the console typewriter, each taken at a keyboard poll; how many wait. */
  keys(text) {
    return this.module.ccall("web_keys", "number", ["string"], [text]);
  }

  /** Keys typed but not yet taken by the keyboard poll. */
  keysWaiting() {
    return this.module._web_keys_waiting();
  }
}
