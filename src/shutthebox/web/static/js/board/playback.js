// Opening a game and playing its events out: the log (in the server's sentences), the tiles
// and dice step by step, and the live feed that brings every other player's steps.

import * as api from "../api.js";
import { $, el, clear, announce, pause, reducedMotion } from "../dom.js";
import { drawDice } from "../dice.js";
import { seen } from "../howto.js";
import { view, fullBoard } from "./state.js";
import { hasCompany } from "./seats.js";
import { render, setBusy, drawTiles } from "./draw.js";
import { showMoment, showRoundEnd } from "./moments.js";
import { showPersonalBest } from "./coach.js";
import { play } from "../sound.js";
import * as reactions from "../reactions.js";
import * as series from "../series.js";
import { say, loaded } from "../sentences.js";
import { wireTable, showPresence, resetTable } from "./table.js";
import { t } from "../i18n.js";

const STEP_PAUSE_MS = 260;
const SPOKEN = new Set(["seat", "turn", "dice", "roll", "shut", "stand", "pass", "turn-end", "round-end", "eliminated", "winner"]);

/** Shows a game: `created` is the answer of POST /api/games (else the log is loaded). */
export async function open(id, created = null) {
  close();
  view.game = null;
  view.selected.clear();
  view.hinted = new Set();
  view.lastEnd = null;
  view.coachAt = -1;
  resetTable();
  wireTable(receive);
  $("view-game").classList.remove("unreachable");
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
      await loaded;
      const unreachable = error.status === 0;
      // offline (the installed app, say): what needs a connection, and no board
      $("view-game").classList.toggle("unreachable", unreachable);
      $("game-title").textContent = unreachable ? t("This game needs a connection") : say("game_not_found_title");
      $("status").textContent = error.status === 404 ? say("game_not_found") : error.message;
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
  view.game = state;
  view.board = [...state.board];
  setBusy(false);
  view.moveFocus = true;
  render();
  showPersonalBest(state);
  series.showSeries(state);
  reactions.showButtons(state, hasCompany(state) && Object.keys(api.tokensFor(id)).length > 0);
  view.feed = api.live(id, state.event_count, receive, showProgress,
    (message) => (message.type === "reaction" ? reactions.show(message) : series.onRematch(message)),
    showPresence);
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

/** Whether a game is shown and followed (false when it could not be loaded, e.g. offline). */
export function isOpen() {
  return view.game !== null && view.feed !== null;
}

export function close() {
  if (view.feed) view.feed.close();
  view.feed = null;
  reactions.hide();
  series.hide();
}

/** New state from an action's answer or the live feed: shown in order, once. */
export function receive(state) {
  view.queue = view.queue.then(() => apply(state)).catch((error) => { $("game-error").textContent = error.message; });
  return view.queue;
}

async function apply(state) {
  if (!view.game || state.id !== view.game.id) return;
  const have = view.game.event_count;
  if (state.event_count <= have) {
    if (state.event_count === have && JSON.stringify(state.seats) !== JSON.stringify(view.game.seats)) { view.game = { ...state }; render(); }
    return;
  }
  if (state.since > have) {           // a gap: fetch what was missed
    return apply(await api.gameState(view.game.id, have));
  }
  const before = view.game;
  if (view.feed) view.feed.seen(state.event_count);
  await applyEvents(state, before, have - state.since, true);
  view.game = state;
  view.board = [...state.board];
  render();
}

function quietly(state) {
  view.board = fullBoard(state);
  state.events.forEach((event, i) => step(state, event, said(state, i)));
}

/** The server's sentence for the state's event number ``i`` (counted from state.since). */
function said(state, i) {
  return (state.events_text || [])[i] ?? null;
}

/** Shows the state's events from its own number ``from`` on. */
async function applyEvents(state, before, from, animate) {
  const events = state.events.slice(from);
  view.playing = true;
  setBusy(view.busy);
  if (!before) view.board = fullBoard(state);
  const computers = new Set((state.players || []).map((p, i) => (p.computer ? i : -1)).filter((i) => i >= 0));
  const animated = animate && events.length <= 80;
  const spoken = [];
  for (const [i, event] of events.entries()) {
    const line = step(state, event, said(state, from + i));
    if (SPOKEN.has(event.type) && line) spoken.push(line);
    if (!animated) continue;
    if (event.type === "roll") {
      play("roll");
      drawTiles(state, false);
      $("status").textContent = line;
      await drawDice($("dice"), event.roll, { rolling: true });
    } else if (event.type === "shut" || event.type === "stand") {
      play("shut");
      drawTiles(state, false);
      $("status").textContent = line;
      if (computers.has(event.seat) && !reducedMotion()) await pause(STEP_PAUSE_MS);
    } else if (event.type === "turn-end") {
      if (event.shut_box) play("shut-box");
      showMoment(event, line);
    } else if (event.type === "round-end") {
      showRoundEnd(state, event);
    }
  }
  // the game ended while shown: its result tells the score against perfect play, and
  // celebrates a win (moments.js)
  if (animate && before && before.status !== "over" && state.status === "over") view.justOver = true;
  // One sentence for screen readers: what changed (rolls, moves, whose turn), not the page.
  if (animate && spoken.length) announce(spoken.slice(-6).join(". "));
  view.playing = false;
}

/** Applies one event to what is shown; logs its sentence ``line``; returns the sentence. */
function step(state, event, line) {
  if (line) $("log").append(el("li", {}, line));
  if (event.type === "turn" && !event.role) view.board = fullBoard(state);
  if (event.type === "shut") view.board = view.board.filter((t) => !event.tiles.includes(t));
  if (event.type === "stand") view.board = [...view.board, ...event.tiles].sort((a, b) => a - b);
  if (event.type === "roll" || event.type === "dice") {
    if (view.lastEnd && view.lastEnd.seat !== event.seat) view.lastEnd = null;
    if (event.type === "roll") { if (view.lastEnd && view.lastEnd.seat === event.seat) view.lastEnd = null; view.lastRoll = event.roll; }
    if (!$("moment").classList.contains("final")) { $("moment").hidden = true; }
  }
  if (event.type === "turn-end") view.lastEnd = { ...event, roll: view.lastRoll, text: line };
  if (event.type === "pass") view.lastEnd = { seat: event.seat, pass: true, roll: view.lastRoll, text: line };
  return line;
}
