// The first screen: the box, ready to roll against the computer (one tap makes the game and
// rolls), "Play with a friend" (one tap to the invitation), "How to play", and behind "More
// options" the full form: players (here, computer, or a friend's seat), rules, format, stake.
// The choices of each rule and format come from the server, in its words.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { drawDice } from "./dice.js";
import { t } from "./i18n.js";
import { offerOnce } from "./howto.js";
import * as player from "./player.js";

const STRENGTH_KEY = "shutthebox.strength";
const STRENGTHS = [["easy", t("easy")], ["medium", t("medium")], ["hard", t("hard (perfect play)")]];
const QUICK_TILES = 9;        // the usual box (the server's rules when none are chosen)

const KINDS = [
  ["here", t("Here, on this screen")],
  ["open", t("A friend (send a link)")],
  ["computer:easy", t("Computer: easy")],
  ["computer:medium", t("Computer: medium")],
  ["computer:hard", t("Computer: hard (perfect play)")],
];
const NUMBER_LABEL = { rounds: t("Rounds"), elimination: t("Out at (points)"), "loser-at": t("Game ends at (points)"), race: t("Target (points)") };
const RULE_FIELDS = ["tiles", "one_die", "one_die_forced", "moves", "max_tiles", "scoring", "instant_win"];

let navigate = () => {};
let ready = null;

export function init(go) {
  navigate = go;
  $("add-seat").addEventListener("click", () => {
    const n = $("seats").children.length + 1;
    addSeat(t("Player {number}", { number: n }), "here");
    $("seats").lastElementChild.querySelector("input").focus();
  });
  $("format").addEventListener("change", updateNumber);
  $("new-game").addEventListener("submit", start);
  ownName = player.seatName();
  addSeat(ownName, "here");   // the reader's seat: their claimed name, else "Player 1"
  window.addEventListener("shutthebox:player", renameOwnSeat);
  addSeat(t("Computer"), "computer:medium");
  updateNumber();
  ready = loadChoices().then(loadPresets);
  initQuick();
}

export async function show() {
  drawQuick();
  $("how-to-offer").hidden = !offerOnce();
  if (!$("more-options").open) $("quick-roll").focus();     // Enter rolls: no Tab at all
  player.offer();               // a new player is asked for a name, once
  await ready;
}

let ownName = null;         // the name the form gave the reader's seat by itself

/** The reader's seat follows their name (claimed, brought here, forgotten) unless someone
 * typed another. */
function renameOwnSeat() {
  const first = $("seats").querySelector(".seat-name");
  if (!first) return;
  const value = first.value.trim();
  if (value === ownName || GIVEN.test(value)) first.value = player.seatName();
  ownName = player.seatName();
}

function storedStrength() {
  try { return localStorage.getItem(STRENGTH_KEY) || "medium"; } catch { return "medium"; }
}

function initQuick() {
  const strength = $("quick-strength");
  fill(strength, ...STRENGTHS.map(([value, text]) => el("option", { value }, text)));
  strength.value = STRENGTHS.some(([value]) => value === storedStrength()) ? storedStrength() : "medium";
  strength.addEventListener("change", () => { try { localStorage.setItem(STRENGTH_KEY, strength.value); } catch { /* this visit only */ } });
  $("quick-roll").addEventListener("click", () => quickStart(
    [{ name: player.seatName(), kind: "here" }, { name: t("Computer"), kind: "computer", computer: strength.value }], true));
  $("quick-friend").addEventListener("click", () => quickStart(
    [{ name: player.seatName(), kind: "here" }, { name: t("Friend"), kind: "open" }], false));
}

/** The box of the first screen: every tile up, no dice yet (the game starts with the tap). */
function drawQuick() {
  const tiles = $("quick-tiles");
  if (!tiles.children.length) {
    tiles.style.setProperty("--tiles", String(QUICK_TILES));
    tiles.style.setProperty("--half", String(Math.ceil(QUICK_TILES / 2)));
    tiles.setAttribute("aria-hidden", "true");
    tiles.classList.add("many");
    for (let n = 1; n <= QUICK_TILES; n++) tiles.append(el("span", { className: "tile" }, el("span", { className: "tile-label" }, String(n))));
  }
  drawDice($("quick-dice"), null);
}

let starting = false;

/** One tap: the game is made (against the computer, or with a friend's seat), and the board
 * rolls at once (`roll`) or shows the invitation. */
async function quickStart(players, roll) {
  if (starting) return;
  starting = true;
  $("quick-error").textContent = "";
  for (const id of ["quick-roll", "quick-friend"]) $(id).setAttribute("aria-busy", "true");
  try {
    const state = await api.createGame({ players, format: "single" });
    await navigate(`/games/${state.id}`, state, { roll });
  } catch (problem) {
    $("quick-error").textContent = problem.message;
  } finally {
    starting = false;
    for (const id of ["quick-roll", "quick-friend"]) $(id).removeAttribute("aria-busy");
  }
}

function addSeat(name, kind) {
  const index = $("seats").children.length + 1;
  const nameId = `seat-name-${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const kindId = `${nameId}-kind`;
  const select = el("select", { id: kindId, className: "seat-kind" }, ...KINDS.map(([value, text]) => el("option", { value }, text)));
  select.value = kind;
  select.addEventListener("change", () => renameDefault(li, select.value));
  const li = el("li", { className: "seat" },
    el("label", { for: nameId }, t("Player {number}", { number: index })),
    el("input", { id: nameId, className: "seat-name", maxLength: 40, value: name, autocomplete: "off", required: true }),
    el("label", { for: kindId, className: "visually-hidden" }, t("Who plays as player {number}", { number: index })),
    select,
    el("button", { type: "button", className: "remove", "aria-label": t("Remove player {number}", { number: index }), on: { click: () => removeSeat(li) } }, t("Remove")));
  $("seats").append(li);
  renumber();
}

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The names the form gives by itself, in the page's language ("Player 2", "Computer", "Friend 3"). */
const GIVEN = new RegExp(`^(${literal(t("Player {number}")).replace("\\{number\\}", "\\d+")}|${literal(t("Computer"))}( \\d+)?|${literal(t("Friend"))}( \\d+)?)?$`);

// A name nobody typed follows the kind of seat: "Friend" for a friend's seat, and so on.
function renameDefault(li, kind) {
  const input = li.querySelector(".seat-name");
  if (!GIVEN.test(input.value.trim())) return;
  const index = [...$("seats").children].indexOf(li) + 1;
  const base = kind === "open" ? t("Friend") : kind.startsWith("computer") ? t("Computer") : null;
  const taken = [...$("seats").querySelectorAll(".seat-name")].filter((other) => other !== input).map((other) => other.value.trim());
  input.value = base === null ? t("Player {number}", { number: index }) : taken.includes(base) ? `${base} ${index}` : base;
}

function removeSeat(li) {
  const next = li.nextElementSibling || li.previousElementSibling;
  li.remove();
  renumber();
  if (next) next.querySelector("input").focus(); else $("add-seat").focus();
}

function renumber() {
  [...$("seats").children].forEach((li, i) => {
    li.querySelector("label").textContent = t("Player {number}", { number: i + 1 });
    li.querySelector(".seat-kind").previousElementSibling.textContent = t("Who plays as player {number}", { number: i + 1 });
    li.querySelector(".remove").setAttribute("aria-label", t("Remove player {number}", { number: i + 1 }));
    li.querySelector(".remove").hidden = $("seats").children.length === 1;
  });
}

function updateNumber() {
  const kind = $("format").value;
  const label = NUMBER_LABEL[kind];
  $("format-number-label").hidden = !label;
  if (label) $("format-number-label").firstChild.textContent = `${label} `;
}

/** Fills the rule and format selects with the server's choices (a rule keeps "as the rule
 * set", its first option). */
async function loadChoices() {
  try {
    const choices = await api.choices();
    for (const [field, options] of Object.entries(choices)) {
      const select = $(field === "format" ? "format" : `rule-${field}`);
      if (!select) continue;
      const kept = field === "format" ? [] : [select.options[0]];
      select.replaceChildren(...kept, ...options.map((o) => el("option", { value: o.value }, o.text)));
    }
    $("format").value = "single";
    updateNumber();
  } catch (error) { $("new-error").textContent = error.message; }
}

async function loadPresets() {
  try {
    const presets = await api.presets();
    $("preset").replaceChildren(...presets.map((p) => {
      const option = el("option", { value: p.name }, p.text);
      option.dataset.summary = p.summary;
      return option;
    }));
    const update = () => { $("preset-summary").textContent = $("preset").selectedOptions[0]?.dataset.summary || ""; };
    $("preset").addEventListener("change", update);
    update();
  } catch (error) { $("new-error").textContent = error.message; }
}

function readPlayers() {
  return [...$("seats").children].map((li, i) => {
    const name = li.querySelector(".seat-name").value.trim();
    const [kind, computer] = li.querySelector(".seat-kind").value.split(":");
    if (!name) throw new Error(t("Player {number} needs a name (a friend's seat takes a placeholder name they replace).", { number: i + 1 }));
    return computer ? { name, kind, computer } : { name, kind };
  });
}

function readRules() {
  const rules = {};
  for (const field of RULE_FIELDS) {
    const value = $(`rule-${field}`).value;
    if (value === "") continue;
    // A number's bounds are the rules' own: the server checks them and says why it refuses.
    if (field === "tiles" || field === "max_tiles") {
      const number = Number(value);
      rules[field] = value.trim() !== "" && Number.isFinite(number) ? number : value;
    } else rules[field] = field === "one_die_forced" || field === "instant_win" ? value === "true" : value;
  }
  return rules;
}

async function start(event) {
  event.preventDefault();
  const error = $("new-error");
  error.textContent = "";
  let spec;
  try {
    const players = readPlayers();
    const number = $("format-number").value.trim();
    const chosen = $("format").value;
    const kind = players.length === 1 && chosen === "single" ? "solo" : chosen;
    spec = { players, preset: $("preset").value || null, rules: readRules(), format: kind + (number && NUMBER_LABEL[kind] ? `:${number}` : ""), stake: $("stake").value.trim() || null };
    // The clock is for friends online: a game played here alone has none (the server says so).
    if (players.some((p) => p.kind === "open")) spec.clock = Number($("clock").value) || null;
  } catch (problem) {
    error.textContent = problem.message;
    return;
  }
  const button = $("start");
  button.disabled = true;
  try {
    const state = await api.createGame(spec);
    navigate(`/games/${state.id}`, state);
  } catch (problem) {
    error.textContent = problem.message;
  } finally {
    button.disabled = false;
  }
}
