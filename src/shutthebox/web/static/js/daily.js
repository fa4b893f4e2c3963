// The daily box (/daily): today's solo turn on the day's dice, the same for everyone. The page
// keeps the decisions made and sends them all each time; the server replays them on the
// day's dice and answers where the turn stands, and at the end the score against perfect
// play, the accuracy and why each mistake was one. A result is kept once a day per browser
// (a random token in local storage). Every sentence comes from the server.

import { request } from "./api.js";
import { valueChart } from "./chart.js";
import { $, el, fill, announce } from "./dom.js";
import { drawDice } from "./dice.js";
import { play } from "./sound.js";
import { t } from "./i18n.js";

const TOKEN_KEY = "shutthebox.daily-token";

function dailyToken() {
  let token = null;
  try { token = localStorage.getItem(TOKEN_KEY); } catch { /* private mode */ }
  if (!token) {
    token = [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem(TOKEN_KEY, token); } catch { /* this visit only */ }
  }
  return token;
}

let moves = [];
let day = null;
let picked = new Set();
let lastTable = null;
let shownRoll = "";       // the roll on the felt: a new one tumbles, with its sound

export async function show() {
  moves = [];
  picked = new Set();
  const box = $("daily");
  fill(box, el("p", {}, t("Setting out today's box…")));
  let state;
  try { state = await request("/api/daily"); } catch (error) { fill(box, el("p", { className: "error" }, error.message)); return; }
  day = state.day;
  lastTable = null;
  shownRoll = "";
  draw(state);
  try { lastTable = await request(`/api/daily/results?day=${encodeURIComponent(day)}`); } catch { /* shown when it comes */ }
  if (lastTable) showTable(lastTable);
}

async function send(move) {
  const next = [...moves, move];
  let state;
  try {
    state = await request("/api/daily/turn", { method: "POST", body: { day, moves: next } });
  } catch (error) {
    $("daily-error").textContent = error.message;
    return;
  }
  moves = next;
  picked = new Set();
  if (Array.isArray(move)) play("shut");
  draw(state);
  announce(state.log.slice(-2).join(". "));        // the move, and the roll after it
}

function draw(state, focusTile = null) {
  $("daily").dataset.moves = JSON.stringify(moves);
  const pending = state.pending;
  const open = new Set(state.board);
  const shutting = state.status === "playing" && pending.kind === "shut";
  // the real board: the box's tiles, and the dice on the felt
  const tiles = el("div", { className: `tiles daily-tiles${state.tiles > 6 ? " many" : ""}`, role: "group", "aria-label": t("Tiles") },
    ...Array.from({ length: state.tiles }, (_, i) => i + 1).map((tile) => el("button", {
      type: "button", className: `tile daily-tile${open.has(tile) ? "" : " down"}${picked.has(tile) ? " picked" : ""}`, "data-tile": tile,
      "aria-pressed": picked.has(tile) ? "true" : "false", disabled: !open.has(tile) || !shutting,
      on: { click: () => {
        if (picked.has(tile)) picked.delete(tile); else picked.add(tile);
        draw(state, tile);
        const sum = [...picked].reduce((a, b) => a + b, 0);
        announce(picked.size ? `${[...picked].sort((a, b) => a - b).join(" + ")} = ${sum}` : pending.prompt || "");
      } },
    }, el("span", { className: "tile-label" }, String(tile)))));
  tiles.style.setProperty("--tiles", String(state.tiles));
  tiles.style.setProperty("--half", String(Math.ceil(state.tiles / 2)));
  const dice = el("div", { className: "dice", id: "daily-dice" });
  const roll = shutting && pending.roll ? pending.roll : null;
  const fresh = roll !== null && JSON.stringify(roll) !== shownRoll;
  shownRoll = roll ? JSON.stringify(roll) : shownRoll;
  if (fresh) play("roll");
  drawDice(dice, roll, { rolling: fresh });
  const board = el("div", { className: "box", role: "group", "aria-label": t("The box") }, tiles, dice);
  const controls = state.status !== "playing" ? null : pending.kind === "choose-dice"
    ? el("div", { className: "controls" }, ...pending.dice_choices.map((n) =>
      el("button", { type: "button", className: "primary", "data-dice": n, on: { click: () => send(n) } }, n === 1 ? t("Roll one die") : t("Roll two dice"))))
    : el("div", { className: "controls" }, el("button", { type: "button", id: "daily-shut", className: "primary",
      on: { click: () => send([...picked].sort((a, b) => b - a)) } }, t("Shut")));
  fill($("daily"),
    el("h2", {}, state.title),
    el("p", {}, state.intro),
    el("details", { className: "note" }, el("summary", {}, t("The rules")), el("p", {}, state.rules_text)),
    board,
    pending.text ? el("p", { id: "daily-status", className: "status" }, pending.prompt || pending.text) : null,
    controls,
    el("p", { id: "daily-error", className: "error", role: "alert" }),
    state.result ? finished(state.result) : null,
    el("details", { className: "daily-log" }, el("summary", {}, t("The turn so far")), el("ol", {}, ...state.log.map((line) => el("li", {}, line)))),
    el("section", { id: "daily-table", "aria-labelledby": "daily-table-title" }, el("h2", { id: "daily-table-title" }, t("Today's results"))));
  if (lastTable) showTable(lastTable);
  const focus = focusTile !== null ? document.querySelector(`#daily .daily-tile[data-tile="${focusTile}"]`)
    : document.querySelector("#daily .controls button");
  if (focus) focus.focus();
}

function finished(result) {
  const name = el("input", { id: "daily-name", maxLength: 40, value: "You", autocomplete: "nickname" });
  const keep = el("button", { type: "button", className: "primary", on: { click: async () => {
    let answer;
    try {
      answer = await request("/api/daily/results", { method: "POST", body: { day, moves, name: name.value },
        headers: { Authorization: `Bearer ${dailyToken()}` } });
    } catch (error) { $("daily-error").textContent = error.message; return; }
    keep.disabled = true;
    lastTable = answer.table;
    showTable(answer.table);
    $("daily-kept").replaceChildren(el("a", { href: answer.review, "data-link": "" }, t("Review this turn")));
  } } }, t("Keep my result"));
  return el("section", { className: "daily-result learner", "aria-labelledby": "daily-result-title" },
    el("h2", { id: "daily-result-title" }, t("Your result")),
    ...result.lines.map((line) => el("p", {}, line)),
    valueChart(result.review, $("daily").clientWidth),
    el("p", {}, el("label", { for: "daily-name" }, t("Your name for the table") + " "), name, " ", keep),
    el("p", { id: "daily-kept" }));
}

function showTable(found) {
  const box = $("daily-table");
  if (!box) return;
  fill(box, el("h2", { id: "daily-table-title" }, t("Today's results")), el("p", {}, found.text),
    found.results.length ? el("table", { className: "daily-results" },
      el("thead", {}, el("tr", {}, ...[t("Place"), t("Player"), t("Score")].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...found.results.map((r) => el("tr", {}, el("td", {}, String(r.place)), el("td", {}, r.player), el("td", {}, String(r.score)))))) : null);
}
