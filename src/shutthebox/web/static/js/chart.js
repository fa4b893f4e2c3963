// The review's chart: each player's value (chance to win, or expected score) after every roll
// and decision, drawn as inline SVG from the server's `moments`, with the costly decisions
// marked on the mover's line. Every word on it (title, description, labels, the figures and
// the marks' sentences) comes from the server's `chart`; the page only draws.

import { el, svg } from "./dom.js";

const text = (value) => document.createTextNode(String(value));
let made = 0;

/** A figure: the SVG chart, then its figures and marks in words. */
export function valueChart(review, room) {
  const words = review.chart;
  const moments = review.moments || [];
  const players = (review.players || []).map((p) => p.player);
  if (!words || moments.length < 2 || !players.length) return null;
  const scale = words.scale;
  const series = players.map((name) => moments.map((m, i) => [i, m.values[name]])
    .filter(([, v]) => v !== undefined && v !== null).map(([i, v]) => [i, v * scale]));
  const all = series.flat().map(([, v]) => v);
  const ceiling = words.percent ? 100 : Math.max(1, Math.ceil(Math.max(...all) / 5) * 5);
  const width = Math.round(Math.max(320, Math.min(760, room || 640))), height = 300;
  const left = 56, right = 14, top = 34, bottom = 44;
  const plotW = width - left - right, plotH = height - top - bottom;
  const x = (i) => left + (moments.length > 1 ? (i / (moments.length - 1)) * plotW : 0);
  const y = (v) => top + plotH - (v / ceiling) * plotH;
  const id = `value-chart-${++made}`;
  const parts = [svg("title", { id: `${id}-title` }, text(words.title)),
    svg("desc", { id: `${id}-desc` }, text(words.description))];
  for (let t = 0; t <= 4; t++) {
    const v = (ceiling * t) / 4;
    parts.push(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }));
    parts.push(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" },
      text(words.percent ? `${Math.round(v)} %` : String(Math.round(v * 10) / 10))));
  }
  parts.push(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis" }));
  parts.push(svg("line", { x1: left, x2: left, y1: top, y2: y(0), class: "axis" }));
  series.forEach((points, s) => {
    if (!points.length) return;
    const d = points.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
    parts.push(svg("path", { d, class: `line series-${s % 4}`, "data-player": players[s] }));
  });
  const why = new Map((words.marks || []).map((m) => [m.index, m.text]));
  moments.forEach((m, i) => {
    if (!m.size || m.player === null || m.values[m.player] === undefined) return;
    const s = players.indexOf(m.player);
    const cx = x(i), cy = y(m.values[m.player] * scale);
    const mark = m.size === "blunder"
      ? svg("path", { d: `M${cx - 6} ${cy - 6} L${cx + 6} ${cy + 6} M${cx - 6} ${cy + 6} L${cx + 6} ${cy - 6}`, class: `mark ${m.size} series-${s % 4}` })
      : svg("circle", { cx, cy, r: m.size === "mistake" ? 6 : 4, class: `mark ${m.size} series-${s % 4}` });
    mark.setAttribute("data-size", m.size);
    if (why.has(m.index)) mark.append(svg("title", {}, text(why.get(m.index))));
    parts.push(mark);
  });
  let lx = left;
  players.forEach((name, s) => {
    parts.push(svg("line", { x1: lx, x2: lx + 18, y1: 14, y2: 14, class: `line series-${s % 4}` }));
    parts.push(svg("text", { x: lx + 22, y: 18, class: "tick" }, text(name)));
    lx += 34 + name.length * 7;
  });
  for (const [size, label] of Object.entries(words.legend || {})) {
    const cx = lx + 6;
    parts.push(size === "blunder"
      ? svg("path", { d: `M${cx - 5} 9 L${cx + 5} 19 M${cx - 5} 19 L${cx + 5} 9`, class: "mark blunder legend" })
      : svg("circle", { cx, cy: 14, r: size === "mistake" ? 5 : 3.5, class: `mark ${size} legend` }));
    parts.push(svg("text", { x: lx + 16, y: 18, class: "tick" }, text(label)));
    lx += 26 + label.length * 7;
  }
  parts.push(svg("text", { x: left + plotW / 2, y: height - 8, "text-anchor": "middle", class: "axis-title" }, text(words.x_label)));
  parts.push(svg("text", { x: 14, y: top + plotH / 2, "text-anchor": "middle", transform: `rotate(-90 14 ${top + plotH / 2})`, class: "axis-title" }, text(words.y_label)));
  return el("figure", { className: "chart-box value-chart" },
    svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
      "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-desc` }, ...parts),
    el("figcaption", {}, el("strong", {}, words.title),
      el("ul", { className: "figures" }, ...words.figures.map((line) => el("li", {}, line)))));
}

/** A small line of values in order (a rating, an accuracy), with its words from the server. */
export function smallLine(history, title, description) {
  if (!history || history.length < 2) return null;
  const width = 240, height = 56, pad = 6;
  const low = Math.min(...history), high = Math.max(...history);
  const span = Math.max(high - low, 1);
  const x = (i) => pad + (i / (history.length - 1)) * (width - 2 * pad);
  const y = (v) => height - pad - ((v - low) / span) * (height - 2 * pad);
  const d = history.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
  const id = `small-line-${++made}`;
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart small-line", role: "img",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-desc` },
  svg("title", { id: `${id}-title` }, text(title)),
  svg("desc", { id: `${id}-desc` }, text(description)),
  svg("path", { d, class: "line series-0" }),
  svg("circle", { cx: x(history.length - 1), cy: y(history[history.length - 1]), r: 3.5, class: "dot" }));
}
