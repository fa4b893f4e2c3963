// The daily box (/daily): the day's solo turn, the same dice for everyone on this server, played
// under the name this device claimed (its player token, kept by api.js and sent with every
// request). The server keeps the turn: the page sends one decision at a time, numbered by the
// count of decisions made before it ("at"), and the server deals the roll after a decision
// only once it has stored it, so the page never holds a roll it has not earned. Reloading
// the page resumes the stored turn; at the end the server sends the score against perfect
// play on the same dice, the accuracy and why each mistake was one, and keeps the result in
// the day's table itself. Every sentence comes from the server.

import { player, request } from "./api.js";
import { valueChart } from "./chart.js";
import { $, el, fill, announce } from "./dom.js";
import { drawDice } from "./dice.js";
import { play } from "./sound.js";
import { t } from "./i18n.js";

let day = null;
let picked = new Set();
let lastTable = null;
let sending = false;
let shownRoll = "";       // the roll on the felt: a new one tumbles, with its sound

export async function show() {
  picked = new Set();
  sending = false;
  lastTable = null;
  shownRoll = "";
  const box = $("daily");
  fill(box, el("p", {}, t("Setting out today's box…")));
  let found;
  try { found = await request("/api/daily"); } catch (error) { fill(box, el("p", { className: "error" }, error.message)); return; }
  day = found.day;
  if (!player()) {
    draw(found, `${found.unclaimed[0].toUpperCase()}${found.unclaimed.slice(1)}.`);    // as api.js says a refusal
  } else {
    try {
      draw(await turnRequest("/api/daily/turn", { day }));
    } catch (error) {
      draw(found, error.status === 401 ? error.message : null, error.message);
    }
  }
  await refreshTable();
}

function turnRequest(path, body) {
  return request(path, { method: "POST", body });       // (api.js sends the player token)
}

async function refreshTable() {
  try { lastTable = await request(`/api/daily/results?day=${encodeURIComponent(day)}`); } catch { return; }
  showTable(lastTable);
}

async function send(state, decision) {
  if (sending) return;
  sending = true;
  let next;
  try {
    next = await turnRequest("/api/daily/turn/decisions", { day, at: state.at, decision });
  } catch (error) {
    sending = false;
    if (error.status === 409) {              // decided elsewhere (another tab): the turn as stored
      try { draw(await turnRequest("/api/daily/turn", { day })); } catch { /* the sentence below */ }
    }
    const said = $("daily-error");
    if (said) said.textContent = error.message;
    return;
  }
  sending = false;
  picked = new Set();
  if (Array.isArray(decision)) play("shut");
  draw(next);
  announce(next.log.slice(-2).join(". "));        // the move, and the roll after it
  if (next.result) await refreshTable();
}

// ``state``: the player's turn as the server answers it, or the day's box alone (no turn:
// ``unclaimed`` says why, as a link to the first screen where a name is claimed).
function draw(state, unclaimed = null, problem = null, focusTile = null) {
  const turn = state.pending !== undefined;
  $("daily").dataset.at = turn ? String(state.at) : "";
  $("daily").dataset.status = turn ? state.status : "unclaimed";
  const pending = turn ? state.pending : {};
  const open = new Set(turn ? state.board : Array.from({ length: state.tiles }, (_, i) => i + 1));
  const shutting = turn && state.status === "playing" && pending.kind === "shut";
  // the real board: the box's tiles, and the dice on the felt
  const tiles = el("div", { className: `tiles daily-tiles${state.tiles > 6 ? " many" : ""}`, role: "group", "aria-label": t("Tiles") },
    ...Array.from({ length: state.tiles }, (_, i) => i + 1).map((tile) => el("button", {
      type: "button", className: `tile daily-tile${open.has(tile) ? "" : " down"}${picked.has(tile) ? " picked" : ""}`, "data-tile": tile,
      "aria-pressed": picked.has(tile) ? "true" : "false", disabled: !open.has(tile) || !shutting,
      on: { click: () => {
        if (picked.has(tile)) picked.delete(tile); else picked.add(tile);
        draw(state, null, null, tile);
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
  const controls = !turn || state.status !== "playing" ? null : pending.kind === "choose-dice"
    ? el("div", { className: "controls" }, ...pending.dice_choices.map((n) =>
      el("button", { type: "button", className: "primary", "data-dice": n, on: { click: () => send(state, n) } }, n === 1 ? t("Roll one die") : t("Roll two dice"))))
    : el("div", { className: "controls" }, el("button", { type: "button", id: "daily-shut", className: "primary",
      on: { click: () => send(state, [...picked].sort((a, b) => a - b)) } }, t("Shut")));
  fill($("daily"),
    el("h2", {}, state.title),
    el("p", {}, state.intro),
    el("details", { className: "note" }, el("summary", {}, t("The rules")), el("p", {}, state.rules_text)),
    unclaimed ? el("p", { id: "daily-claim", className: "error", role: "alert" }, el("a", { href: "/", "data-link": "" }, unclaimed)) : null,
    board,
    turn && pending.text ? el("p", { id: "daily-status", className: "status" }, pending.prompt || pending.text) : null,
    controls,
    el("p", { id: "daily-error", className: "error", role: "alert" }, unclaimed ? "" : problem || ""),
    turn && state.result ? finished(state) : null,
    turn ? el("details", { className: "daily-log" }, el("summary", {}, t("The turn so far")), el("ol", {}, ...state.log.map((line) => el("li", {}, line)))) : null,
    el("section", { id: "daily-table", "aria-labelledby": "daily-table-title" }, el("h2", { id: "daily-table-title" }, t("Today's results"))));
  if (lastTable) showTable(lastTable);
  const focus = focusTile !== null ? document.querySelector(`#daily .daily-tile[data-tile="${focusTile}"]`)
    : document.querySelector("#daily .controls button");
  if (focus) focus.focus();
}

function finished(state) {
  const result = state.result;
  return el("section", { className: "daily-result learner", "aria-labelledby": "daily-result-title" },
    el("h2", { id: "daily-result-title" }, t("Your result")),
    ...result.lines.map((line) => el("p", {}, line)),
    valueChart(result.review, $("daily").clientWidth),
    state.review ? el("p", { id: "daily-kept" }, el("a", { href: state.review, "data-link": "" }, t("Review this turn"))) : null);
}

function showTable(found) {
  const box = $("daily-table");
  if (!box) return;
  fill(box, el("h2", { id: "daily-table-title" }, t("Today's results")), el("p", {}, found.text),
    found.results.length ? el("table", { className: "daily-results" },
      el("thead", {}, el("tr", {}, ...[t("Place"), t("Player"), t("Score")].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...found.results.map((r) => el("tr", {}, el("td", {}, String(r.place)), el("td", {}, r.player), el("td", {}, String(r.score)))))) : null);
}
