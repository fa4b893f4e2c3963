// The review (/review/ID): every decision against perfect play, with its cost in the unit of
// the objective, and the server's judgement: which moves were mistakes, and its verdict line
// per player (the coach's one threshold, not the page's own); then what a learner reads: each
// player's accuracy and luck against skill, their mistakes by size, the chart of their chance
// to win (or expected score) move by move, and why each costly move was worse, all in the
// server's words.

import * as api from "./api.js";
import { valueChart } from "./chart.js";
import { $, el, fill } from "./dom.js";
import { t } from "./i18n.js";

export async function show(id) {
  const box = $("review");
  fill(box, el("p", {}, t("Reviewing every move with the exact solver…")));
  let review, state;
  try {
    [review, state] = await Promise.all([api.review(id), api.gameState(id, 0)]);
  } catch (error) {
    fill(box, el("p", { className: "error" }, error.status === 404 ? t("There is no game at this address.") : error.message),
      el("p", {}, el("a", { href: "/history", "data-link": "" }, t("Back to my games"))));
    return;
  }
  $("review-title").textContent = t("Review: {game}", { game: state.format_text });
  const unit = review.unit || "points";
  const words = review.chart.table;       // the table's caption and cells, in the server's words
  const rows = review.decisions.map((d, i) =>
    el("tr", { className: d.costly ? "costly" : "", "data-index": d.index },
      el("td", { "data-label": t("Move") }, `${i + 1}. ${d.player}`),
      el("td", { "data-label": t("Open tiles") }, d.open.join(" ")),
      el("td", { "data-label": t("Roll") }, d.roll && d.phase === "shut" ? d.roll.join(" + ") : words.dice_choice),
      el("td", { "data-label": t("Played") }, d.played, d.by_computer ? el("small", { className: "by-computer" }, ` (${d.by_computer})`) : null),
      el("td", { "data-label": t("Best") }, d.best),
      el("td", { "data-label": t("Cost ({unit})", { unit }) }, d.costly ? el("strong", {}, `✗ ${d.cost.toFixed(2)}`) : words.best)));
  fill(box, 
    el("p", {}, el("a", { href: `/games/${id}`, "data-link": "" }, t("Back to the game"))),
    el("ul", { className: "verdicts" }, ...review.verdicts.map((line) => el("li", {}, line))),
    review.note ? el("p", { className: "note" }, review.note) : null,
    learner(review, box.clientWidth),
    review.decisions.length ? el("table", { className: "review stack" },
      el("caption", {}, words.caption),
      el("thead", {}, el("tr", {}, ...[t("Move"), t("Open tiles"), t("Roll"), t("Played"), t("Best"), t("Cost ({unit})", { unit })].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows)) : el("p", {}, words.empty));
}

/** Each player's accuracy and luck against skill, mistakes by size, the chart and the marks. */
function learner(review, room) {
  const players = review.players || [];
  if (!players.length) return null;
  const sizes = Object.keys(review.thresholds || {});
  const marks = (review.chart && review.chart.marks) || [];
  return el("section", { className: "learner", "aria-labelledby": "learner-title" },
    el("h2", { id: "learner-title" }, t("How each player played")),
    ...players.map((p) => el("div", { className: "player-lesson", "data-player": p.player },
      el("p", { className: "accuracy" }, p.accuracy_sentence),
      el("p", { className: "luck" }, p.sentence))),
    el("table", { className: "sizes stack" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Accuracy")),
        ...sizes.map((size) => el("th", { scope: "col" }, (review.chart && review.chart.legend[size]) || size)))),
      el("tbody", {}, ...players.map((p) => el("tr", {}, el("th", { scope: "row" }, p.player),
        el("td", { "data-label": t("Accuracy") }, p.accuracy.toFixed(1)),
        ...sizes.map((size) => el("td", { "data-size": size, "data-label": (review.chart && review.chart.legend[size]) || size }, String(p.sizes[size] ?? 0))))))),
    luckTable(review.chart && review.chart.luck),
    valueChart(review, room),
    marks.length ? el("ol", { className: "marks" }, ...marks.map((m) =>
      el("li", { className: `mark-text ${m.size}`, "data-size": m.size, "data-index": m.index }, m.text))) : null);
}

/** Where each player's result came from: their own dice (luck), the others' dice and
 * mistakes, their own mistakes; the words and figures are the server's. */
function luckTable(words) {
  if (!words || !words.rows.length) return null;
  const [first, ...rest] = words.columns;
  return el("table", { className: "luck-terms stack" },
    el("caption", {}, words.caption),
    el("thead", {}, el("tr", {}, ...words.columns.map((c) => el("th", { scope: "col" }, c.label)))),
    el("tbody", {}, ...words.rows.map((row) => el("tr", {},
      el("th", { scope: "row" }, row[first.key]),
      ...rest.map((c) => el("td", { "data-term": c.key, "data-label": c.label }, row[c.key]))))));
}
