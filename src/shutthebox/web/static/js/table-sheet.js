// The score sheet of a real table: the players, each round's scores typed in, and what the
// format makes of them (the players out, the winners, the pot, the ledger), all worked out
// by the server (/api/sheets). The phone keeps each sheet's id and secret token, so it can
// open its sheets again later and only it can change them; anyone with the sheet's address
// (/table?sheet=ID) can read it.

import { $, el, fill, announce } from "./dom.js";
import { request } from "./api.js";
import { t } from "./i18n.js";
import { presetMenu, formatMenu, formatOf } from "./table-common.js";

const KEPT = "shutthebox.sheets";
const MAX_PLAYERS = 12;
let sheet = null;

function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "[]") || []; } catch { return []; }
}

function keep(list) {
  try { localStorage.setItem(KEPT, JSON.stringify(list.slice(0, 50))); } catch { /* private mode: kept this visit */ }
}

function tokenOf(id) {
  const found = kept().find((s) => s.id === id);
  return found ? found.token : null;
}

function error(message) {
  $("sheet-error").textContent = message || "";
}

function playerInput(name = "") {
  const count = $("sheet-players").children.length + 1;
  const input = el("input", { value: name, maxLength: 40, autocomplete: "off", required: true, "aria-label": t("Player {n}", { n: count }) });
  const item = el("li", {}, input, el("button", {
    type: "button", className: "small", "aria-label": t("Remove player {n}", { n: count }),
    on: { click: () => { if ($("sheet-players").children.length > 1) item.remove(); } },
  }, "×"));
  $("sheet-players").append(item);
  return input;
}

function drawKept() {
  const list = kept();
  fill($("sheet-kept"), list.length ? list.map((s) => el("li", {},
    el("a", { href: `/table?sheet=${s.id}`, on: { click: (event) => { event.preventDefault(); open(s.id); } } }, s.title)))
    : el("li", { className: "muted" }, t("No sheet yet.")));
}

function gameTable(game, names) {
  const winners = new Set(game.winners);
  const head = el("tr", {}, el("th", { scope: "col" }, t("Round")),
    ...names.map((name, seat) => el("th", { scope: "col", className: winners.has(seat) ? "winner" : "" }, name)));
  const rows = [];
  for (const round of game.rounds) {
    rows.push(el("tr", {}, el("th", { scope: "row" }, String(round.number)),
      ...round.scores.map((score) => el("td", {}, score === null ? "–" : String(score)))));
    if (round.lines.length) rows.push(el("tr", { className: "said" }, el("td", { colSpan: names.length + 1 }, round.lines.join(" · "))));
  }
  const totals = el("tr", { className: "totals" }, el("th", { scope: "row" }, t("Total")),
    ...game.totals.map((total, seat) => el("td", { className: game.playing[seat] ? "" : "out" }, String(total))));
  return el("table", { className: "sheet" },
    el("caption", {}, t("Game {number}", { number: game.number })),
    el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, totals));
}

function draw(view) {
  sheet = view;
  const token = tokenOf(view.id);
  $("sheet-start").hidden = true;
  $("sheet-open").hidden = false;
  $("sheet-heading").textContent = view.title;
  $("sheet-goal").textContent = view.goal;
  $("sheet-rules-text").textContent = view.rules_text;
  fill($("sheet-games"), [...view.games].reverse().map((game) => gameTable(game, view.players)));
  $("sheet-round").hidden = !token;
  $("sheet-readonly").hidden = Boolean(token);
  $("sheet-next").textContent = view.next.heading;
  fill($("sheet-inputs"), view.players.map((name, seat) => {
    const playing = view.next.playing[seat];
    return el("label", { className: "score" }, el("span", {}, name),
      el("input", { inputMode: "numeric", autocomplete: "off", size: 5, disabled: !playing, placeholder: playing ? "" : t("out"), "data-seat": seat }));
  }));
  $("sheet-undo").hidden = !view.rounds;
  $("sheet-ledger").textContent = view.ledger.text || "";
  const list = kept();
  const mine = list.find((s) => s.id === view.id);
  if (mine) { mine.title = `${view.players.join(", ")} · ${view.format_text}`; keep([mine, ...list.filter((s) => s !== mine)]); }
}

async function open(id) {
  error("");
  try {
    draw(await request(`/api/sheets/${encodeURIComponent(id)}`));
    history.replaceState(null, "", `/table?sheet=${id}`);
  } catch (failure) {
    error(failure.message);
  }
}

async function begin(event) {
  event.preventDefault();
  error("");
  const players = [...$("sheet-players").querySelectorAll("input")].map((input) => input.value.trim()).filter(Boolean);
  const body = { players, preset: $("sheet-rules").value, format: formatOf($("sheet-format"), $("sheet-limit")) };
  const stake = $("sheet-stake").value.trim();
  if (stake) body.stake = stake;
  try {
    const answer = await request("/api/sheets", { method: "POST", body });
    keep([{ id: answer.sheet.id, token: answer.token, title: players.join(", ") }, ...kept()]);
    draw(answer.sheet);
    history.replaceState(null, "", `/table?sheet=${answer.sheet.id}`);
    announce(answer.sheet.next.heading);
    $("sheet-inputs").querySelector("input:not([disabled])").focus();
  } catch (failure) {
    error(failure.message);
  }
}

async function change(method, path, body) {
  error("");
  try {
    const view = await request(`/api/sheets/${sheet.id}${path}`, { method, body, headers: { Authorization: `Bearer ${tokenOf(sheet.id)}` } });
    draw(view);
    const last = view.games.length ? view.games[view.games.length - 1] : null;
    const said = last && last.rounds.length ? last.rounds[last.rounds.length - 1].lines : [];
    announce([...said, view.next.heading].join(" "));
    const next = $("sheet-inputs").querySelector("input:not([disabled])");
    if (next) next.focus();
  } catch (failure) {
    error(failure.message);
  }
}

function enter(event) {
  event.preventDefault();
  const scores = [...$("sheet-inputs").querySelectorAll("input")].map((input) => {
    const text = input.value.trim();
    return input.disabled || text === "" ? null : Number(text);
  });
  change("POST", "/rounds", { scores, rounds: sheet.rounds });
}

/** Builds the score sheet's forms, and opens the sheet the address names, if any. */
export async function start(presets, choices) {
  presetMenu($("sheet-rules"), presets);
  formatMenu($("sheet-format"), choices);
  $("sheet-format").value = "single";
  playerInput();
  playerInput();
  $("sheet-add").addEventListener("click", () => {
    if ($("sheet-players").children.length < MAX_PLAYERS) playerInput().focus();
  });
  $("sheet-form").addEventListener("submit", begin);
  $("sheet-round").addEventListener("submit", enter);
  $("sheet-undo").addEventListener("click", () => change("DELETE", "/rounds/last"));
  $("sheet-close").addEventListener("click", () => {
    sheet = null;
    $("sheet-open").hidden = true;
    $("sheet-start").hidden = false;
    history.replaceState(null, "", "/table");
    drawKept();
  });
  drawKept();
  const wanted = new URLSearchParams(location.search).get("sheet");
  if (wanted) await open(wanted);
}
