// Drawing the board: the title and rules (as the server sends them), the players, the tiles,
// the dice, the status line, the controls of the seats held here, and the invites.

import * as api from "../api.js";
import { $, el, fill, clear, setUsable } from "../dom.js";
import { drawDice } from "../dice.js";
import { view, selectionIsLegal } from "./state.js";
import { mySeats, seatKind, myMove, hasCompany, shownName } from "./seats.js";
import { showOver } from "./moments.js";
import { toggle } from "./input.js";
import { updateCoach } from "./coach.js";
import { drawTable, presenceMark } from "./table.js";
import { say, loaded } from "../sentences.js";
import { t } from "../i18n.js";

/** A computer's strength in the page's language (its other names as they are). */
function strengthName(strength) {
  return { easy: t("easy"), medium: t("medium"), hard: t("hard") }[strength] || strength;
}

const ACTION_BUTTONS = ["roll", "one-die", "two-dice", "shut", "clear", "hint"];

// A board drawn before the server's sentences came is drawn again with them.
loaded.then(() => { if (view.game) render(); });

export function render() {
  const g = view.game;
  if (!g) return;
  const p = g.pending;
  const mine = myMove();
  const battle = String(g.format).startsWith("battle");
  $("game-title").textContent = g.title;
  // the format's one line is the title; the rule details are behind "How to play"
  $("game-rules").hidden = true;
  $("view-game").classList.toggle("company", hasCompany(g));
  drawPlayers(g);
  drawTable(g);
  drawShare(g);
  drawTiles(g, mine && p.kind === "shut");
  drawTableDice(g);
  $("status").textContent = statusText(g, mine);
  const addsUp = mine && p.kind === "shut" && selectionIsLegal();
  $("status").classList.toggle("adds-up", addsUp);
  $("legend").hidden = !(p.legend && g.status === "playing" && p.kind === "shut");
  $("legend").textContent = p.legend || "";
  $("roll").hidden = !(mine && p.kind === "roll");
  $("one-die").hidden = $("two-dice").hidden = !(mine && p.kind === "choose-dice");
  $("shut").hidden = $("clear").hidden = !(mine && p.kind === "shut");
  $("shut").textContent = !battle ? t("Shut") : p.role === "stand" ? t("Stand up") : t("Knock down");
  $("hint").hidden = !mine;
  $("coach-toggle").parentElement.hidden = mySeats().size === 0 || g.status !== "playing";
  $("watching").hidden = mySeats().size > 0;
  setBusy(view.busy);
  setUsable($("shut"), !view.busy && !view.playing && addsUp);
  setUsable($("clear"), !view.busy && !view.playing && view.selected.size > 0);
  $("view-game").dataset.events = String(g.event_count);
  $("view-game").dataset.kind = g.status === "playing" ? p.kind : g.status;
  if (g.status === "over") showOver(g);
  if (view.moveFocus || focusLost()) focusNext(mine);
  view.moveFocus = false;
  updateCoach();
}

export function setBusy(value) {
  view.busy = value;
  const waiting = view.busy || view.playing;
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
  const p = view.game.pending;
  let target = $("game-title");
  if (mine && p.kind === "roll") target = $("roll");
  else if (mine && p.kind === "choose-dice") target = $("two-dice");
  else if (mine && p.kind === "shut") target = $("shut");
  else if (view.game.status === "over" && $("moment").querySelector("#play-again, a")) target = $("moment").querySelector("#play-again, a");
  target.focus({ preventScroll: !mine });
}

/** What the tiles picked add up to, in the server's sentence (read out at each pick). */
export function pickText() {
  const p = view.game.pending;
  if (!view.selected.size) return p.prompt || "";
  const picked = [...view.selected].sort((a, b) => a - b);
  const sum = picked.reduce((a, b) => a + b, 0);
  return say(selectionIsLegal() ? "picked_legal" : "picked", { tiles: picked.join(" + "), sum });
}

function statusText(g, mine) {
  const p = g.pending;
  if (g.status === "over") {
    const over = (g.ending && g.ending.status) || "";
    if (!view.lastEnd || view.lastEnd.shut_box || view.lastEnd.pass || !view.lastEnd.text) return over;
    return `${view.lastEnd.text}. ${over}`;
  }
  if (g.status === "waiting") return p.text;
  let head = "";
  if (view.lastEnd && view.lastEnd.text && !(p.kind === "shut")) head = `${view.lastEnd.text}. `;
  if (!mine) return `${head}${p.text || ""}`;      // what the game waits for, in the server's words
  // what the player is asked, in the server's words: to "you" when this browser holds one
  // seat, by name when several people share the screen
  let text = head + (mySeats().size === 1 ? p.prompt : p.prompt_named);
  if (p.kind !== "shut") return text;
  if (view.selected.size) text += ` ${pickText()}`;
  return text;
}

export function drawTiles(state, clickable) {
  const container = $("tiles");
  const count = state.rules.tiles;
  if (container.children.length !== count) {
    clear(container);
    for (let n = 1; n <= count; n++) {
      container.append(el("button", { type: "button", className: "tile", "data-tile": n, on: { click: () => toggle(n) } },
        el("span", { className: "tile-label" }, String(n))));
    }
    container.style.setProperty("--tiles", String(count));
    container.style.setProperty("--half", String(Math.ceil(count / 2)));
    container.classList.toggle("many", count > 6);     // two rows on a phone
  }
  const open = new Set(view.playing ? view.board : state.board);
  const p = state.pending;
  const stand = p.role === "stand";
  const battle = String(state.format).startsWith("battle");
  for (const button of container.children) {
    const tile = Number(button.dataset.tile);
    const up = open.has(tile);
    const canUse = clickable && (stand ? !up : up);
    const marked = battle && state.status === "playing" && p.kind === "shut" && (stand ? !up : up);
    // a tile shut (or stood up in a battle) while the events play: it flips (CSS; none
    // under reduced motion)
    if (view.playing && button.classList.contains("down") === up) flip(button, up ? "rise" : "flip");
    button.classList.toggle("down", !up);
    button.classList.toggle("picked", view.selected.has(tile));
    button.classList.toggle("hinted", view.hinted.has(tile) && up);
    button.classList.toggle("usable", marked);
    setUsable(button, canUse && !view.busy && !view.playing);
    button.setAttribute("aria-pressed", view.selected.has(tile) ? "true" : "false");
    const named = marked ? (stand ? "tile_stand" : "tile_knock") : battle ? (up ? "tile_up" : "tile_down") : (up ? "tile_open" : "tile_shut");
    const label = say(named, { tile }) || String(tile);
    const hinted = t("the hint's move");
    button.setAttribute("aria-label", view.hinted.has(tile) && up ? [label, hinted].join(", ") : label);
  }
}

const FLIP_MS = 600;

function flip(button, kind) {
  button.classList.remove("flip", "rise");
  button.classList.add(kind);
  setTimeout(() => button.classList.remove(kind), FLIP_MS);
}

function drawTableDice(g) {
  const p = g.pending;
  if (p.roll && p.kind === "shut") drawDice($("dice"), p.roll);
  else if (view.lastEnd && view.lastEnd.roll) drawDice($("dice"), view.lastEnd.roll, { faded: true });
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
    const kind = info.kind === "computer" ? t("computer, {strength}", { strength: strengthName(info.computer || player.computer) })
      : info.kind === "open" && !info.joined ? t("waiting to join") : info.kind === "open" ? t("friend") : "";
    const you = held.has(seat) && strangers ? t("you") : "";
    const note = [kind, you].filter(Boolean).join(" · ");
    const score = g.round_scores ? g.round_scores[String(seat)] : undefined;
    return el("tr", { className: classes.join(" ") },
      el("th", { scope: "row" }, el("span", { className: "name" }, shownName(info.name || player.name)), note ? el("small", {}, ` ${note}`) : null,
        presenceMark(g, seat, info),
        g.pending.seat === seat && g.status === "playing" ? el("span", { className: "visually-hidden" }, " " + t("(to play)")) : null),
      battle ? el("td", {}, say(seat === 0 ? "role_knock" : "role_stand")) : el("td", {}, score === undefined ? "–" : String(score)),
      battle ? null : el("td", {}, String(g.totals[seat])));
  });
  const head = battle ? [t("Player"), t("Role")] : [t("Player"), t("This round"), t("Total")];
  fill($("players"), el("table", {},
    el("caption", { className: "visually-hidden" }, t("Players")),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows)));
}

/** The server's sentence with its {code} shown as a code to read out, in bold. */
function withCode(sentence, code) {
  const [before, after = ""] = sentence.split("{code}");
  return [before, el("strong", { className: "code" }, code), after];
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
    if (!invite) return el("p", {}, say("invite_waiting", { name: seat.name }));
    const link = new URL(invite.link, location.origin).href;
    const input = el("input", { readOnly: true, value: link, className: "share-link", "aria-label": t("Link for {name}", { name: seat.name }) });
    const copy = el("button", { type: "button", on: { click: async () => {
      try { await navigator.clipboard.writeText(link); copy.textContent = t("Copied"); } catch { input.select(); copy.textContent = t("Press Ctrl+C to copy"); }
    } } }, t("Copy link"));
    // the phone's share sheet, where the browser has one
    const sheet = navigator.share ? el("button", { type: "button", className: "primary share-sheet", on: { click: () => {
      navigator.share({ title: g.title, url: link }).catch(() => { /* closed without sharing */ });
    } } }, t("Share")) : null;
    return el("div", { className: "invite" },
      el("div", {},
        el("p", {}, ...withCode(say("invite_seat", { seat: seat.seat + 1, name: seat.name }), invite.code)),
        el("div", { className: "share-row" }, input, sheet, copy)),
      el("img", { src: invite.qr, alt: t("QR code of the link for {name}", { name: seat.name }), className: "qr", width: 160, height: 160 }));
  });
  fill(share, el("h2", {}, t("Invite your friends")), ...cards);
  share.hidden = false;
}
