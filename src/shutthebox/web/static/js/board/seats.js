// Who holds which seat: the names at the table, the seats this browser holds, and whether
// the game waits for one of them.

import * as api from "../api.js";
import { view } from "./state.js";
import { t } from "../i18n.js";

/** A seat's name as the page shows it. Earlier pages named the reader's seat "You" (now it
 * takes the reader's name, see player.js): the games they stored say it in the page's language. */
export function shownName(name) {
  return name === "You" ? t("You") : name;
}

export function nameOf(state, seat) {
  const seats = state.seats || [];
  const fromSeats = seats.find((s) => s.seat === seat);
  if (fromSeats && fromSeats.name) return shownName(fromSeats.name);
  return shownName((state.players && state.players[seat] && state.players[seat].name) || t("Seat {number}", { number: seat + 1 }));
}

export function mySeats(state = view.game) {
  const held = new Set(Object.keys(api.tokensFor(state.id)).map(Number));
  for (const seat of state.you || []) held.add(seat);
  if (!state.seats && held.size === 0) {     // a server without seats: every human plays here
    (state.players || []).forEach((p, i) => { if (!p.computer) held.add(i); });
  }
  return held;
}

export function seatKind(state, seat) {
  const s = (state.seats || []).find((x) => x.seat === seat);
  if (s) return s;
  const player = state.players[seat];
  return { seat, name: player.name, kind: player.computer ? "computer" : "here", computer: player.computer, joined: true };
}

export function myMove(state = view.game) {
  const p = state.pending;
  return state.status === "playing" && ["roll", "choose-dice", "shut"].includes(p.kind) &&
    p.seat !== null && p.human !== false && mySeats(state).has(p.seat);
}

/** Whether someone else is at the table (a friend's seat): reactions, presence and the
 * host's controls are for them, not for a game alone or against the computer. */
export function hasCompany(state = view.game) {
  if (!state) return false;
  const held = mySeats(state);
  return (state.seats || []).some((s) => s.kind === "open" || (s.kind !== "computer" && !held.has(s.seat)));
}
