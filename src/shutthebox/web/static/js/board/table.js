// The table of a game with friends online: who is at it now (the live feed says), the turn
// clock counting down for the seat to act, the host's controls, and taking a seat back from
// the computer. The server decides all of it; this shows what it sends.

import * as api from "../api.js";
import { $, el, fill, setUsable, announce } from "../dom.js";
import { t } from "../i18n.js";
import { view } from "./state.js";
import { mySeats, nameOf, hasCompany } from "./seats.js";

let online = null;        // the seats present (null: the feed has not said yet)
let countdown = null;     // {count, left, at}: the clock as the last state had it
let ticker = null;
let apply = () => {};     // shows a state the server answered (playback's receive)

/** Wires the host's buttons and "Take my seat back" once; `receive` shows an answer. */
export function wireTable(receive) {
  apply = receive;
  if ($("end-game").dataset.wired) return;
  $("end-game").dataset.wired = "true";
  const act = async (action, seat, body) => {
    $("game-error").textContent = "";
    try { apply(await api.tableAction(view.game.id, action, seat, body)); } catch (error) { $("game-error").textContent = error.message; }
  };
  const host = () => view.game.table.host;
  $("clock-pause").addEventListener("click", () => act("pause", host()));
  $("clock-resume").addEventListener("click", () => act("resume", host()));
  $("hand-over").addEventListener("click", () => act("hand", host(), { seat: Number($("hand-seat").value) }));
  $("end-game").addEventListener("click", () => {
    if (window.confirm(t("End the game for everyone? Nobody wins it."))) act("end", host());
  });
  $("take-back").addEventListener("click", () => {
    const away = [...mySeats()].find((seat) => view.game.table.away.includes(seat));
    if (away !== undefined) act("back", away);
  });
}

/** A presence message of the live feed: who is at the table, and who came or left. */
export function showPresence(message) {
  online = new Set(message.online);
  // (the news of a seat held on this page is not news to its reader)
  const mine = view.game && mySeats(view.game).has(message.seat);
  if (message.text && hasCompany() && !mine) {
    $("table-news").textContent = message.text;
    announce(message.text);       // read out through the page's one live region
  }
  for (const mark of document.querySelectorAll("#players .presence")) drawMark(mark, Number(mark.dataset.seat));
}

/** Forgets the last game's table (another game is opened). */
export function resetTable() {
  online = null;
  countdown = null;
  $("table-news").textContent = "";
}

/** The presence mark of a seat in the players' table (none for computers and open seats). */
export function presenceMark(g, seat, info) {
  if (!hasCompany(g) || info.kind === "computer" || (info.kind === "open" && !info.joined)) return null;
  const mark = el("span", { className: "presence", "data-seat": String(seat) });
  drawMark(mark, seat);
  return mark;
}

function drawMark(mark, seat) {
  const g = view.game;
  const away = g && g.table && g.table.away.includes(seat);
  // a seat held on this page is at the table, whatever the last presence news said (it may
  // predate this page's own live feed, or a reconnection of it)
  const here = online !== null && (online.has(seat) || (Boolean(g) && mySeats(g).has(seat)));
  mark.hidden = online === null && !away;
  mark.classList.toggle("online", here);
  mark.classList.toggle("gone", online !== null && !here);
  const words = [];
  if (online !== null) words.push(here ? t("at the table") : t("left"));
  if (away) words.push(t("the computer plays for them"));
  fill(mark, el("span", { "aria-hidden": "true" }, " ●"), el("small", {}, ` ${words.join(" · ")}`));
}

/** The clock, the host's controls and "Take my seat back", as the game is now. */
export function drawTable(g) {
  const table = g.table || { clock: null, host: null, away: [], paused: false, left: null };
  const playing = g.status === "playing";
  const mine = mySeats(g);
  // the clock of the decision waited for, counted down here from what the server said
  if (!countdown || countdown.count !== g.event_count) {
    countdown = { count: g.event_count, left: table.left, at: performance.now() };
  }
  drawClock(g, table, playing);
  if (playing && table.clock !== null && table.left !== null && !ticker) {
    ticker = setInterval(() => { if (view.game) drawClock(view.game, view.game.table || table, view.game.status === "playing"); }, 250);
  }
  const isHost = hasCompany(g) && playing && table.host !== null && mine.has(table.host);
  $("host-controls").hidden = !isHost;
  if (isHost) {
    $("clock-pause").hidden = table.clock === null || table.paused;
    $("clock-resume").hidden = table.clock === null || !table.paused;
    const others = g.seats.filter((s) => s.kind !== "computer" && s.seat !== table.host && !table.away.includes(s.seat));
    const chosen = $("hand-seat").value;
    fill($("hand-seat"), ...others.map((s) => el("option", { value: String(s.seat) }, nameOf(g, s.seat))));
    if (others.some((s) => String(s.seat) === chosen)) $("hand-seat").value = chosen;
    $("hand-seat").parentElement.hidden = $("hand-over").hidden = others.length === 0;
    for (const id of ["clock-pause", "clock-resume", "hand-over", "end-game"]) setUsable($(id), !view.busy);
  }
  $("seat-back").hidden = !(playing && [...mine].some((seat) => table.away.includes(seat)));
}

function drawClock(g, table, playing) {
  const line = $("clock-left");
  const running = playing && table.clock !== null && table.left !== null && countdown && countdown.left !== null;
  if (!running) {
    line.hidden = !(playing && table.clock !== null && table.paused);
    line.textContent = t("The clock is paused");
    line.classList.remove("short");
    if (!playing && ticker) { clearInterval(ticker); ticker = null; }
    return;
  }
  const left = Math.max(0, Math.ceil(countdown.left - (performance.now() - countdown.at) / 1000));
  line.hidden = false;
  const unit = t("s left");
  line.textContent = `${nameOf(g, g.pending.seat)}: ${left} ${unit}`;
  line.classList.toggle("short", left <= 5);
}
