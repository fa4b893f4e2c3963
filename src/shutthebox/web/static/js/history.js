// My games: the games whose seats this browser holds, to resume, watch or review.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";

export async function show() {
  const box = $("history");
  fill(box, el("p", {}, "Loading your games…"));
  let games;
  try { games = await api.myGames(); } catch (error) { fill(box, el("p", { className: "error" }, error.message)); return; }
  if (!games.length) {
    fill(box, el("div", { className: "empty" },
      el("p", {}, "No games yet. The games you play in this browser appear here, finished or not, so you can come back to them."),
      el("a", { href: "/", "data-link": "", className: "button primary" }, "Start a game")));
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
        el("a", { href: `/games/${g.id}`, "data-link": "", className: `button${over ? "" : " primary"}`, "aria-label": `${over ? "View" : "Resume"} the game of ${g.players.join(", ")}` }, over ? "View" : "Resume"),
        over ? el("a", { href: `/review/${g.id}`, "data-link": "", className: "button", "aria-label": `Review the game of ${g.players.join(", ")}` }, "Review") : null));
  })));
}
