// Input: the buttons and keys of the seats held here, sent to the server as actions. The
// server decides what is legal and rolls the dice.

import * as api from "../api.js";
import { $, usable, pause, announce } from "../dom.js";
import { view, selectionIsLegal } from "./state.js";
import { myMove } from "./seats.js";
import { receive } from "./playback.js";
import { render, setBusy, pickText } from "./draw.js";
import { showHint, updateCoach } from "./coach.js";
import { say } from "../sentences.js";
import { t } from "../i18n.js";

const TILE_KEYS = { "0": 10, "-": 11, "=": 12 };

export function init() {
  $("roll").addEventListener("click", () => act("roll", {}));
  $("one-die").addEventListener("click", () => act("dice", { dice: 1 }));
  $("two-dice").addEventListener("click", () => act("dice", { dice: 2 }));
  $("shut").addEventListener("click", shut);
  $("clear").addEventListener("click", () => { clearSelection(); });
  $("hint").addEventListener("click", showHint);
  $("coach-toggle").addEventListener("change", () => { view.coachAt = -1; updateCoach(); });
  document.addEventListener("keydown", onKey);
}

/** Rolls for the seat held here, when it is its roll (the first screen's one tap). */
export function rollNow() {
  if (view.game && view.game.pending.kind === "roll") act("roll", {});
}

async function act(path, body) {
  if (view.busy || view.playing || !view.game || !myMove()) return;
  const id = view.game.id;
  const seat = view.game.pending.seat;
  const key = api.freshKey();
  $("game-error").textContent = "";
  $("hint-panel").hidden = true;
  view.hinted = new Set();
  setBusy(true);
  for (let attempt = 0; ; attempt++) {
    try {
      const state = await api.act(id, path, { ...body, event: view.game.event_count }, seat, key);
      setBusy(false);
      view.selected.clear();
      view.moveFocus = true;
      await receive(state);
      render();          // the live feed may have shown these events while we were busy
      return;
    } catch (error) {
      if ((error.status === 429 || error.status === 503 || error.status === 0) && attempt < 3) {
        $("game-error").textContent = error.status === 429 ? t("Busy: trying again in a moment…") : error.message;
        await pause(1000 * (error.retryAfter || attempt + 1));
        continue;
      }
      setBusy(false);
      if (error.status === 409) { view.selected.clear(); view.moveFocus = true; await refresh(); return; }
      $("game-error").textContent = error.status === 401 || error.status === 403
        ? t("This seat is not held in this browser: you can watch, but only its player can play it.")
        : error.message;
      render();
      return;
    }
  }
}

async function refresh() {
  if (!view.game) return;
  try { await receive(await api.gameState(view.game.id, view.game.event_count)); render(); } catch (error) { $("game-error").textContent = error.message; }
}

function shut() {
  if (!view.game || view.game.pending.kind !== "shut") return;
  if (!selectionIsLegal()) {
    const target = view.game.pending.roll.reduce((a, b) => a + b, 0);
    $("game-error").textContent = say(view.selected.size ? "pick_wrong" : "pick_first", { target });
    announce($("game-error").textContent);
    return;
  }
  act("shut", { tiles: [...view.selected].sort((a, b) => a - b) });
}

export function toggle(tile) {
  if (view.busy || view.playing || !view.game || view.game.pending.kind !== "shut" || !myMove()) return;
  const button = $("tiles").querySelector(`[data-tile="${tile}"]`);
  if (!button || !usable(button)) return;
  if (view.selected.has(tile)) view.selected.delete(tile); else view.selected.add(tile);
  $("game-error").textContent = "";
  render();
  announce(pickText());      // each pick is read out: what the tiles add up to
}

function clearSelection() {
  if (!view.selected.size) return;
  view.selected.clear();
  render();
  announce(pickText());
}

function onKey(event) {
  if (!view.game || $("view-game").hidden || $("keys").open) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  const p = view.game.pending;
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
    if (tile <= view.game.rules.tiles) toggle(tile);
    return;
  }
  const onControl = ["BUTTON", "A", "SUMMARY"].includes(target.tagName);
  if (key === "Enter" && !onControl && mine) {
    event.preventDefault();
    if (p.kind === "roll") act("roll", {});
    else if (p.kind === "shut") shut();
  } else if (key === "Escape" && view.selected.size) {
    event.preventDefault();
    clearSelection();
  } else if ((key === "r" || key === "R") && mine && p.kind === "roll") {
    act("roll", {});
  } else if (key === "h" || key === "H") {
    if (mine) showHint();
  }
}
