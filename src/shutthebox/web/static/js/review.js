// The review (/review/ID): every decision against perfect play, with its cost in the unit of
// the objective, costly moves marked, and one verdict line per player.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { gameTitle, plural } from "./words.js";

const COSTLY = 1e-9;

function amount(cost, unit) {
  return `${cost.toFixed(2)} ${unit === "percentage points" ? "percentage points" : cost === 1 ? "point" : "points"}`;
}

/** "2 mistakes cost Ann 3.10 points (1.55 each on average)." */
function verdict(player, decisions, unit) {
  const costly = decisions.filter((d) => (d.costly ?? d.cost > COSTLY));
  if (!costly.length) return `${player}: every one of ${plural(decisions.length, "decision")} was the best. Perfect play.`;
  const total = costly.reduce((a, d) => a + d.cost, 0);
  const what = unit === "percentage points" ? "of chance to win" : "of expected score";
  return `${player}: ${plural(costly.length, "costly move")} out of ${decisions.length} cost ${amount(total, unit)} ${what} (${(total / costly.length).toFixed(2)} each on average).`;
}

export async function show(id) {
  const box = $("review");
  fill(box, el("p", {}, "Reviewing every move with the exact solver…"));
  let review, state;
  try {
    [review, state] = await Promise.all([api.review(id), api.gameState(id, 0)]);
  } catch (error) {
    fill(box, el("p", { className: "error" }, error.status === 404 ? "There is no game at this address." : error.message),
      el("p", {}, el("a", { href: "/history", "data-link": "" }, "Back to my games")));
    return;
  }
  $("review-title").textContent = `Review: ${gameTitle(state)}`;
  const unit = review.unit || "points";
  const byPlayer = new Map();
  for (const d of review.decisions) {
    if (!byPlayer.has(d.player)) byPlayer.set(d.player, []);
    byPlayer.get(d.player).push(d);
  }
  const rows = review.decisions.map((d, i) => {
    const costly = d.costly ?? d.cost > COSTLY;
    return el("tr", { className: costly ? "costly" : "" },
      el("td", { "data-label": "Move" }, `${i + 1}. ${d.player}`),
      el("td", { "data-label": "Open tiles" }, d.open.join(" ")),
      el("td", { "data-label": "Roll" }, d.roll && d.phase === "shut" ? d.roll.join(" + ") : "dice choice"),
      el("td", { "data-label": "Played" }, d.played),
      el("td", { "data-label": "Best" }, d.best),
      el("td", { "data-label": `Cost (${unit})` }, costly ? el("strong", {}, `✗ ${d.cost.toFixed(2)}`) : "best",
        costly && d.verdict ? el("span", { className: "verdict" }, d.verdict) : null));
  });
  fill(box, 
    el("p", {}, el("a", { href: `/games/${id}`, "data-link": "" }, "Back to the game")),
    el("ul", { className: "verdicts" }, ...[...byPlayer].map(([player, decisions]) => el("li", {}, verdict(player, decisions, unit)))),
    review.note ? el("p", { className: "note" }, review.note) : null,
    review.decisions.length ? el("table", { className: "review stack" },
      el("caption", {}, `Every decision; costs are in ${unit === "percentage points" ? "percentage points of the chance to win" : "points of expected score"} against perfect play. Costly moves are marked ✗.`),
      el("thead", {}, el("tr", {}, ...["Move", "Open tiles", "Roll", "Played", "Best", `Cost (${unit})`].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows)) : el("p", {}, "No decisions were made in this game yet."));
}
