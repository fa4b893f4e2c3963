// The join page (/join/CODE): who invites, what the game is, a name, and the seat is yours.
// A player with a name on this server joins under it (the server binds the seat to them);
// one without types a name.

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
  fill(summary,
    el("p", { className: "lead", id: "inviter" }, invite.invitation_text),
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
  const me = api.player();
  $("join-as").hidden = !me;
  $("join-as").textContent = me ? t("You join as {name}.", { name: me.name }) : "";
  for (const part of [$("join-name"), $("join-form").querySelector("label[for=join-name]")]) part.hidden = Boolean(me);
  (me ? $("join-button") : $("join-name")).focus();
}

async function submit(event) {
  event.preventDefault();
  if (!current) return;
  const me = api.player();
  const name = me ? me.name : $("join-name").value.trim();
  const error = $("join-error");
  if (!name) { error.textContent = t("Type your name (1 to 40 characters) to take the seat."); $("join-name").focus(); return; }
  $("join-button").disabled = true;
  try {
    const answer = await api.join(current.game_id, current.code, name);
    navigate(`/games/${answer.game_id}`);
  } catch (problem) {
    error.textContent = problem.message;      // the seat taken, the name someone's: the server says which
  } finally {
    $("join-button").disabled = false;
  }
}
