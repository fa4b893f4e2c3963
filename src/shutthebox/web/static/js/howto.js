// How to play (/how-to-play/ID, or /how-to-play for the usual game): the rules and format of
// one game, in the sentences the server sends (the same as the manual's), section by section.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { t } from "./i18n.js";

const SEEN_KEY = "shutthebox.seen-how-to-play";
const OFFERED_KEY = "shutthebox.offered-how-to-play";

/** Whether this browser has seen the screen (a first-time visitor is offered it once). */
export function seen() {
  try { return localStorage.getItem(SEEN_KEY) === "1"; } catch { return true; }
}

let offeredNow = false;      // offered on this page load: kept while the player moves about

/** Whether to offer "How to play" on the first screen: on a first visit only (offered once:
 * the next visit, or a visit after reading it, is not offered it again). */
export function offerOnce() {
  try {
    if (seen()) return false;
    if (offeredNow) return true;
    if (localStorage.getItem(OFFERED_KEY) === "1") return false;
    localStorage.setItem(OFFERED_KEY, "1");
    offeredNow = true;
    return true;
  } catch { return false; }
}

function markSeen() {
  try { localStorage.setItem(SEEN_KEY, "1"); } catch { /* private mode: offered again */ }
}

export async function show(id) {
  const box = $("how-to-play");
  const back = el("p", {}, id ? el("a", { href: `/games/${encodeURIComponent(id)}`, "data-link": "" }, t("Back to the game"))
    : el("a", { href: "/", "data-link": "" }, t("Back to the box")));
  fill(box, el("p", {}, t("Loading the rules…")));
  let guide;
  try { guide = await api.howToPlay(id); } catch (error) {
    fill(box, el("p", { className: "error" }, error.status === 404 ? t("There is no game at this address.") : error.message), back);
    return;
  }
  markSeen();
  fill(box, ...guide.sections.map((s) => el("section", {}, el("h2", {}, s.heading), ...s.lines.map((line) => el("p", {}, line)))), back);
}
