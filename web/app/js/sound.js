// Short sounds made with Web Audio (no sound files): a move, a capture, the end, a refusal.

const KEY = "dama.sound";
let enabled = true;
try { enabled = localStorage.getItem(KEY) !== "off"; } catch { /* private mode */ }
/** @type {AudioContext | null} */
let ctx = null;

export function soundEnabled() {
  return enabled;
}

/** @param {boolean} on */
export function setSound(on) {
  enabled = on;
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode */ }
}

/**
 * @param {number} freq
 * @param {number} start
 * @param {number} length
 * @param {OscillatorType} [type]
 */
function tone(freq, start, length, type = "sine") {
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t0 = ctx.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(0.25, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/** @param {"move" | "capture" | "end" | "illegal"} kind */
export function play(kind) {
  if (!enabled) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") ctx.resume();
  } catch {
    return;
  }
  switch (kind) {
    case "move": tone(520, 0, 0.08, "triangle"); break;
    case "capture": tone(440, 0, 0.08, "square"); tone(660, 0.07, 0.1, "square"); break;
    case "end": tone(523, 0, 0.18); tone(659, 0.12, 0.18); tone(784, 0.24, 0.3); break;
    case "illegal": tone(160, 0, 0.15, "sawtooth"); break;
  }
}
