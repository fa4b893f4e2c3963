// Dice drawn as SVG with pips; a short tumble when rolled (none under reduced motion).

import { svg, el, reducedMotion } from "./dom.js";
import { t } from "./i18n.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

export const ROLL_MS = 520;

/** One die showing `face`, as an image with a text alternative. */
export function die(face) {
  const image = svg("svg", { viewBox: "0 0 100 100", class: "die", role: "img", "aria-label": t("a die showing {face}", { face }) },
    svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 18, class: "die-face" }),
    ...PIPS[face].map(([cx, cy]) => svg("circle", { cx, cy, r: 9, class: "pip" })));
  return image;
}

/** Draws the dice in `container`; resolves when the roll animation is over. */
export function drawDice(container, roll, { rolling = false, faded = false } = {}) {
  const dice = (roll || []).map((face) => die(face));
  container.replaceChildren(...dice);
  container.classList.toggle("faded", faded);
  if (!roll || !roll.length) container.append(el("span", { className: "dice-empty" }, t("No dice on the table")));
  if (!rolling || reducedMotion()) return Promise.resolve();
  dice.forEach((d, i) => { d.classList.add("rolling"); if (i) d.classList.add("second"); });
  return new Promise((resolve) => setTimeout(resolve, ROLL_MS));
}
