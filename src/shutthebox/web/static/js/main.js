// The page's router: one view per address (history.pushState, no reloads), the main
// navigation and the keys dialog. Each screen lives in its own module.

import { $ } from "./dom.js";
import * as board from "./board.js";
import * as newGame from "./newgame.js";
import * as join from "./join.js";
import * as myGames from "./history.js";
import * as review from "./review.js";
import * as howTo from "./howto.js";
import * as stats from "./stats.js";
import * as daily from "./daily.js";
import * as offline from "./offline.js";
import * as sound from "./sound.js";
import * as player from "./player.js";
import { t } from "./i18n.js";

const VIEWS = ["new", "join", "game", "review", "howto", "history", "stats", "daily"];

function showView(name) {
  for (const view of VIEWS) $(`view-${view}`).hidden = view !== name;
  for (const link of document.querySelectorAll("nav [data-nav]")) {
    if (link.dataset.nav === name) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (name !== "game") board.close();
}

async function route(created = null, first = false, then = {}) {
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  let match;
  if (location.hash.startsWith("#game/")) {        // addresses of the earlier page
    history.replaceState(null, "", `/games/${location.hash.slice(6)}`);
    return route(null, first);
  }
  if ((match = path.match(/^\/games\/([^/]+)$/))) {
    showView("game");
    document.title = t("Shut the Box: game");
    await board.open(decodeURIComponent(match[1]), created);
    if (then.roll) board.rollNow();      // the first screen's Roll: the game is made, and rolled
    return;
  }
  if ((match = path.match(/^\/join\/([^/]+)$/))) {
    showView("join");
    document.title = t("Shut the Box: join a game");
    await join.show(decodeURIComponent(match[1]));
  } else if ((match = path.match(/^\/how-to-play(?:\/([^/]+))?$/))) {
    showView("howto");
    document.title = t("Shut the Box: how to play");
    await howTo.show(match[1] ? decodeURIComponent(match[1]) : null);
  } else if ((match = path.match(/^\/review\/([^/]+)$/))) {
    showView("review");
    document.title = t("Shut the Box: review");
    await review.show(decodeURIComponent(match[1]));
  } else if (path === "/history") {
    showView("history");
    document.title = t("Shut the Box: my games");
    await myGames.show();
  } else if (path === "/daily") {
    showView("daily");
    document.title = t("Shut the Box: daily box");
    await daily.show();
  } else if (path === "/stats") {
    showView("stats");
    document.title = t("Shut the Box: statistics");
    await stats.show(params.get("player"));
  } else {
    showView("new");
    document.title = t("Shut the Box");
    await newGame.show();
  }
  if (!first) {
    const heading = document.querySelector(".view:not([hidden]) h1");
    if (heading && !document.activeElement?.closest(".view:not([hidden]) form, #quick-roll")) heading.focus({ preventScroll: false });
  }
}

/** Goes to a page of the app; `created` hands a new game's first state to the board, and
 * `then.roll` rolls at once. */
function navigate(path, created = null, then = {}) {
  history.pushState(null, "", path);
  window.scrollTo(0, 0);
  return route(created, false, then);
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", () => route());

$("keys-button").addEventListener("click", () => $("keys").showModal());
document.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
  if (event.key === "?" && !typing && !$("keys").open) { event.preventDefault(); $("keys").showModal(); }
});
$("code-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = $("code-input").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (code) navigate(`/join/${code}`);
});

board.init();
// a player the server no longer knows is forgotten: the first screen asks again
player.init(() => { if (!$("view-new").hidden) player.offer(); });
newGame.init(navigate);
join.init(navigate);
sound.init($("sound-toggle"));
offline.init(() => { if (!board.isOpen()) route(null, true); });
route(null, true);
