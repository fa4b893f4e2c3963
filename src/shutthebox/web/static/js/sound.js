// Sound and vibration: the dice, a tile shutting, a shut box and a win, made here with the
// Web Audio API (no files, nothing from elsewhere), quiet, and a short buzz on a roll and a
// shut box on phones that have one. The player's choice is kept on the device; without one,
// the page is silent for those who ask the system to reduce motion.

import { reducedMotion } from "./dom.js";

const KEY = "shutthebox.sound";
const LEVEL = 0.12;          // quiet: a table's noises, not a fruit machine
let context = null;
let master = null;

/** Whether the page makes sounds: the player's choice, else on unless motion is reduced. */
export function enabled() {
  const chosen = localStorage.getItem(KEY);
  if (chosen === "on") return true;
  if (chosen === "off") return false;
  return !reducedMotion();
}

/** Keeps the player's choice on this device. */
export function choose(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) {
    context = new Context();
    master = context.createGain();
    master.gain.value = LEVEL;
    master.connect(context.destination);
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(ctx, { at = 0, freq, to = freq, length = 0.12, type = "triangle", volume = 1 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(master);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function click(ctx, { at = 0, length = 0.04, pitch = 2400, volume = 1 }) {
  const start = ctx.currentTime + at;
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(master);
  source.start(start);
}

const SOUNDS = {
  // dice rattling in the box, then landing on the felt
  roll: (ctx) => {
    for (let i = 0; i < 7; i++) click(ctx, { at: i * 0.055 + Math.random() * 0.02, pitch: 1800 + Math.random() * 1600, volume: 0.7 });
    click(ctx, { at: 0.46, pitch: 900, length: 0.06 });
    click(ctx, { at: 0.5, pitch: 1100, length: 0.05, volume: 0.8 });
  },
  // a wooden tile falling shut
  shut: (ctx) => {
    tone(ctx, { freq: 220, to: 120, length: 0.09, type: "sine", volume: 0.9 });
    click(ctx, { pitch: 700, length: 0.03, volume: 0.8 });
  },
  // every tile shut: a rising run
  "shut-box": (ctx) => {
    [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { at: i * 0.09, freq, length: 0.22, volume: 0.7 }));
  },
  // the match is won: a short call
  win: (ctx) => {
    [392, 523, 659].forEach((freq, i) => tone(ctx, { at: i * 0.12, freq, length: 0.16, volume: 0.6 }));
    tone(ctx, { at: 0.38, freq: 784, length: 0.5, volume: 0.7 });
  },
};

const BUZZ = { roll: 25, "shut-box": [40, 60, 80] };

/** Plays the sound `name` (roll, shut, shut-box, win) and its buzz, if the page makes sounds. */
export function play(name) {
  if (!enabled()) return;
  // A browser refuses (and logs an error for) a buzz before the reader has touched the
  // page: a friend who only watches the others' rolls has not.
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (BUZZ[name] && navigator.vibrate && touched) navigator.vibrate(BUZZ[name]);
  const ctx = audio();
  if (ctx && SOUNDS[name]) SOUNDS[name](ctx);
}

/** Connects the toggle (a checkbox) to the player's choice. */
export function init(toggle) {
  toggle.checked = enabled();
  toggle.addEventListener("change", () => {
    choose(toggle.checked);
    if (toggle.checked) play("shut");        // what it sounds like, and the browser's leave to play
  });
}
