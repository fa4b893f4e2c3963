// Shut the Box page: renders what the JSON API returns. No game rules live here: the
// server rolls, checks moves and says what is legal.
"use strict";

const $ = (id) => document.getElementById(id);
const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const STEP_MS = 450;
let game = null;          // the last state from the server
let selected = new Set(); // tiles the human has picked
let busy = false;

async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "Content-Type": "application/json" }, ...options,
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    throw new Error(detail || `request failed (${response.status})`);
  }
  return data;
}

// --- views ---------------------------------------------------------------------------

function show(view) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${view}`;
  if (view === "history") loadHistory();
}

document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
  if (b.dataset.view === "new") location.hash = "";
  show(b.dataset.view);
}));
$("home-link").addEventListener("click", (e) => { e.preventDefault(); location.hash = ""; show("new"); });

// --- new game ------------------------------------------------------------------------

function addSeat(name = "", computer = "") {
  const li = document.createElement("li");
  const index = $("seats").children.length + 1;
  li.innerHTML = `<label>Name <input class="seat-name" required maxlength="40"></label>
    <label>Player <select class="seat-kind" aria-label="Player ${index} kind">
      <option value="">human</option><option value="easy">computer: easy</option>
      <option value="medium">computer: medium</option><option value="hard">computer: hard (optimal)</option>
    </select></label>
    <button type="button" class="remove" aria-label="Remove player ${index}">✕</button>`;
  li.querySelector(".seat-name").value = name;
  li.querySelector(".seat-name").setAttribute("aria-label", `Player ${index} name`);
  li.querySelector(".seat-kind").value = computer;
  li.querySelector(".remove").addEventListener("click", () => li.remove());
  $("seats").append(li);
}

async function loadPresets() {
  const presets = await api("/api/presets");
  for (const p of presets) {
    const option = new Option(`${p.name} (${p.rules.tiles} tiles)`, p.name);
    option.dataset.summary = `${p.summary} - rule sheet ${p.source}`;
    $("preset").append(option);
  }
  const update = () => { $("preset-summary").textContent = $("preset").selectedOptions[0]?.dataset.summary || ""; };
  $("preset").addEventListener("change", update);
  update();
}

$("add-seat").addEventListener("click", () => addSeat(`Player ${$("seats").children.length + 1}`));

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("new-error").textContent = "";
  const players = [...$("seats").children].map((li) => ({
    name: li.querySelector(".seat-name").value.trim(),
    computer: li.querySelector(".seat-kind").value || null,
  }));
  const rules = {};
  for (const field of ["tiles", "one_die", "one_die_forced", "moves", "max_tiles", "scoring", "instant_win"]) {
    const value = $(`rule-${field}`).value;
    if (value === "") continue;
    rules[field] = ["tiles", "max_tiles"].includes(field) ? Number(value)
      : ["one_die_forced", "instant_win"].includes(field) ? value === "true" : value;
  }
  const number = $("format-number").value;
  const kind = players.length === 1 && $("format").value === "single" ? "solo" : $("format").value;
  const format = kind + (number ? `:${number}` : "");
  const stake = $("stake").value.trim() || null;
  try {
    const state = await api("/api/games", { method: "POST", body: { players, preset: $("preset").value, rules, format, stake } });
    openGame(state, true);
  } catch (error) { $("new-error").textContent = error.message; }
});

// --- the board -----------------------------------------------------------------------

function openGame(state, animate) {
  location.hash = `game/${state.id}`;
  show("game");
  $("log").innerHTML = "";
  showPersonalBest(state);
  $("over").hidden = true;
  $("hint-panel").hidden = true;
  game = null;
  receive(state, animate);
}

async function receive(state, animate) {
  busy = true;
  const previous = game;
  game = state;
  selected.clear();
  if (animate && state.events.length) await playEvents(state.events, previous);
  busy = false;
  render();
  if (state.status === "over") showOver();
}

function narrate(event, players) {
  const name = (seat) => players[seat]?.name ?? `seat ${seat}`;
  switch (event.type) {
    case "roll-off": return `${name(event.seat)} rolls ${event.roll.join("+")} for the first turn`;
    case "first": return `${name(event.seat)} plays first`;
    case "round": return `Round ${event.round}`;
    case "turn": return `${name(event.seat)}'s ${event.role || "turn"}`;
    case "dice": return `${name(event.seat)} chooses ${event.dice} ${event.dice === 1 ? "die" : "dice"}`;
    case "roll": return `${name(event.seat)} rolls ${event.roll.join("+")}`;
    case "shut": return `${name(event.seat)} shuts ${event.tiles.join(" ")}`;
    case "stand": return `${name(event.seat)} stands ${event.tiles.join(" ")} up`;
    case "pass": return `${name(event.seat)} has no move and passes`;
    case "turn-end": return event.shut_box ? `${name(event.seat)} shuts the box!` : `${name(event.seat)} scores ${event.score}`;
    case "eliminated": return `${name(event.seat)} is out with ${event.total}`;
    case "winner": return `Winner: ${event.seats.map(name).join(" and ")}`;
    case "loser": return `${event.seats.map(name).join(" and ")} lost the tournament`;
    case "payout": return `${name(event.seat)} takes ${(event.amount / 100).toFixed(2)}`;
    case "ante": return `Everyone antes ${(event.stake / 100).toFixed(2)}; the pot is ${(event.pot / 100).toFixed(2)}`;
    default: return null;
  }
}

// Replays the new events visually (the server already applied them).
async function playEvents(events, previous) {
  const tiles = game.rules.tiles;
  let board = new Set(previous ? previous.board : Array.from({ length: tiles }, (_, i) => i + 1));
  const computerSeat = (seat) => game.players[seat] && game.players[seat].computer;
  for (const event of events) {
    const line = narrate(event, game.players);
    if (line) { const li = document.createElement("li"); li.textContent = line; $("log").append(li); }
    if (event.type === "turn" && !event.role) board = new Set(Array.from({ length: tiles }, (_, i) => i + 1));
    if (event.type === "shut") event.tiles.forEach((t) => board.delete(t));
    if (event.type === "stand") event.tiles.forEach((t) => board.add(t));
    if (["roll", "shut", "stand"].includes(event.type) && computerSeat(event.seat)) {
      drawTiles([...board], false);
      if (event.type === "roll") drawDice(event.roll, true);
      $("status").textContent = line;
      await new Promise((r) => setTimeout(r, STEP_MS));
    }
  }
}

function drawTiles(open, clickable) {
  const openSet = new Set(open);
  const container = $("tiles");
  container.innerHTML = "";
  for (let t = 1; t <= game.rules.tiles; t++) {
    const button = document.createElement("button");
    button.type = "button";
    const isOpen = openSet.has(t);
    const standable = game.pending.role === "stand";
    const usable = clickable && (standable ? !isOpen : isOpen);
    button.className = `tile${isOpen ? "" : " shut"}${selected.has(t) ? " selected" : ""}`;
    button.textContent = t;
    button.dataset.tile = t;
    button.disabled = !usable;
    button.setAttribute("aria-pressed", selected.has(t) ? "true" : "false");
    button.setAttribute("aria-label", `Tile ${t}, ${isOpen ? "open" : "shut"}${selected.has(t) ? ", selected" : ""}`);
    button.addEventListener("click", () => toggle(t));
    container.append(button);
  }
}

function drawDice(roll, rolling) {
  $("dice").innerHTML = "";
  for (const face of roll || []) {
    const die = document.createElement("div");
    die.className = `die${rolling ? " rolling" : ""}`;
    die.textContent = FACES[face];
    die.setAttribute("role", "img");
    die.setAttribute("aria-label", `die showing ${face}`);
    $("dice").append(die);
  }
}

function toggle(tile) {
  if (busy || !game || game.pending.kind !== "shut" || !game.pending.human) return;
  if (selected.has(tile)) selected.delete(tile); else selected.add(tile);
  render();
  document.querySelector(`.tile[data-tile="${tile}"]`)?.focus();
}

function selectionIsLegal() {
  const pick = [...selected].sort((a, b) => a - b).join(",");
  return game.pending.legal.some((move) => [...move].sort((a, b) => a - b).join(",") === pick);
}

function render() {
  const g = game;
  const p = g.pending;
  const human = p.human && g.status !== "over";
  $("game-title").textContent = `${g.format}${g.round ? ` · round ${g.round}` : ""}${g.stake ? ` · pot ${(g.pot / 100).toFixed(2)}` : ""}`;
  drawTiles(g.board, human && p.kind === "shut");
  drawDice(p.roll, false);
  const rows = g.players.map((player, seat) => {
    const classes = [p.seat === seat && g.status !== "over" ? "to-play" : "", g.winners.includes(seat) ? "winner" : "", g.active[seat] ? "" : "out"].join(" ");
    const score = g.round_scores[String(seat)] ?? "-";
    return `<tr class="${classes}"><td>${escapeHtml(player.name)}${player.computer ? ` <small>(computer, ${player.computer})</small>` : ""}</td><td>${score}</td><td>${g.totals[seat]}</td></tr>`;
  }).join("");
  $("players").innerHTML = `<table><thead><tr><th>Player</th><th>This round</th><th>Total</th></tr></thead><tbody>${rows}</tbody></table>`;
  const who = p.seat !== null && g.players[p.seat] ? g.players[p.seat].name : "";
  let status = "";
  if (g.status === "over") status = "Game over";
  else if (p.kind === "roll") status = `${who}: roll the dice`;
  else if (p.kind === "choose-dice") status = `${who}: roll one die or two?`;
  else if (p.kind === "shut") {
    const total = [...selected].reduce((a, b) => a + b, 0);
    const target = p.roll.reduce((a, b) => a + b, 0);
    status = `${who}: ${p.role === "stand" ? "stand up" : "shut"} tiles for ${p.roll.join("+")} = ${target}` +
      (selected.size ? ` · selected ${[...selected].join("+")} = ${total}` : "");
  }
  const addsUp = p.kind === "shut" && selected.size > 0 && selectionIsLegal();
  $("status").textContent = status + (addsUp ? " ✓ adds up" : "");
  $("status").classList.toggle("adds-up", addsUp);
  $("roll").hidden = !(human && p.kind === "roll");
  $("one-die").hidden = $("two-dice").hidden = !(human && p.kind === "choose-dice");
  $("shut").hidden = !(human && p.kind === "shut");
  $("shut").disabled = !addsUp;
  $("shut").textContent = p.role === "stand" ? "Stand up" : "Shut";
  $("hint").hidden = !(human && (p.kind === "shut" || p.kind === "choose-dice"));
  if ($("coach-toggle").checked) updateCoach(); else $("coach").textContent = "";
}

async function act(path, body) {
  if (busy) return;
  $("game-error").textContent = "";
  $("hint-panel").hidden = true;
  try {
    const seat = game.pending.seat;
    const state = await api(`/api/games/${game.id}/${path}`, { method: "POST", body: { seat, ...body } });
    if (path === "roll" || path === "dice") drawDice(state.pending.roll, true);
    await receive(state, true);
  } catch (error) { $("game-error").textContent = error.message; }
}

$("roll").addEventListener("click", () => act("roll", {}));
$("one-die").addEventListener("click", () => act("dice", { dice: 1 }));
$("two-dice").addEventListener("click", () => act("dice", { dice: 2 }));
$("shut").addEventListener("click", () => { if (selectionIsLegal()) act("shut", { tiles: [...selected] }); });

$("hint").addEventListener("click", async () => {
  try {
    const hint = await api(`/api/games/${game.id}/hint`);
    const percent = (v) => `${(v * 100).toFixed(2)} %`;
    const value = (v) => hint.measure === "expected score" ? v.toFixed(2) : percent(v);
    const rows = hint.options.map((o, i) => `<tr><td>${i === 0 ? "★ " : ""}${o.tiles ? o.tiles.join(" ") : `${o.dice} ${o.dice === 1 ? "die" : "dice"}`}</td><td>${value(o.value)}</td><td>${o.loss > 1e-9 ? value(o.loss) : "best"}</td><td>${percent(o.p_shut)}</td></tr>`).join("");
    $("hint-panel").innerHTML = `<h3>Hint</h3><table aria-label="Hint"><thead><tr><th>${hint.kind === "shut" ? "Shut" : "Dice"}</th><th>${hint.measure}</th><th>loss</th><th>chance to shut</th></tr></thead><tbody>${rows}</tbody></table>`;
    $("hint-panel").hidden = false;
  } catch (error) { $("game-error").textContent = error.message; }
});

// Solo play: the player's best solo score under these rules, from their statistics.
async function showPersonalBest(state) {
  $("personal-best").textContent = "";
  if (state.players.length !== 1) return;
  try {
    const stats = await api(`/api/players/${encodeURIComponent(state.players[0].name)}/stats`);
    const same = JSON.stringify(stats.rules) === JSON.stringify(state.rules);
    if (same && stats.personal_best !== null) $("personal-best").textContent = `Personal best: ${stats.personal_best}`;
  } catch (error) { $("personal-best").textContent = "First solo game: no personal best yet"; }
}

async function updateCoach() {
  if (!game || game.status === "over") { $("coach").textContent = ""; return; }
  const coach = await api(`/api/games/${game.id}/coach`);
  if (coach.p_shut === null) { $("coach").textContent = ""; return; }
  $("coach").textContent = `From here, playing perfectly: chance to shut the box ${(coach.p_shut * 100).toFixed(2)} %, expected score ${coach.expected_score.toFixed(2)}`;
}
$("coach-toggle").addEventListener("change", render);

document.addEventListener("keydown", (event) => {
  if (!game || $("view-game").hidden || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  const keys = { "0": 10, "-": 11, "=": 12 };
  const tile = keys[event.key] ?? (/^[1-9]$/.test(event.key) ? Number(event.key) : null);
  if (tile !== null && game.pending.kind === "shut" && tile <= game.rules.tiles) { toggle(tile); event.preventDefault(); }
  else if (event.key === "Enter" && event.target.tagName !== "BUTTON") {
    if (game.pending.kind === "roll") act("roll", {});
    else if (game.pending.kind === "shut" && selectionIsLegal()) act("shut", { tiles: [...selected] });
  } else if (event.key === "r" && game.pending.kind === "roll") act("roll", {});
  else if (event.key === "h") $("hint").click();
});

// --- game over, history, statistics ----------------------------------------------------

async function showOver() {
  const g = game;
  const names = g.winners.map((s) => escapeHtml(g.players[s].name)).join(" and ");
  const payouts = Object.entries(g.payouts).filter(([, v]) => v).map(([s, v]) => `${escapeHtml(g.players[s].name)} takes ${(v / 100).toFixed(2)}`).join(", ");
  let html = `<h3>${g.players.length > 1 ? `Winner: ${names}` : `Your score: ${g.round_scores["0"]}`}</h3>${payouts ? `<p>${payouts}</p>` : ""}`;
  try {
    const review = await api(`/api/games/${g.id}/review`);
    const rows = review.decisions.map((d) => `<tr class="${d.cost > 1e-9 ? "costly" : ""}"><td>${escapeHtml(d.player)}</td><td>${d.open.join(" ")}</td><td>${d.roll && d.phase === "shut" ? d.roll.join("+") : ""}</td><td>${d.played}</td><td>${d.best}</td><td>${d.cost > 1e-9 ? d.cost.toFixed(3) : "-"}</td></tr>`).join("");
    const totals = Object.entries(review.total_cost).map(([p, c]) => `${escapeHtml(p)}: ${c.toFixed(3)}`).join(" · ");
    html += `<h3>Review</h3><p>Total cost (expected score or chance lost against perfect play): ${totals || "-"}</p><table aria-label="Review"><thead><tr><th>Player</th><th>Open</th><th>Roll</th><th>Played</th><th>Best</th><th>Cost</th></tr></thead><tbody>${rows}</tbody></table>`;
  } catch (error) { html += `<p class="error">${escapeHtml(error.message)}</p>`; }
  html += `<button type="button" id="again" class="primary">New game</button>`;
  $("over").innerHTML = html;
  $("over").hidden = false;
  $("again").addEventListener("click", () => { location.hash = ""; show("new"); });
}

async function loadHistory() {
  const games = await api("/api/games");
  const row = (g) => `<tr><td>${g.players.map(escapeHtml).join(", ")}</td><td>${g.format}</td><td>${g.status === "over" ? "finished" : "unfinished"}</td><td>${new Date(g.updated).toLocaleString()}</td><td><button type="button" data-game="${g.id}">${g.status === "over" ? "View" : "Resume"}</button></td></tr>`;
  $("history").innerHTML = games.length ? `<table><thead><tr><th>Players</th><th>Format</th><th>Status</th><th>Last move</th><th></th></tr></thead><tbody>${games.map(row).join("")}</tbody></table>` : "<p>No games yet.</p>";
  $("history").querySelectorAll("button[data-game]").forEach((b) => b.addEventListener("click", () => resume(b.dataset.game)));
}

async function resume(id) {
  try { openGame(await api(`/api/games/${id}`), false); } catch (error) { show("new"); $("new-error").textContent = error.message; }
}

$("stats-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const s = await api(`/api/players/${encodeURIComponent($("stats-name").value.trim())}/stats`);
    $("stats").innerHTML = `<table><tbody>
      <tr><th>Games</th><td>${s.games}</td></tr><tr><th>Wins</th><td>${s.wins.toFixed(1)}</td></tr>
      <tr><th>Turns</th><td>${s.turns}</td></tr><tr><th>Average score</th><td>${s.average_score.toFixed(2)}</td></tr>
      <tr><th>Shut rate</th><td>${(s.shut_rate * 100).toFixed(1)} %</td></tr><tr><th>Best score</th><td>${s.best_score}</td></tr>
      <tr><th>Personal best (solo)</th><td>${s.personal_best ?? "-"}</td></tr></tbody></table>` + chart(s);
  } catch (error) { $("stats").innerHTML = `<p class="error">${escapeHtml(error.message)}</p>`; }
});

// Bars: the player's scores; dots: the exact distribution of optimal play.
function chart(s) {
  const total = Object.values(s.scores).reduce((a, b) => a + b, 0);
  const keys = [...new Set([...Object.keys(s.optimal), ...Object.keys(s.scores)])].map(Number).sort((a, b) => a - b);
  const top = Math.max(...keys.map((k) => Math.max((s.scores[k] || 0) / total, s.optimal[k] || 0)));
  const width = 640, height = 240, pad = 30, step = (width - 2 * pad) / keys.length;
  const y = (p) => height - pad - (p / top) * (height - 2 * pad);
  const bars = keys.map((k, i) => `<rect x="${pad + i * step}" y="${y((s.scores[k] || 0) / total)}" width="${Math.max(step - 1, 1)}" height="${height - pad - y((s.scores[k] || 0) / total)}" fill="#b5651d"><title>score ${k}: ${s.scores[k] || 0} turns</title></rect>`).join("");
  const dots = keys.map((k, i) => `<circle cx="${pad + i * step + step / 2}" cy="${y(s.optimal[k] || 0)}" r="2.5" fill="#1f3b4d"><title>optimal play: ${((s.optimal[k] || 0) * 100).toFixed(2)} %</title></circle>`).join("");
  const labels = keys.filter((_, i) => i % Math.ceil(keys.length / 12) === 0).map((k) => `<text x="${pad + keys.indexOf(k) * step}" y="${height - 8}" font-size="11">${k}</text>`).join("");
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="Your scores (bars) against the exact distribution of optimal play (dots)">${bars}${dots}${labels}<text x="${pad}" y="16" font-size="12">bars: your scores · dots: optimal play</text></svg>`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// --- start ---------------------------------------------------------------------------

addSeat("You", "");
addSeat("Computer", "hard");
loadPresets().catch((error) => { $("new-error").textContent = error.message; });
if (location.hash.startsWith("#game/")) resume(location.hash.slice(6)); else show("new");
