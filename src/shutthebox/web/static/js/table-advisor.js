// The advisor: tap the tiles still open on a wooden box and the dice rolled, and see every
// move ranked by the coach (POST /api/advice), with what each costs against the best; in a
// match, by the chance to win given the totals and the scores posted.

import { $, el, fill, announce } from "./dom.js";
import { request } from "./api.js";
import { die } from "./dice.js";
import { t } from "./i18n.js";
import { presetMenu, formatMenu, formatOf, numbers } from "./table-common.js";

let presets = [];
let sentences = {};
const chosen = { open: new Set(), dice: [null, null] };

function tileCount() {
  const found = presets.find((p) => p.name === $("advisor-rules").value);
  return found ? found.rules.tiles : 9;
}

function drawTiles() {
  fill($("advisor-tiles"), Array.from({ length: tileCount() }, (_, i) => {
    const tile = i + 1;
    const open = chosen.open.has(tile);
    return el("button", {
      type: "button", className: "tile", "aria-pressed": String(open),
      "aria-label": t(open ? sentences.tile_open : sentences.tile_shut, { tile }),   // (sent translated)
      on: { click: () => { if (open) chosen.open.delete(tile); else chosen.open.add(tile); drawTiles(); $(`advisor-tiles`).querySelectorAll("button")[i].focus(); } },
    }, String(tile));
  }));
}

function drawFaces() {
  [0, 1].forEach((which) => {
    const faces = [1, 2, 3, 4, 5, 6].map((face) => el("button", {
      type: "button", className: "face", "aria-pressed": String(chosen.dice[which] === face),
      on: { click: () => { chosen.dice[which] = chosen.dice[which] === face ? null : face; drawFaces(); $(`advisor-die-${which + 1}`).querySelectorAll("button")[face - 1].focus(); } },
    }, die(face)));
    fill($(`advisor-die-${which + 1}`), faces);
  });
}

function full() {
  chosen.open = new Set(Array.from({ length: tileCount() }, (_, i) => i + 1));
  chosen.dice = [null, null];
  drawTiles();
  drawFaces();
  fill($("advisor-answer"));
}

function position() {
  const body = { preset: $("advisor-rules").value, open: [...chosen.open].sort((a, b) => a - b) };
  const roll = chosen.dice.filter((face) => face !== null);
  if (roll.length) body.roll = roll;
  const format = formatOf($("advisor-format"), $("advisor-limit"));
  if (format) {
    body.format = format;
    const totals = numbers($("advisor-totals").value);
    if (totals.length) body.totals = totals;
    body.posted = numbers($("advisor-posted").value);
    body.round = Number($("advisor-round").value.trim() || "1");
  }
  return body;
}

function shown(value, chance) {
  return chance ? `${(value * 100).toFixed(1)} %` : value.toFixed(2);
}

function ranking(answer) {
  const chance = Boolean(answer.chance);
  const head = el("tr", {},
    el("th", { scope: "col" }, t("Move")),
    el("th", { scope: "col" }, chance ? sentences.hint_chance_to_win : sentences.hint_expected_score),
    el("th", { scope: "col" }, chance ? sentences.hint_loses_chance : sentences.hint_loses_points),
    el("th", { scope: "col" }, sentences.hint_chance_to_shut));
  const rows = answer.options.map((option, i) => el("tr", { className: i === 0 ? "best" : "" },
    el("th", { scope: "row" }, option.text),
    el("td", {}, shown(option.value, chance)),
    el("td", {}, option.loss === 0 ? sentences.hint_best : shown(option.loss, chance)),
    el("td", {}, shown(option.p_shut, true))));
  return el("table", { className: "ranking" },
    el("caption", {}, chance ? sentences.hint_caption_chance : sentences.hint_caption_score),
    el("thead", {}, head), el("tbody", {}, rows));
}

async function rank() {
  const answer$ = $("advisor-answer");
  fill(answer$, el("p", { className: "muted" }, t("Working it out…")));
  try {
    const answer = await request("/api/advice", { method: "POST", body: position() });
    fill(answer$,
      answer.message ? el("p", {}, answer.message) : null,
      answer.note ? el("p", { className: "muted" }, answer.note) : null,
      answer.options.length ? ranking(answer) : null);
    answer$.scrollIntoView({ block: "start" });
    if (answer.options.length) announce(t("Best move: {move}", { move: answer.options[0].text }));
    else if (answer.message) announce(answer.message);
  } catch (error) {
    fill(answer$, el("p", { className: "error", role: "alert" }, error.message));
  }
}

/** Builds the advisor from the presets and the choices in words. */
export function start(loadedPresets, choices) {
  presets = loadedPresets;
  sentences = choices.sentences;
  presetMenu($("advisor-rules"), presets);
  formatMenu($("advisor-format"), choices, { first: t("None: rank by the expected score"), solo: false });
  $("advisor-rules").addEventListener("change", full);
  $("advisor-rank").addEventListener("click", rank);
  $("advisor-reset").addEventListener("click", full);
  full();
}
