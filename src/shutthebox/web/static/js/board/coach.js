// Help at the table: the hint (every move ranked by the server), the coach's line, and a solo
// player's personal best.

import * as api from "../api.js";
import { $, el, fill, announce } from "../dom.js";
import { render } from "./draw.js";
import { view } from "./state.js";
import { myMove } from "./seats.js";
import { say } from "../sentences.js";
import { t } from "../i18n.js";

export async function showHint() {
  const panel = $("hint-panel");
  if (!view.game || !myMove()) return;
  if (view.game.pending.kind === "roll") {
    fill(panel, el("p", {}, say("hint_roll_first")));
    panel.hidden = false;
    announce(say("hint_roll_first"));
    return;
  }
  try {
    const hint = await api.hint(view.game.id);
    if (!hint.options || !hint.options.length) {
      fill(panel, el("p", {}, hint.message || say("hint_nothing")));
      panel.hidden = false;
      announce(hint.message || say("hint_nothing"));
      return;
    }
    const percent = (v) => `${(v * 100).toFixed(2)} %`;
    const score = hint.measure === "expected score";
    const value = (v) => (score ? v.toFixed(2) : percent(v));
    const verb = view.game.pending.role === "stand" ? t("Stand up") : String(view.game.format).startsWith("battle") ? t("Knock down") : t("Shut");
    const rows = hint.options.map((o, i) => el("tr", { className: i === 0 ? "best" : "" },
      el("th", { scope: "row" }, `${i === 0 ? "★ " : ""}${o.text}`),
      el("td", {}, value(o.value)),
      el("td", {}, o.loss > 1e-9 ? (score ? o.loss.toFixed(2) : (o.loss * 100).toFixed(2)) : say("hint_best")),
      el("td", {}, percent(o.p_shut))));
    fill(panel, 
      el("h2", {}, t("Hint")),
      el("table", {},
        el("caption", {}, say(score ? "hint_caption_score" : "hint_caption_chance")),
        el("thead", {}, el("tr", {}, ...[hint.kind === "shut" ? verb : t("Dice"), say(score ? "hint_expected_score" : "hint_chance_to_win"), say(score ? "hint_loses_points" : "hint_loses_chance"), say("hint_chance_to_shut")].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, ...rows)),
      hint.message ? el("p", { className: "note" }, hint.message) : null);
    panel.hidden = false;
    // the best move on the board itself (its tiles ringed), and read out
    view.hinted = new Set(hint.options[0].tiles || []);
    render();
    announce(t("Hint: {move}", { move: hint.options[0].text }));
  } catch (error) { $("game-error").textContent = error.message; }
}

export async function updateCoach() {
  const line = $("coach");
  if (!$("coach-toggle").checked || !view.game || view.game.status !== "playing" || !myMove()) { line.textContent = ""; return; }
  if (view.coachAt === view.game.event_count) return;
  view.coachAt = view.game.event_count;
  try {
    const coach = await api.coach(view.game.id);
    line.textContent = coach.text || "";
  } catch (error) { line.textContent = error.message; }
}

// Solo play: the best solo score of this player (asked only for names that have games, so a
// first game makes no failing request).
export async function showPersonalBest(state) {
  if (state.players.length !== 1) return;
  const name = state.players[0].name;
  try {
    const known = await api.players();
    if (!known.some((p) => p.name === name)) { $("personal-best").textContent = say("first_solo_game"); return; }
    const stats = await api.stats(name);
    const best = stats.solo ? stats.solo.personal_best : stats.personal_best;
    if (best !== null && best !== undefined) $("personal-best").textContent = say("personal_best", { best });
  } catch { /* statistics are a bonus on the board */ }
}
