// The typewriter's sound, synthesised (no sound files): a strike a character, the carriage return, the
// bell at the game's end, a tick for each seed sown. Silent until the server's configuration allows it,
// and until a touch has let the browser start audio.

let enabled = false;
let ctx = null;
let next = 0;  // when the last queued strike ends (a typewriter's pace, never a backlog)
let restTimer = null;
const REST_MS = 500;  // after the last sound ends, the context is put to rest this much later

export function setEnabled(on) { enabled = Boolean(on); }

export function status() { return { enabled, ctx }; }

// the audio context, started on the first touch (browsers start audio only on a gesture)
export function wake() {
  if (!enabled) return null;
  if (!ctx) { try { ctx = new AudioContext(); } catch (e) { enabled = false; return null; } }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

// A running audio context renders silence all the time it is not playing (a few per cent of a core of the
// visitor's machine, all the while they think): once its last sound has ended it is suspended, and woken again
// (``wake``) by the next.
function restAfter(end) {
  clearTimeout(restTimer);
  restTimer = setTimeout(() => { if (ctx.state === "running") ctx.suspend(); },
    Math.max(0, end - ctx.currentTime) * 1000 + REST_MS);
}

function noise(at, length, freq, gain, q = 1.5) {
  const buffer = ctx.createBuffer(1, Math.max(1, Math.floor(ctx.sampleRate * length)), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / data.length, 3);
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass"; filter.frequency.value = freq; filter.Q.value = q;
  const g = ctx.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ctx.destination);
  src.start(at);
}

function strike(at) { noise(at, 0.035, 2400, 0.9); noise(at, 0.02, 600, 0.5); }

function carriageReturn(at) {
  noise(at, 0.25, 900, 0.25, 0.7);
  const o = ctx.createOscillator(), g = ctx.createGain();
  o.frequency.setValueAtTime(120, at + 0.24); o.frequency.exponentialRampToValueAtTime(60, at + 0.32);
  g.gain.setValueAtTime(0.5, at + 0.24); g.gain.exponentialRampToValueAtTime(0.001, at + 0.34);
  o.connect(g).connect(ctx.destination); o.start(at + 0.24); o.stop(at + 0.36);
}

export function typed(text) {
  if (!wake()) return;
  const now = ctx.currentTime;
  if (next < now) next = now;
  for (const ch of text) {
    if (next > now + 0.6) break;  // text arriving faster than a typewriter: no backlog of sound
    if (ch === "\n") { carriageReturn(next); next += 0.3; }
    else if (ch !== " ") { strike(next); next += 0.05; }
    else next += 0.03;
  }
  restAfter(next);
}

export function seed() { if (wake()) { noise(ctx.currentTime, 0.03, 1200, 0.25, 4); restAfter(ctx.currentTime + 0.03); } }

export function bell() {
  if (!wake()) return;
  const at = Math.max(ctx.currentTime, next);
  for (const [f, v] of [[2093, 0.35], [4186, 0.12]]) {
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = f;
    g.gain.setValueAtTime(v, at); g.gain.exponentialRampToValueAtTime(0.0005, at + 1.6);
    o.connect(g).connect(ctx.destination); o.start(at); o.stop(at + 1.7);
  }
  restAfter(at + 1.7);
}
