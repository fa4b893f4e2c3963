// The board: tiles, dice, whose turn, the controls of the seats this browser holds, and the
// live feed that shows every other player's steps as they happen. The server decides what is
// legal and rolls the dice; this module only shows what it answers, in the server's words
// (the game's title, its rules and each event's sentence are sent with the state).

import * as api from "./api.js";
import { $, el, fill, clear, announce, setUsable, usable, pause, reducedMotion } from "./dom.js";
import { drawDice } from "./dice.js";
import { seen } from "./howto.js";

const TILE_KEYS = { "0": 10, "-": 11, "=": 12 };
const STEP_PAUSE_MS = 260;
const SPOKEN = new Set(["seat", "turn", "dice", "roll", "shut", "stand", "pass", "turn-end", "round-end", "eliminated", "winner"]);
const ACTION_BUTTONS = ["roll", "one-die", "two-dice", "shut", "clear", "hint"];

let game = null;           // the last state shown, with every event applied
let feed = null;           // the live connection
let queue = Promise.resolve();
let selected = new Set();  // tiles picked for the pending move
let busy = false;          // an action request is in flight
let playing = false;       // new events are being shown step by step
let board = [];            // open tiles as shown during playback
let lastEnd = null;        // the turn that just ended, shown until the next player acts
let lastRoll = null;       // the last dice rolled
let winnerLine = null;     // the server's sentence of who won
let payoutLines = [];      // and of who takes what from the pot
let moveFocus = false;     // the next render puts focus on the next action
let coachAt = -1;          // event count the coach line was computed for

export function init() {
  $("roll").addEventListener("click", () => act("roll", {}));
  $("one-die").addEventListener("click", () => act("dice", { dice: 1 }));
  $("two-dice").addEventListener("click", () => act("dice", { dice: 2 }));
  $("shut").addEventListener("click", shut);
  $("clear").addEventListener("click", () => { clearSelection(); });
  $("hint").addEventListener("click", showHint);
  $("coach-toggle").addEventListener("change", () => { coachAt = -1; updateCoach(); });
  document.addEventListener("keydown", onKey);
}

// --- opening and leaving a game ------------------------------------------------------

/** Shows a game: `created` is the answer of POST /api/games (else the log is loaded). */
export async function open(id, created = null) {
  close();
  game = null;
  selected.clear();
  lastEnd = null;
  winnerLine = null;
  payoutLines = [];
  coachAt = -1;
  clear($("log"));
  for (const id of ["moment", "hint-panel", "share"]) { clear($(id)); $(id).hidden = true; }
  $("game-error").textContent = $("coach").textContent = $("personal-best").textContent = "";
  $("coach-toggle").checked = false;
  $("how-to-play-link").setAttribute("href", `/how-to-play/${encodeURIComponent(id)}`);
  $("first-visit").hidden = seen();
  setBusy(true);
  let state = created;
  if (!state || state.since !== 0) {
    try { state = await api.gameState(id, 0); } catch (error) {
      $("game-title").textContent = "Game not found";
      $("status").textContent = error.status === 404 ? "There is no game at this address. Start a new one, or open one from My games." : error.message;
      setBusy(false);
      return;
    }
  }
  if (created) {
    $("game-title").textContent = state.title;
    await applyEvents(state, null, 0, true);
  } else {
    quietly(state);
  }
  game = state;
  board = [...state.board];
  setBusy(false);
  moveFocus = true;
  render();
  showPersonalBest(state);
  feed = api.live(id, state.event_count, receive, showProgress);
}

/** The server's long work for this game (the match tables, the first time): a bar. */
function showProgress(message) {
  let bar = $("server-progress");
  if (message.fraction >= 1) {
    if (bar) bar.closest("p").remove();
    return;
  }
  if (!bar) {
    const line = document.createElement("p");
    line.className = "note";
    const label = document.createElement("label");
    label.htmlFor = "server-progress";
    label.textContent = `${message.what}… `;
    bar = document.createElement("progress");
    bar.id = "server-progress";
    bar.max = 1;
    line.append(label, bar);
    $("status").after(line);
  }
  bar.value = message.fraction;
}

export function close() {
  if (feed) feed.close();
  feed = null;
}

/** New state from an action's answer or the live feed: shown in order, once. */
export function receive(state) {
  queue = queue.then(() => apply(state)).catch((error) => { $("game-error").textContent = error.message; });
  return queue;
}

async function apply(state) {
  if (!game || state.id !== game.id) return;
  const have = game.event_count;
  if (state.event_count <= have) {
    if (state.event_count === have && JSON.stringify(state.seats) !== JSON.stringify(game.seats)) { game = { ...state }; render(); }
    return;
  }
  if (state.since > have) {           // a gap: fetch what was missed
    return apply(await api.gameState(game.id, have));
  }
  const before = game;
  if (feed) feed.seen(state.event_count);
  await applyEvents(state, before, have - state.since, true);
  game = state;
  board = [...state.board];
  render();
}

function quietly(state) {
  board = fullBoard(state);
  state.events.forEach((event, i) => step(state, event, said(state, i)));
}

/** The server's sentence for the state's event number ``i`` (counted from state.since). */
function said(state, i) {
  return (state.events_text || [])[i] ?? null;
}

/** Shows the state's events from its own number ``from`` on. */
async function applyEvents(state, before, from, animate) {
  const events = state.events.slice(from);
  playing = true;
  setBusy(busy);
  if (!before) board = fullBoard(state);
  const computers = new Set((state.players || []).map((p, i) => (p.computer ? i : -1)).filter((i) => i >= 0));
  const animated = animate && events.length <= 80;
  const spoken = [];
  for (const [i, event] of events.entries()) {
    const line = step(state, event, said(state, from + i));
    if (SPOKEN.has(event.type) && line) spoken.push(line);
    if (!animated) continue;
    if (event.type === "roll") {
      drawTiles(state, false);
      $("status").textContent = line;
      await drawDice($("dice"), event.roll, { rolling: true });
    } else if (event.type === "shut" || event.type === "stand") {
      drawTiles(state, false);
      $("status").textContent = line;
      if (computers.has(event.seat) && !reducedMotion()) await pause(STEP_PAUSE_MS);
    } else if (event.type === "turn-end") {
      showMoment(event, line);
    } else if (event.type === "round-end") {
      showRoundEnd(state, event);
    }
  }
  // One sentence for screen readers: what changed (rolls, moves, whose turn), not the page.
  if (animate && spoken.length) announce(spoken.slice(-6).join(". "));
  playing = false;
}

/** Applies one event to what is shown; logs its sentence ``line``; returns the sentence. */
function step(state, event, line) {
  if (line) $("log").append(el("li", {}, line));
  if (event.type === "winner") winnerLine = line;
  if (event.type === "payout" && line) payoutLines.push(line);
  if (event.type === "turn" && !event.role) board = fullBoard(state);
  if (event.type === "shut") board = board.filter((t) => !event.tiles.includes(t));
  if (event.type === "stand") board = [...board, ...event.tiles].sort((a, b) => a - b);
  if (event.type === "roll" || event.type === "dice") {
    if (lastEnd && lastEnd.seat !== event.seat) lastEnd = null;
    if (event.type === "roll") { if (lastEnd && lastEnd.seat === event.seat) lastEnd = null; lastRoll = event.roll; }
    if (!$("moment").classList.contains("final")) { $("moment").hidden = true; }
  }
  if (event.type === "turn-end") lastEnd = { ...event, roll: lastRoll, text: line };
  if (event.type === "pass") lastEnd = { seat: event.seat, pass: true, roll: lastRoll, text: line };
  return line;
}
function fullBoard(state) {
  return Array.from({ length: state.rules.tiles }, (_, i) => i + 1);
}

// --- who holds which seat ------------------------------------------------------------

function nameOf(state, seat) {
  const seats = state.seats || [];
  const fromSeats = seats.find((s) => s.seat === seat);
  if (fromSeats && fromSeats.name) return fromSeats.name;
  return (state.players && state.players[seat] && state.players[seat].name) || `Seat ${seat + 1}`;
}

function mySeats(state = game) {
  const held = new Set(Object.keys(api.tokensFor(state.id)).map(Number));
  for (const seat of state.you || []) held.add(seat);
  if (!state.seats && held.size === 0) {     // a server without seats: every human plays here
    (state.players || []).forEach((p, i) => { if (!p.computer) held.add(i); });
  }
  return held;
}

function seatKind(state, seat) {
  const s = (state.seats || []).find((x) => x.seat === seat);
  if (s) return s;
  const player = state.players[seat];
  return { seat, name: player.name, kind: player.computer ? "computer" : "here", computer: player.computer, joined: true };
}

function myMove(state = game) {
  const p = state.pending;
  return state.status === "playing" && ["roll", "choose-dice", "shut"].includes(p.kind) &&
    p.seat !== null && p.human !== false && mySeats(state).has(p.seat);
}

// --- drawing -------------------------------------------------------------------------

function render() {
  const g = game;
  if (!g) return;
  const p = g.pending;
  const mine = myMove();
  const battle = String(g.format).startsWith("battle");
  $("game-title").textContent = g.title;
  $("game-rules").textContent = g.rules_text;
  drawPlayers(g);
  drawShare(g);
  drawTiles(g, mine && p.kind === "shut");
  drawTableDice(g);
  $("status").textContent = statusText(g, mine);
  const addsUp = mine && p.kind === "shut" && selectionIsLegal();
  $("status").classList.toggle("adds-up", addsUp);
  $("legend").hidden = !(battle && g.status === "playing" && p.kind === "shut");
  if (battle) $("legend").textContent = p.role === "stand"
    ? "Marked tiles are down: stand up tiles adding up to the roll."
    : "Marked tiles are up: knock down tiles adding up to the roll.";
  $("roll").hidden = !(mine && p.kind === "roll");
  $("one-die").hidden = $("two-dice").hidden = !(mine && p.kind === "choose-dice");
  $("shut").hidden = $("clear").hidden = !(mine && p.kind === "shut");
  $("shut").textContent = !battle ? "Shut" : p.role === "stand" ? "Stand up" : "Knock down";
  $("hint").hidden = !mine;
  $("coach-toggle").parentElement.hidden = mySeats().size === 0 || g.status !== "playing";
  $("watching").hidden = mySeats().size > 0;
  setBusy(busy);
  setUsable($("shut"), !busy && !playing && addsUp);
  setUsable($("clear"), !busy && !playing && selected.size > 0);
  $("view-game").dataset.events = String(g.event_count);
  $("view-game").dataset.kind = g.status === "playing" ? p.kind : g.status;
  if (g.status === "over") showOver(g);
  if (moveFocus || focusLost()) focusNext(mine);
  moveFocus = false;
  updateCoach();
}

function setBusy(value) {
  busy = value;
  const waiting = busy || playing;
  for (const id of ACTION_BUTTONS) if (id !== "shut" && id !== "clear") setUsable($(id), !waiting);
  if (waiting) { setUsable($("shut"), false); setUsable($("clear"), false); }
  $("view-game").dataset.busy = waiting ? "true" : "false";
  $("view-game").setAttribute("aria-busy", waiting ? "true" : "false");
}

function focusLost() {
  const active = document.activeElement;
  // The title holds focus only while nobody here can act; it hands focus on when we can.
  return !active || active === document.body || active === $("main") || active === $("game-title") || active.hidden ||
    (active.closest && active.closest("[hidden]") !== null) || active.offsetParent === null;
}

function focusNext(mine) {
  const p = game.pending;
  let target = $("game-title");
  if (mine && p.kind === "roll") target = $("roll");
  else if (mine && p.kind === "choose-dice") target = $("two-dice");
  else if (mine && p.kind === "shut") target = $("shut");
  else if (game.status === "over" && $("moment").querySelector("a")) target = $("moment").querySelector("a");
  target.focus({ preventScroll: !mine });
}

function statusText(g, mine) {
  const p = g.pending;
  const who = p.seat !== null && p.seat !== undefined ? nameOf(g, p.seat) : "";
  if (g.status === "over") {
    if (!lastEnd || lastEnd.shut_box || lastEnd.pass || !lastEnd.text) return "Game over.";
    return `${lastEnd.text}. Game over.`;
  }
  if (g.status === "waiting") {
    const open = (g.seats || []).filter((s) => s.kind === "open" && !s.joined).map((s) => s.name);
    return `Waiting for ${open.length ? open.join(" and ") : "players"} to join: nothing is rolled until every seat is taken.`;
  }
  const battle = String(g.format).startsWith("battle");
  let head = "";
  if (lastEnd && lastEnd.text && !(p.kind === "shut")) head = `${lastEnd.text}. `;
  if (!mine) {
    if (seatKind(g, p.seat).kind === "computer") return `${head}${who} (computer) is playing…`;
    if (p.kind === "choose-dice") return `${head}${who} is choosing one die or two…`;
    if (p.kind === "shut" && p.roll) {
      const verb = !battle ? "shut" : p.role === "stand" ? "stand up" : "knock down";
      return `${who} rolled ${p.roll_text} and is choosing tiles to ${verb}…`;
    }
    return `${head}Waiting for ${who} to roll…`;
  }
  const single = mySeats().size === 1;
  if (p.kind === "roll") return head + (single ? "Your roll: press Roll or Enter." : `${who}: roll the dice.`);
  if (p.kind === "choose-dice") return `${head}${who}: roll one die or two?`;
  const target = p.roll.reduce((a, b) => a + b, 0);
  const verb = !battle ? "shut" : p.role === "stand" ? "stand up" : "knock down";
  let text = `${single ? "You rolled" : `${who} rolled`} ${p.roll_text}: ${verb} tiles adding up to ${target}.`;
  if (selected.size) {
    const picked = [...selected].sort((a, b) => a - b);
    const sum = picked.reduce((a, b) => a + b, 0);
    text += ` Picked ${picked.join(" + ")} = ${sum}${selectionIsLegal() ? " ✓ adds up" : ""}.`;
  }
  return text;
}

function drawTiles(state, clickable) {
  const container = $("tiles");
  const count = state.rules.tiles;
  if (container.children.length !== count) {
    clear(container);
    for (let t = 1; t <= count; t++) {
      container.append(el("button", { type: "button", className: "tile", "data-tile": t, on: { click: () => toggle(t) } },
        el("span", { className: "tile-label" }, String(t))));
    }
    container.style.setProperty("--tiles", String(count));
    container.style.setProperty("--half", String(Math.ceil(count / 2)));
    container.classList.toggle("many", count > 9);
  }
  const open = new Set(playing ? board : state.board);
  const p = state.pending;
  const stand = p.role === "stand";
  const battle = String(state.format).startsWith("battle");
  for (const button of container.children) {
    const t = Number(button.dataset.tile);
    const up = open.has(t);
    const canUse = clickable && (stand ? !up : up);
    const marked = battle && state.status === "playing" && p.kind === "shut" && (stand ? !up : up);
    button.classList.toggle("down", !up);
    button.classList.toggle("picked", selected.has(t));
    button.classList.toggle("usable", marked);
    setUsable(button, canUse && !busy && !playing);
    button.setAttribute("aria-pressed", selected.has(t) ? "true" : "false");
    const state_ = battle ? (up ? "up" : "down") : (up ? "open" : "shut");
    button.setAttribute("aria-label", `Tile ${t}, ${state_}${marked ? (stand ? ", can stand up" : ", can knock down") : ""}`);
  }
}

function drawTableDice(g) {
  const p = g.pending;
  if (p.roll && p.kind === "shut") drawDice($("dice"), p.roll);
  else if (lastEnd && lastEnd.roll) drawDice($("dice"), lastEnd.roll, { faded: true });
  else drawDice($("dice"), null);
}

function drawPlayers(g) {
  const battle = String(g.format).startsWith("battle");
  const held = mySeats(g);
  const strangers = (g.seats || []).some((s) => s.kind !== "computer" && !held.has(s.seat));
  const rows = g.players.map((player, seat) => {
    const info = seatKind(g, seat);
    const classes = [];
    if (g.pending.seat === seat && g.status === "playing") classes.push("to-play");
    if ((g.winners || []).includes(seat)) classes.push("winner");
    if (g.active && !g.active[seat]) classes.push("out");
    const kind = info.kind === "computer" ? `computer, ${info.computer || player.computer}`
      : info.kind === "open" && !info.joined ? "waiting to join" : info.kind === "open" ? "friend" : "";
    const you = held.has(seat) && strangers ? "you" : "";
    const note = [kind, you].filter(Boolean).join(" · ");
    const score = g.round_scores ? g.round_scores[String(seat)] : undefined;
    return el("tr", { className: classes.join(" ") },
      el("th", { scope: "row" }, el("span", { className: "name" }, info.name || player.name), note ? el("small", {}, ` ${note}`) : null,
        g.pending.seat === seat && g.status === "playing" ? el("span", { className: "visually-hidden" }, " (to play)") : null),
      battle ? el("td", {}, seat === 0 ? "knocks down" : "stands up") : el("td", {}, score === undefined ? "–" : String(score)),
      battle ? null : el("td", {}, String(g.totals[seat])));
  });
  const head = battle ? ["Player", "Role"] : ["Player", "This round", "Total"];
  fill($("players"), el("table", {},
    el("caption", { className: "visually-hidden" }, "Players"),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows)));
}

function drawShare(g) {
  const waiting = (g.seats || []).filter((s) => s.kind === "open" && !s.joined);
  const share = $("share");
  if (!waiting.length) { share.hidden = true; clear(share); return; }
  if (share.dataset.for === waiting.map((s) => s.seat).join(",") && !share.hidden) return;
  share.dataset.for = waiting.map((s) => s.seat).join(",");
  const invites = api.invitesFor(g.id);
  const cards = waiting.map((seat) => {
    const invite = invites.find((i) => i.seat === seat.seat);
    if (!invite) return el("p", {}, `Waiting for ${seat.name} to join.`);
    const link = new URL(invite.link, location.origin).href;
    const input = el("input", { readOnly: true, value: link, className: "share-link", "aria-label": `Link for ${seat.name}` });
    const copy = el("button", { type: "button", on: { click: async () => {
      try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch { input.select(); copy.textContent = "Press Ctrl+C to copy"; }
    } } }, "Copy link");
    return el("div", { className: "invite" },
      el("div", {},
        el("p", {}, `Invite a friend to seat ${seat.seat + 1} (${seat.name}): send them the link, or the code `, el("strong", { className: "code" }, invite.code), " to type on the start page."),
        el("div", { className: "share-row" }, input, copy)),
      el("img", { src: invite.qr, alt: `QR code of the link for ${seat.name}`, className: "qr", width: 160, height: 160 }));
  });
  fill(share, el("h2", {}, "Invite your friends"), ...cards);
  share.hidden = false;
}

// --- moments: a turn's end, a round's end, the match's end ---------------------------

function showMoment(event, line) {
  if (!event.shut_box || !line) return;
  const moment = $("moment");
  moment.className = "moment shut-box";
  fill(moment, el("p", { className: "big" }, line));
  moment.hidden = false;
}

function roundTable(state, scores, totals) {
  return el("table", {},
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Score"), el("th", { scope: "col" }, "Total"))),
    el("tbody", {}, ...state.players.map((_, seat) => el("tr", {},
      el("th", { scope: "row" }, nameOf(state, seat)),
      el("td", {}, scores[String(seat)] === undefined ? "–" : String(scores[String(seat)])),
      el("td", {}, String(totals[seat]))))));
}

function showRoundEnd(state, event) {
  if (["solo", "single"].includes(String(state.format).split(":")[0])) return;
  const moment = $("moment");
  moment.className = "moment round-end";
  fill(moment, el("h2", {}, `Round ${event.round} is over`), roundTable(state, event.scores, event.totals));
  moment.hidden = false;
}

function showOver(g) {
  const moment = $("moment");
  if (moment.classList.contains("final") && moment.dataset.game === g.id) return;
  const solo = g.players.length === 1;
  const payouts = payoutLines;
  const heading = solo ? `Your score: ${g.round_scores["0"] ?? g.totals[0]}` : winnerLine || "Game over";
  const final = solo ? null : roundTable(g, g.round_scores || {}, g.totals);
  moment.className = "moment final";
  moment.dataset.game = g.id;
  fill(moment, 
    el("h2", {}, heading),
    g.stake ? el("p", {}, `The pot was ${g.pot_text}${payouts.length ? `: ${payouts.join(", ")}.` : "."}`) : null,
    final,
    el("p", { className: "actions" },
      el("a", { href: `/review/${g.id}`, "data-link": "", className: "button primary" }, "Review every move"),
      el("a", { href: "/", "data-link": "", className: "button" }, "New game")));
  moment.hidden = false;
  announce(heading);
}

// --- acting --------------------------------------------------------------------------

async function act(path, body) {
  if (busy || playing || !game || !myMove()) return;
  const id = game.id;
  const seat = game.pending.seat;
  const key = api.freshKey();
  $("game-error").textContent = "";
  $("hint-panel").hidden = true;
  setBusy(true);
  for (let attempt = 0; ; attempt++) {
    try {
      const state = await api.act(id, path, { ...body, event: game.event_count }, seat, key);
      setBusy(false);
      selected.clear();
      moveFocus = true;
      await receive(state);
      render();          // the live feed may have shown these events while we were busy
      return;
    } catch (error) {
      if ((error.status === 429 || error.status === 503 || error.status === 0) && attempt < 3) {
        $("game-error").textContent = error.status === 429 ? "Busy: trying again in a moment…" : error.message;
        await pause(1000 * (error.retryAfter || attempt + 1));
        continue;
      }
      setBusy(false);
      if (error.status === 409) { selected.clear(); moveFocus = true; await refresh(); return; }
      $("game-error").textContent = error.status === 401 || error.status === 403
        ? "This seat is not held in this browser: you can watch, but only its player can play it."
        : error.message;
      render();
      return;
    }
  }
}

async function refresh() {
  if (!game) return;
  try { await receive(await api.gameState(game.id, game.event_count)); render(); } catch (error) { $("game-error").textContent = error.message; }
}

function shut() {
  if (!game || game.pending.kind !== "shut") return;
  if (!selectionIsLegal()) {
    const target = game.pending.roll.reduce((a, b) => a + b, 0);
    $("game-error").textContent = selected.size
      ? `Those tiles do not make a move for ${target}: pick tiles adding up to ${target}.`
      : `Pick tiles adding up to ${target} first (click them or type their numbers).`;
    return;
  }
  act("shut", { tiles: [...selected].sort((a, b) => a - b) });
}

function toggle(tile) {
  if (busy || playing || !game || game.pending.kind !== "shut" || !myMove()) return;
  const button = $("tiles").querySelector(`[data-tile="${tile}"]`);
  if (!button || !usable(button)) return;
  if (selected.has(tile)) selected.delete(tile); else selected.add(tile);
  $("game-error").textContent = "";
  render();
}

function clearSelection() {
  if (!selected.size) return;
  selected.clear();
  render();
}

function selectionIsLegal() {
  const pick = [...selected].sort((a, b) => a - b).join(",");
  return game.pending.legal.some((move) => [...move].sort((a, b) => a - b).join(",") === pick);
}

function onKey(event) {
  if (!game || $("view-game").hidden || $("keys").open) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  const p = game.pending;
  const mine = myMove();
  const key = event.key;
  if (mine && p.kind === "choose-dice" && (key === "1" || key === "2")) {
    event.preventDefault();
    act("dice", { dice: Number(key) });
    return;
  }
  const tile = TILE_KEYS[key] ?? (/^[1-9]$/.test(key) ? Number(key) : null);
  if (tile !== null && mine && p.kind === "shut") {
    event.preventDefault();
    if (tile <= game.rules.tiles) toggle(tile);
    return;
  }
  const onControl = ["BUTTON", "A", "SUMMARY"].includes(target.tagName);
  if (key === "Enter" && !onControl && mine) {
    event.preventDefault();
    if (p.kind === "roll") act("roll", {});
    else if (p.kind === "shut") shut();
  } else if (key === "Escape" && selected.size) {
    event.preventDefault();
    clearSelection();
  } else if ((key === "r" || key === "R") && mine && p.kind === "roll") {
    act("roll", {});
  } else if (key === "h" || key === "H") {
    if (mine) showHint();
  }
}

// --- hints, coach, personal best -----------------------------------------------------

async function showHint() {
  const panel = $("hint-panel");
  if (!game || !myMove()) return;
  if (game.pending.kind === "roll") {
    fill(panel, el("p", {}, "Roll the dice first: hints rank the moves after a roll."));
    panel.hidden = false;
    return;
  }
  try {
    const hint = await api.hint(game.id);
    if (!hint.options || !hint.options.length) {
      fill(panel, el("p", {}, hint.message || "There is nothing to choose now."));
      panel.hidden = false;
      return;
    }
    const percent = (v) => `${(v * 100).toFixed(2)} %`;
    const score = hint.measure === "expected score";
    const value = (v) => (score ? v.toFixed(2) : percent(v));
    const verb = game.pending.role === "stand" ? "Stand up" : String(game.format).startsWith("battle") ? "Knock down" : "Shut";
    const rows = hint.options.map((o, i) => el("tr", { className: i === 0 ? "best" : "" },
      el("th", { scope: "row" }, `${i === 0 ? "★ " : ""}${o.text}`),
      el("td", {}, value(o.value)),
      el("td", {}, o.loss > 1e-9 ? (score ? o.loss.toFixed(2) : (o.loss * 100).toFixed(2)) : "best"),
      el("td", {}, percent(o.p_shut))));
    fill(panel, 
      el("h2", {}, "Hint"),
      el("table", {},
        el("caption", {}, score ? "Each move with the score you can expect after it (lower is better)" : "Each move with your chance to win after it"),
        el("thead", {}, el("tr", {}, ...[hint.kind === "shut" ? verb : "Dice", score ? "Expected score" : "Chance to win", score ? "Loses (points)" : "Loses (percentage points)", "Chance to shut"].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, ...rows)),
      hint.message ? el("p", { className: "note" }, hint.message) : null);
    panel.hidden = false;
  } catch (error) { $("game-error").textContent = error.message; }
}

async function updateCoach() {
  const line = $("coach");
  if (!$("coach-toggle").checked || !game || game.status !== "playing" || !myMove()) { line.textContent = ""; return; }
  if (coachAt === game.event_count) return;
  coachAt = game.event_count;
  try {
    const coach = await api.coach(game.id);
    if (coach.p_shut === null || coach.p_shut === undefined) { line.textContent = ""; return; }
    line.textContent = `From here, playing perfectly: a ${(coach.p_shut * 100).toFixed(2)} % chance to shut the box, and an expected score of ${coach.expected_score.toFixed(2)}.`;
  } catch (error) { line.textContent = error.message; }
}

// Solo play: the best solo score of this player (asked only for names that have games, so a
// first game makes no failing request).
async function showPersonalBest(state) {
  if (state.players.length !== 1) return;
  const name = state.players[0].name;
  try {
    const known = await api.players();
    if (!known.some((p) => p.name === name)) { $("personal-best").textContent = "Your first solo game: no personal best yet."; return; }
    const stats = await api.stats(name);
    const best = stats.solo ? stats.solo.personal_best : stats.personal_best;
    if (best !== null && best !== undefined) $("personal-best").textContent = `Your personal best: ${best}.`;
  } catch { /* statistics are a bonus on the board */ }
}

