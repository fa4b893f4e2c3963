// The join page (/join/CODE): what the game is, a name, and the seat is yours.

import * as api from "./api.js";
import { $, el, fill } from "./dom.js";
import { t } from "./i18n.js";

let navigate = () => {};
let current = null;

export function init(go) {
  navigate = go;
  $("join-form").addEventListener("submit", submit);
}

export async function show(code) {
  current = null;
  $("join-error").textContent = "";
  $("join-form").hidden = true;
  const summary = $("join-summary");
  fill(summary, el("p", {}, t("Looking up the invitation…")));
  let invite;
  try {
    invite = await api.invite(code);
  } catch (error) {
    fill(summary, 
      el("p", {}, error.status === 404 ? t("There is no game with the code {code}. Check the code with the friend who sent it.", { code: code.toUpperCase() }) : error.message),
      el("p", {}, el("a", { href: "/", "data-link": "" }, t("Start a game of your own"))));
    return;
  }
  const held = api.tokensFor(invite.game_id);
  if (held[invite.seat] !== undefined) { navigate(`/games/${invite.game_id}`); return; }
  current = invite;
  const others = invite.players.filter((_, i) => i !== invite.seat);
  fill(summary, 
    el("p", { className: "lead" }, !others.length ? t("A friend invites you to a game of Shut the Box.")
      : others.length === 1 ? t("{name} invites you to a game of Shut the Box.", { name: others[0] })
        : t("{names} invite you to a game of Shut the Box.", { names: others.join(", ") })),
    el("dl", { className: "facts" },
      el("dt", {}, t("Game")), el("dd", {}, invite.format_text),
      el("dt", {}, t("Rules")), el("dd", {}, invite.rules_text),
      el("dt", {}, t("Players")), el("dd", {}, invite.players.map((name, i) => (i === invite.seat ? t("you") : name)).join(", ")),
      el("dt", {}, t("Code")), el("dd", {}, invite.code)));
  if (invite.taken) {
    summary.append(el("p", {}, t("Someone has already taken this seat.") + " ",
      el("a", { href: `/games/${invite.game_id}`, "data-link": "" }, t("Watch the game"))));
    return;
  }
  $("join-form").hidden = false;
  $("join-name").focus();
}

async function submit(event) {
  event.preventDefault();
  if (!current) return;
  const name = $("join-name").value.trim();
  const error = $("join-error");
  if (!name) { error.textContent = t("Type your name (1 to 40 characters) to take the seat."); $("join-name").focus(); return; }
  $("join-button").disabled = true;
  try {
    const answer = await api.join(current.game_id, current.code, name);
    navigate(`/games/${answer.game_id}`);
  } catch (problem) {
    error.textContent = problem.status === 409 ? t("Someone took this seat just before you: ask your friend for another invitation.") : problem.message;
  } finally {
    $("join-button").disabled = false;
  }
}
