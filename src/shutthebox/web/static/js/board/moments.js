// Moments: a shut box, a round's end, the match's end (who won, in the server's words).

import * as api from "../api.js";
import { $, el, fill, announce, reducedMotion } from "../dom.js";
import { nameOf, mySeats } from "./seats.js";
import { view } from "./state.js";
import { play } from "../sound.js";
import { say } from "../sentences.js";
import { playAgainButton, showSeries } from "../series.js";
import { t } from "../i18n.js";

export function showMoment(event, line) {
  if (!event.shut_box || !line) return;
  const moment = $("moment");
  moment.className = "moment shut-box";
  fill(moment, el("p", { className: "big" }, line));
  moment.hidden = false;
}

function roundTable(state, scores, totals) {
  return el("table", {},
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Score")), el("th", { scope: "col" }, t("Total")))),
    el("tbody", {}, ...state.players.map((_, seat) => el("tr", {},
      el("th", { scope: "row" }, nameOf(state, seat)),
      el("td", {}, scores[String(seat)] === undefined ? "–" : String(scores[String(seat)])),
      el("td", {}, String(totals[seat]))))));
}

export function showRoundEnd(state, event) {
  if (["solo", "single"].includes(String(state.format).split(":")[0])) return;
  const moment = $("moment");
  moment.className = "moment round-end";
  fill(moment, el("h2", {}, say("round_over", { round: event.round })), roundTable(state, event.scores, event.totals));
  moment.hidden = false;
}

export function showOver(g) {
  const moment = $("moment");
  if (moment.classList.contains("final") && moment.dataset.game === g.id) return;
  const solo = g.players.length === 1;
  const ending = g.ending || {};          // the heading and the pot, in the server's words
  const heading = ending.heading || ending.status || "";
  const final = solo ? null : roundTable(g, g.round_scores || {}, g.totals);
  const held = mySeats(g);
  const won = (g.winners || []).some((seat) => held.has(seat));
  const again = playAgainButton(g);
  // over the board, until the player closes it to look at the board
  moment.className = "moment final over-board";
  moment.dataset.game = g.id;
  moment.setAttribute("role", "dialog");
  moment.setAttribute("aria-labelledby", "moment-title");
  const close = el("button", { type: "button", id: "moment-close", on: { click: () => {
    moment.classList.remove("over-board");
    moment.removeAttribute("role");
    close.remove();
  } } }, t("See the board"));
  fill(moment,
    el("h2", { id: "moment-title" }, heading),
    ending.pot ? el("p", {}, ending.pot) : null,
    el("p", { id: "against-perfect", className: "against-perfect" }),
    final,
    el("p", { className: "actions" },
      again,
      el("a", { href: `/review/${g.id}`, "data-link": "", className: `button${again ? "" : " primary"}` }, t("Review every move")),
      el("a", { href: "/", "data-link": "", className: "button" }, t("New game")),
      close));
  moment.hidden = false;
  announce(heading);
  (again || moment.querySelector("a")).focus();
  // a game that ended while shown (not one opened later): the score against perfect play,
  // and a win or a shut box celebrated
  if (view.justOver) {
    if (won || (solo && (g.board || []).length === 0)) celebrate();
    // (every friend's page asks as the game ends: the server works a finished game's
    // review out once and shares it)
    showAgainstPerfect(g, held);
  }
  view.justOver = false;
  showSeries(g);          // the tally, with this game counted
}

/** The score against perfect play of the seats held here (their verdicts; the game's if they
 * made no decision, or for a watcher). */
async function showAgainstPerfect(g, held) {
  let review;
  try { review = await api.review(g.id); } catch { return; }
  const line = $("against-perfect");
  if (!line || $("moment").dataset.game !== g.id) return;
  const mine = (review.players || []).filter((p) => held.has(p.seat) && p.verdict).map((p) => p.verdict);
  line.textContent = mine.length ? mine.join(" ") : review.verdict || "";
}

/** A win or a shut box: a fanfare, and (unless motion is reduced) confetti for a moment. */
function celebrate() {
  play("win");
  if (reducedMotion()) return;
  const shower = el("div", { className: "celebration", "aria-hidden": "true" });
  for (let i = 0; i < 36; i++) {
    const bit = el("span");
    bit.style.left = `${(i * 37) % 100}%`;
    bit.style.animationDelay = `${(i % 9) * 0.12}s`;
    shower.append(bit);
  }
  document.body.append(shower);
  setTimeout(() => shower.remove(), 3600);
}
