// The reader's name on this server: asked once, on the first screen, for a new player (claim
// a name, or bring one here with its recovery code, or play without one), then remembered:
// a claimed name is kept with its player token (api.js sends it with every request), and a
// skip is kept too, so the page does not ask again. The recovery code is shown once, when
// the name is claimed, and kept nowhere. Every refusal is the server's sentence.

import * as api from "./api.js";
import { $, el, fill, announce } from "./dom.js";
import { t } from "./i18n.js";

const SKIPPED_KEY = "shutthebox.player-skipped";

function skipped() {
  try { return localStorage.getItem(SKIPPED_KEY) === "1"; } catch { return false; }
}

function rememberSkip() {
  try { localStorage.setItem(SKIPPED_KEY, "1"); } catch { /* private mode: asked next visit */ }
}

function forgetSkip() {
  try { localStorage.removeItem(SKIPPED_KEY); } catch { /* nothing kept */ }
}

/** The name the reader's own seat takes: the claimed one, else the page's "Player 1". */
export function seatName() {
  const found = api.player();
  return found ? found.name : t("Player {number}", { number: 1 });
}

/** Says to the other screens that the player changed (claimed, brought here, forgotten). */
function changed() {
  window.dispatchEvent(new Event("shutthebox:player"));
  drawLine();
}

let recovering = false;

function showWay(recover) {
  recovering = recover;
  $("claim-form").hidden = recover;
  $("recover-form").hidden = !recover;
  $("player-other-way").textContent = recover ? t("Claim a new name") : t("I have a recovery code");
  $("player-other-way").setAttribute("aria-expanded", String(recover));
  $("player-error").textContent = "";
}

/** Opens the dialog at its first step: a name to claim. */
function ask() {
  const dialog = $("player-dialog");
  if (dialog.open) return;
  $("player-ask").hidden = false;
  $("player-claimed").hidden = true;
  showWay(false);
  dialog.showModal();
  $("claim-name").focus();
}

/** On the first screen: asks a new player for a name, once (not a player who has one, nor
 * one who chose to play without). */
export function offer() {
  if (!api.player() && !skipped()) ask();
}

async function busy(button, work) {
  button.disabled = true;
  $("player-error").textContent = "";
  try {
    await work();
  } catch (problem) {
    $("player-error").textContent = problem.message;
  } finally {
    button.disabled = false;
  }
}

async function claim(event) {
  event.preventDefault();
  const name = $("claim-name").value.trim();
  if (!name) { $("player-error").textContent = t("Type the name to claim."); $("claim-name").focus(); return; }
  await busy($("claim-button"), async () => {
    const answer = await api.claimName(name);
    forgetSkip();
    changed();
    $("player-ask").hidden = true;
    $("player-claimed").hidden = false;
    $("player-welcome").textContent = t("The name {name} is yours on this server.", { name: answer.name });
    $("recovery-code").value = answer.recovery;
    $("copy-said").textContent = "";
    $("copy-recovery").hidden = !(navigator.clipboard && window.isSecureContext);
    $("recovery-code").focus();
    $("recovery-code").select();
  });
}

async function recover(event) {
  event.preventDefault();
  const name = $("recover-name").value.trim();
  const code = $("recover-code").value.trim();
  if (!name || !code) { $("player-error").textContent = t("Type your name and its recovery code."); return; }
  await busy($("recover-button"), async () => {
    const answer = await api.recoverName(name, code);
    forgetSkip();
    close();
    changed();
    announce(t("Welcome back, {name}.", { name: answer.name }));
  });
}

/** Closes the dialog; the recovery code goes with it (it is not kept on the page). */
function close() {
  const dialog = $("player-dialog");
  $("recovery-code").value = "";
  for (const id of ["claim-name", "recover-name", "recover-code"]) $(id).value = "";
  if (dialog.open) dialog.close();
}

function skip() {
  rememberSkip();
  close();
  drawLine();
}

/** The first screen's line about the reader: the name they play under, or an offer to
 * claim one (the reader's own choice: the page does not ask again by itself). */
function drawLine() {
  const line = $("player-line");
  if (!line) return;
  const found = api.player();
  if (found) fill(line, t("You play as {name}.", { name: found.name }));
  else {
    fill(line, t("You play without a name, unrated."), " ",
      el("button", { type: "button", on: { click: ask } }, t("Claim your name")));
  }
}

/** Checks the kept player with the server: one it does not know is forgotten (`onForgotten`
 * is then called: the first screen asks again). */
async function check(onForgotten) {
  const kept = api.player();
  if (!kept) return;
  const known = await api.checkPlayer();
  if (!known) { changed(); onForgotten(); }
}

export function init(onForgotten = () => {}) {
  $("claim-form").addEventListener("submit", claim);
  $("recover-form").addEventListener("submit", recover);
  $("player-other-way").addEventListener("click", () => {
    showWay(!recovering);
    // a name refused as someone's may be the reader's own, from another device
    if (recovering && !$("recover-name").value) $("recover-name").value = $("claim-name").value.trim();
    $(!recovering ? "claim-name" : $("recover-name").value ? "recover-code" : "recover-name").focus();
  });
  $("player-skip").addEventListener("click", skip);
  $("player-done").addEventListener("click", close);
  $("copy-recovery").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("recovery-code").value);
      $("copy-said").textContent = t("Copied.");
    } catch {
      $("recovery-code").select();
      $("copy-said").textContent = t("Select the code and copy it yourself.");
    }
  });
  // Esc: before a name is claimed, the reader chose to play without one; after, it is Done.
  $("player-dialog").addEventListener("cancel", (event) => {
    event.preventDefault();
    if ($("player-claimed").hidden) skip(); else close();
  });
  window.addEventListener("shutthebox:player-doubt", () => check(onForgotten));
  drawLine();
  check(onForgotten);
}
