// Moments: a shut box, a round's end, the match's end (who won, in the server's words).

import { $, el, fill, announce } from "../dom.js";
import { nameOf } from "./seats.js";
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
  const heading = ending.heading || "";
  const final = solo ? null : roundTable(g, g.round_scores || {}, g.totals);
  moment.className = "moment final";
  moment.dataset.game = g.id;
  fill(moment, 
    el("h2", {}, heading),
    ending.pot ? el("p", {}, ending.pot) : null,
    final,
    el("p", { className: "actions" },
      playAgainButton(g),
      el("a", { href: `/review/${g.id}`, "data-link": "", className: "button primary" }, t("Review every move")),
      el("a", { href: "/", "data-link": "", className: "button" }, t("New game"))));
  moment.hidden = false;
  announce(heading);
  showSeries(g);          // the tally, with this game counted
}
