// Reactions: a row of emoji a player at this game can send, and the reactions of everyone
// at the table, shown briefly over the board as the live feed brings them. The server takes
// only an id of its fixed set (no free text) and says who reacted, in its own words.

import * as api from "./api.js";
import { $, announce, el, fill, setUsable, usable } from "./dom.js";
import { t } from "./i18n.js";

const SHOWN_MS = 3500;
const LABELS = {
  cheer: () => t("Cheer"), laugh: () => t("Laugh"), wow: () => t("Wow"),
  groan: () => t("Groan"), cool: () => t("Keep cool"), wink: () => t("Wink"),
};
let known = null;       // the server's reactions: [{id, emoji, text}]
let gameId = null;

/** Shows the reaction buttons to a player holding a seat of `state`'s game (not a watcher). */
export async function showButtons(state, seated) {
  gameId = state.id;
  const bar = $("reactions");
  if (!seated) { bar.hidden = true; return; }
  if (!known) {
    try { known = await api.reactions(); } catch { bar.hidden = true; return; }
  }
  if (bar.dataset.game === state.id && !bar.hidden) return;
  bar.dataset.game = state.id;
  fill(bar, ...known.map((r) => el("button", {
    type: "button", className: "reaction", "data-reaction": r.id,
    "aria-label": LABELS[r.id] ? LABELS[r.id]() : r.text, title: LABELS[r.id] ? LABELS[r.id]() : r.text,
    on: { click: (event) => send(r.id, event.currentTarget) },
  }, r.emoji)));
  bar.setAttribute("aria-label", t("Reactions"));
  bar.hidden = false;
}

export function hide() {
  $("reactions").hidden = true;
  gameId = null;
}

async function send(reaction, button) {
  if (!gameId || !usable(button)) return;
  const buttons = [...$("reactions").querySelectorAll("button")];
  try {
    await api.react(gameId, reaction);
  } catch (error) {
    if (error.status === 429) {         // the seat's rate: the buttons rest a moment
      for (const b of buttons) setUsable(b, false);
      setTimeout(() => { for (const b of buttons) setUsable(b, true); }, (error.retryAfter || 1) * 1000);
    }
  }
}

/** A reaction from the live feed: the emoji and the server's sentence, for a moment. */
export function show(message) {
  const feed = $("reaction-feed");
  const bubble = el("p", { className: "reaction-bubble", "data-seat": message.seat, "data-reaction": message.reaction },
    el("span", { className: "emoji", "aria-hidden": "true" }, message.emoji), " ", message.text);
  feed.append(bubble);
  while (feed.children.length > 4) feed.firstElementChild.remove();
  setTimeout(() => bubble.remove(), SHOWN_MS);
  announce(message.text);       // (the page's one live region)
}
