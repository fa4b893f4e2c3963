// What the advisor and the score sheet share: the rule-set and format menus.

import { el } from "./dom.js";

/** Fills a <select> with the rule presets (their names in words); the classic box first. */
export function presetMenu(select, presets) {
  select.replaceChildren(...presets.map((p) => el("option", { value: p.name }, p.text)));
}

/** Fills a <select> with the formats the table's sheet or advisor takes (none a battle:
 * both players work on one box, so it has no scores to keep). */
export function formatMenu(select, choices, { first = null, solo = true } = {}) {
  const formats = choices.format.filter((f) => f.value !== "battle" && (solo || f.value !== "solo"));
  select.replaceChildren(...(first ? [el("option", { value: "" }, first)] : []),
    ...formats.map((f) => el("option", { value: f.value }, f.text)));
}

/** The format as the API takes it: its kind, and its number when one is typed. */
export function formatOf(select, limit) {
  const number = limit.value.trim();
  return select.value && number ? `${select.value}:${number}` : select.value || null;
}

/** Whole numbers typed with commas or spaces between them. */
export function numbers(text) {
  return text.split(/[\s,;]+/).filter(Boolean).map((word) => Number(word));
}
