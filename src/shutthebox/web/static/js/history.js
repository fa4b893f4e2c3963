// My games: the games whose seats this browser holds, to resume, watch or review.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { t } from "./i18n.js";

export async function show() {
  const box = $("history");
  fill(box, el("p", {}, t("Loading your games…")));
  let games;
  try { games = await api.myGames(); } catch (error) { fill(box, el("p", { className: "error" }, error.message)); return; }
  if (!games.length) {
    fill(box, el("div", { className: "empty" },
      el("p", {}, t("No games yet. The games you play in this browser appear here, finished or not, so you can come back to them.")),
      el("a", { href: "/", "data-link": "", className: "button primary" }, t("Start a game"))));
    return;
  }
  fill(box, el("ul", { className: "cards" }, ...games.map((g) => {
    const over = g.status === "over";
    const when = new Date(g.updated);
    return el("li", { className: "card" },
      el("p", { className: "players-line" }, g.players.join(", ")),
      el("p", { className: "note" }, `${g.format_text} · ${g.status_text} · `,
        el("time", { dateTime: g.updated }, when.toLocaleString())),
      el("p", { className: "actions" },
        el("a", { href: `/games/${g.id}`, "data-link": "", className: `button${over ? "" : " primary"}`, "aria-label": over ? t("View the game of {players}", { players: g.players.join(", ") }) : t("Resume the game of {players}", { players: g.players.join(", ") }) }, over ? t("View") : t("Resume")),
        over ? el("a", { href: `/review/${g.id}`, "data-link": "", className: "button", "aria-label": t("Review the game of {players}", { players: g.players.join(", ") }) }, t("Review")) : null));
  })));
}
