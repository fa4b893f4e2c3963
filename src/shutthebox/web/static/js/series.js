// Play again: the finished game's button that starts the next game of the series with the
// same players (or takes this browser's seats in it), the tally of the series on the board,
// and the move to the next game when someone at the table starts it. Every sentence is the
// server's; the page's own words are its buttons'.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { t } from "./i18n.js";

let shown = null;       // the game whose series is shown
let moving = false;     // this browser is on its way to the next game

function go(path) {
  history.pushState(null, "", path);
  window.scrollTo(0, 0);
  window.dispatchEvent(new PopStateEvent("popstate"));       // main.js routes it
}

/** Shows the series of the game: its tally, and the next game once there is one. */
export async function showSeries(state) {
  shown = state.id;
  const box = $("series");
  let series;
  try { series = await api.series(state.id); } catch { return; }
  if (shown !== state.id) return;
  const lines = [series.tally_text, series.ledger_text].filter(Boolean).map((line) => el("p", {}, line));
  if (series.next) {
    lines.push(el("p", {}, series.next_text, " ",
      el("a", { href: `/games/${series.next}`, "data-link": "", className: "next-game" }, t("Go to the next game"))));
  }
  fill(box, ...lines);
  box.hidden = lines.length === 0;
}

export function hide() {
  shown = null;
  $("series").hidden = true;
}

/** The finished game's "Play again" button, for a browser holding a seat in it. */
export function playAgainButton(state) {
  if (!Object.keys(api.tokensFor(state.id)).length) return null;
  const button = el("button", { type: "button", className: "button primary", id: "play-again",
    on: { click: () => playAgain(state.id, button) } }, t("Play again"));
  return button;
}

async function playAgain(gameId, button) {
  button.disabled = true;
  moving = true;
  try {
    const answer = await api.rematch(gameId);
    go(`/games/${answer.game_id}`);
  } catch (error) {
    $("game-error").textContent = error.message;
    button.disabled = false;
  } finally {
    moving = false;
  }
}

/** Someone at the table started the next game: this browser's players take their seats in
 * it and go there; a watcher is shown the way. */
export async function onRematch(message) {
  const gameId = shown;
  if (!gameId || moving) return;        // (the news of our own press: we are going)
  if (Object.keys(api.tokensFor(gameId)).length) {
    try {
      await api.rematch(gameId);
      go(`/games/${message.game_id}`);
      return;
    } catch (error) {
      $("game-error").textContent = error.message;
    }
  }
  const box = $("series");
  box.append(el("p", {}, message.text, " ",
    el("a", { href: `/games/${message.game_id}`, "data-link": "", className: "next-game" }, t("Watch the next game"))));
  box.hidden = false;
}
