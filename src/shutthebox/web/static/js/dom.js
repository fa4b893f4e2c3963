// Small DOM helpers: elements are built with properties, never with HTML strings, so no
// inline style or script can slip in (the page runs under a strict Content-Security-Policy).

export const $ = (id) => document.getElementById(id);

/** el("p", {className: "note"}, "text", child, ...) */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("aria-") || key.startsWith("data-") || key === "role" || key === "for") node.setAttribute(key, value === true ? "" : String(value));
    else if (key === "on") for (const [type, handler] of Object.entries(value)) node.addEventListener(type, handler);
    else node[key] = value;
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  node.append(...children.filter(Boolean));
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tells screen readers one short sentence (the roll, the move, whose turn). */
export function announce(text) {
  const region = $("announce");
  if (!region || !text) return;
  region.textContent = "";
  // A fresh text node each time, so the same sentence twice is read twice.
  setTimeout(() => { region.textContent = text; }, 30);
}

/** Makes a button look and act disabled while keeping it focusable. */
export function setUsable(button, usable) {
  button.setAttribute("aria-disabled", usable ? "false" : "true");
  button.classList.toggle("unusable", !usable);
}

export const usable = (button) => button.getAttribute("aria-disabled") !== "true";

/** Replaces a node's children, skipping null, undefined and false (optional parts). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
