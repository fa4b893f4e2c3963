// The daily box (/daily): today's solo turn on the day's dice, the same for everyone. The page
// keeps the decisions made and sends them all each time; the server replays them on the
// day's dice and answers where the turn stands, and at the end the score against perfect
// play, the accuracy and why each mistake was one. A result is kept once a day per browser
// (a random token in local storage). Every sentence comes from the server.

import { request } from "./api.js";
import { valueChart } from "./chart.js";
import { $, el, fill } from "./dom.js";
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

export async function show() {
  moves = [];
  picked = new Set();
  const box = $("daily");
  fill(box, el("p", {}, t("Setting out today's box…")));
  let state;
  try { state = await request("/api/daily"); } catch (error) { fill(box, el("p", { className: "error" }, error.message)); return; }
  day = state.day;
  lastTable = null;
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
  draw(state);
}

function draw(state, focusTile = null) {
  $("daily").dataset.moves = JSON.stringify(moves);
  const pending = state.pending;
  const open = new Set(state.board);
  const shutting = state.status === "playing" && pending.kind === "shut";
  const tiles = el("div", { className: "daily-tiles", role: "group", "aria-label": t("Tiles") },
    ...Array.from({ length: state.tiles }, (_, i) => i + 1).map((tile) => el("button", {
      type: "button", className: `daily-tile${open.has(tile) ? "" : " down"}`, "data-tile": tile,
      "aria-pressed": picked.has(tile) ? "true" : "false", disabled: !open.has(tile) || !shutting,
      on: { click: () => { if (picked.has(tile)) picked.delete(tile); else picked.add(tile); draw(state, tile); } },
    }, String(tile))));
  const controls = state.status !== "playing" ? null : pending.kind === "choose-dice"
    ? el("div", { className: "controls" }, ...pending.dice_choices.map((n) =>
      el("button", { type: "button", className: "primary", "data-dice": n, on: { click: () => send(n) } }, `${n} ${n === 1 ? "die" : "dice"}`)))
    : el("div", { className: "controls" }, el("button", { type: "button", id: "daily-shut", className: "primary",
      on: { click: () => send([...picked].sort((a, b) => b - a)) } }, t("Shut")));
  fill($("daily"),
    el("h2", {}, state.title),
    el("p", {}, state.intro),
    el("p", { className: "note" }, state.rules_text),
    tiles,
    pending.text ? el("p", { id: "daily-status", className: "status" }, pending.text) : null,
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
