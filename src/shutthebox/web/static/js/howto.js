// How to play (/how-to-play/ID): the rules and format of one game, in the sentences the
// server sends (the same as the manual's), section by section.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { t } from "./i18n.js";

const SEEN_KEY = "shutthebox.seen-how-to-play";

/** Whether this browser has seen the screen (a first-time visitor is offered it once). */
export function seen() {
  try { return localStorage.getItem(SEEN_KEY) === "1"; } catch { return true; }
}

function markSeen() {
  try { localStorage.setItem(SEEN_KEY, "1"); } catch { /* private mode: offered again */ }
}

export async function show(id) {
  const box = $("how-to-play");
  const back = el("p", {}, el("a", { href: `/games/${encodeURIComponent(id)}`, "data-link": "" }, t("Back to the game")));
  fill(box, el("p", {}, t("Loading the rules…")));
  let guide;
  try { guide = await api.howToPlay(id); } catch (error) {
    fill(box, el("p", { className: "error" }, error.status === 404 ? t("There is no game at this address.") : error.message), back);
    return;
  }
  markSeen();
  fill(box, ...guide.sections.map((s) => el("section", {}, el("h2", {}, s.heading), ...s.lines.map((line) => el("p", {}, line)))), back);
}
