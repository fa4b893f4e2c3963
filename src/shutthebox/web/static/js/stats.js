// Statistics: choose a player from the list; their record, solo best and score history, and
// a chart of their scores against the exact distribution of perfect play.

import * as api from "./api.js";
import { smallLine } from "./chart.js";
import { $, el, fill, svg } from "./dom.js";
import { t } from "./i18n.js";

export async function show(name) {
  const list = $("stats-players");
  const box = $("stats");
  fill(box);
  let players;
  try { players = await api.players(); } catch (error) { fill(list, el("p", { className: "error" }, error.message)); return; }
  if (!players.length) {
    fill(list, el("div", { className: "empty" },
      el("p", {}, t("No finished games yet. Finish a game and each player's record appears here, with their scores against perfect play.")),
      el("a", { href: "/", "data-link": "", className: "button primary" }, t("Start a game"))));
    return;
  }
  fill(list, el("h2", {}, t("Players")), el("ul", { className: "chips" }, ...players.map((p) => el("li", {},
    el("a", { href: `/stats?player=${encodeURIComponent(p.name)}`, "data-link": "", className: `chip${p.name === name ? " current" : ""}`,
      "aria-current": p.name === name ? "page" : null }, el("span", { className: "name" }, p.name), el("small", {}, ` ${p.games_text}`))))));
  if (name === null || name === undefined) { fill(box, el("p", { className: "note" }, t("Choose a player to see their record."))); return; }
  if (!players.some((p) => p.name === name)) {
    fill(box, el("p", { className: "empty" }, t("No finished games for “{name}” yet. Choose a player from the list.", { name })));
    return;
  }
  let s;
  try { s = await api.stats(name); } catch (error) { fill(box, el("p", { className: "error" }, error.message)); return; }
  const words = s.words;                  // every fact and caption in the server's words
  const solo = words.solo ? el("section", { "aria-labelledby": "solo-title" },
    el("h3", { id: "solo-title" }, words.solo.title),
    el("p", {}, words.solo.best),
    el("p", { className: "note" }, words.solo.scores)) : null;
  fill(box, 
    el("h2", { className: "name" }, s.player),
    el("table", { className: "facts-table" }, el("tbody", {}, ...words.rows.map(([k, v]) => el("tr", {}, el("th", { scope: "row" }, k), el("td", {}, String(v)))))),
    s.rating ? el("section", { className: "rating", "aria-labelledby": "rating-title" },
      el("h3", { id: "rating-title" }, t("Rating")),
      el("p", { className: "rating-text" }, s.rating.text),
      smallLine(s.rating.history, s.rating.history_title, s.rating.history_text),
      el("p", { className: "note" }, s.rating.history_text)) : null,
    s.accuracy ? el("section", { className: "accuracy", "aria-labelledby": "accuracy-title" },
      el("h3", { id: "accuracy-title" }, t("Accuracy")),
      el("p", { className: "accuracy-text" }, s.accuracy.text),
      smallLine(s.accuracy.history, s.accuracy.title, s.accuracy.text)) : null,
    solo,
    el("h3", {}, words.chart.heading),
    chart(s, box.clientWidth));
}

/** Bars: the share of the player's turns at each score; dots: perfect play's share. */
function chart(s, room) {
  const words = s.words.chart;
  const total = Object.values(s.scores).reduce((a, b) => a + b, 0) || 1;
  const keys = [...new Set([...Object.keys(s.optimal), ...Object.keys(s.scores)])].map(Number).sort((a, b) => a - b);
  const mine = (k) => (s.scores[String(k)] || 0) / total;
  const best = (k) => s.optimal[String(k)] || 0;
  const top = Math.max(0.05, ...keys.map((k) => Math.max(mine(k), best(k))));
  const ceiling = Math.ceil(top * 20) / 20;      // a round top: 5 % steps
  const width = Math.round(Math.max(320, Math.min(720, room || 640))), height = 280, left = 66, right = 12, topPad = 28, bottom = 46;
  const plotW = width - left - right, plotH = height - topPad - bottom;
  const band = plotW / Math.max(keys.length, 1);
  const x = (i) => left + i * band + band / 2;
  const y = (share) => topPad + plotH - (share / ceiling) * plotH;
  const parts = [];
  const ticks = 5;
  for (let t = 0; t <= ticks; t++) {
    const share = (ceiling * t) / ticks;
    parts.push(svg("line", { x1: left, x2: width - right, y1: y(share), y2: y(share), class: "grid" }));
    parts.push(svg("text", { x: left - 6, y: y(share) + 4, "text-anchor": "end", class: "tick" }, document.createTextNode(`${Math.round(share * 100)} %`)));
  }
  keys.forEach((k, i) => {
    const h = y(0) - y(mine(k));
    const bar = svg("rect", { x: x(i) - band * 0.35, y: y(mine(k)), width: band * 0.7, height: Math.max(h, 0), class: "bar" });
    bar.append(svg("title", {}, document.createTextNode(words.bars[String(k)] || "")));
    parts.push(bar);
    const dot = svg("circle", { cx: x(i), cy: y(best(k)), r: 3.5, class: "dot" });
    dot.append(svg("title", {}, document.createTextNode(words.dots[String(k)] || "")));
    parts.push(dot);
  });
  const every = Math.ceil(keys.length / Math.max(4, Math.floor(plotW / 36)));
  keys.forEach((k, i) => { if (i % every === 0) parts.push(svg("text", { x: x(i), y: y(0) + 16, "text-anchor": "middle", class: "tick" }, document.createTextNode(String(k)))); });
  parts.push(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis" }));
  parts.push(svg("line", { x1: left, x2: left, y1: topPad, y2: y(0), class: "axis" }));
  parts.push(svg("text", { x: left + plotW / 2, y: height - 8, "text-anchor": "middle", class: "axis-title" }, document.createTextNode(words.x_label)));
  parts.push(svg("text", { x: 16, y: topPad + plotH / 2, "text-anchor": "middle", transform: `rotate(-90 16 ${topPad + plotH / 2})`, class: "axis-title" }, document.createTextNode(words.y_label)));
  parts.push(svg("rect", { x: left + 8, y: 6, width: 12, height: 12, class: "bar" }));
  parts.push(svg("text", { x: left + 26, y: 16, class: "tick" }, document.createTextNode(words.yours)));
  parts.push(svg("circle", { cx: left + 130, cy: 12, r: 4, class: "dot" }));
  parts.push(svg("text", { x: left + 140, y: 16, class: "tick" }, document.createTextNode(words.perfect)));
  return el("figure", { className: "chart-box" },
    svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": words.description }, ...parts),
    el("figcaption", { className: "note" }, words.caption));
}

