// The server's admin view (/admin): the games open and who is connected, the last errors,
// and the admin's actions, through /api/admin with the admin token (kept in this tab's
// sessionStorage only). The words come from the server's catalogues (i18n.js).

import { $, el, fill } from "./dom.js";
import { request } from "./api.js";
import { t } from "./i18n.js";

const KEY = "shutthebox-admin-token";

function headers() {
  return { Authorization: `Bearer ${sessionStorage.getItem(KEY) || ""}` };
}

function say(text) {
  $("status").textContent = text;
}

async function show() {
  const [games, errors] = await Promise.all([
    request("/api/admin/games", { headers: headers() }),
    request("/api/admin/errors", { headers: headers() }),
  ]);
  fill($("games"), ...games.map((game) => el("tr", {},
    el("td", {}, el("a", { href: `/games/${game.id}` }, game.id.slice(0, 8))),
    el("td", {}, game.status_text),
    el("td", {}, game.seats.map((seat) => seat.name).join(", ")),
    el("td", {}, String((game.online || []).length)),
    el("td", {}, game.updated.replace("T", " ").slice(0, 16)),
    el("td", {}, game.status === "playing" ? endButton(game.id) : ""))));
  $("no-games").hidden = games.length > 0;
  fill($("errors"), ...errors.map((line) => el("li", {}, typeof line === "string" ? line : JSON.stringify(line))));
  $("no-errors").hidden = errors.length > 0;
  $("view").hidden = false;
}

function endButton(id) {
  const button = el("button", { type: "button" }, t("End the game"));
  button.addEventListener("click", () => act(`/api/admin/games/${id}/end`, {}, t("The game is ended.")));
  return button;
}

async function act(path, body, done) {
  try {
    await request(path, { method: "POST", body, headers: headers() });
    say(done);
    await show();
  } catch (error) {
    say(error.message);
  }
}

$("unlock").addEventListener("submit", async (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("token").value);
  $("token").value = "";
  try {
    await show();
    say(t("Shown as of now."));
  } catch (error) {
    $("view").hidden = true;
    say(error.message);
  }
});

$("rename").addEventListener("submit", (event) => {
  event.preventDefault();
  act("/api/admin/players/rename", { old: $("rename-old").value, new: $("rename-new").value },
      t("The name is renamed."));
});

$("free").addEventListener("submit", (event) => {
  event.preventDefault();
  act("/api/admin/players/free", { name: $("free-name").value }, t("The name is free."));
});

document.body.dataset.ready = "true";
