// The sentences about the game that the page completes itself (what the tiles picked add up
// to, why a pick is refused, a round's end, a tile as a screen reader names it, the hint's
// captions): the server makes them, in the reader's language, and sends them once as
// templates with /api/choices; the page only fills in the numbers and names.

import * as api from "./api.js";

const templates = {};

/** Settles when the templates have come (or could not: then the sentences are empty). */
export const loaded = api.choices().then((choices) => { Object.assign(templates, choices.sentences || {}); }, () => {});

/** The server's sentence `key` with its {placeholders} filled from `values`. */
export function say(key, values = {}) {
  return (templates[key] || "").replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
