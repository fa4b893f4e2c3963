// Working without a connection: the service worker that keeps the page's shell on the device
// (so the page opens, and installs as an app on a phone), and the banner that says the
// network (or the server) is gone and leaves by itself when it is back.

import { $ } from "./dom.js";

const PROBE_MS = 3000;
let unreachable = false;     // a request found no server, though the device has a network
let probing = null;

/** Registers the service worker and follows the connection; `onBack` runs when it returns. */
export function init(onBack) {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});   // the page works without it
  }
  const show = () => { $("offline").hidden = navigator.onLine && !unreachable; };
  const back = () => {
    unreachable = false;
    clearInterval(probing);
    probing = null;
    show();
    onBack();
  };
  window.addEventListener("offline", show);
  window.addEventListener("online", () => { if (!unreachable) back(); });
  window.addEventListener("shutthebox:unreachable", () => {
    unreachable = true;
    show();
    // Ask the server now and then (a cheap, cacheable answer) until it answers again.
    probing ??= setInterval(() => {
      if (!navigator.onLine) return;
      fetch("/api/presets", { cache: "no-store" }).then((answer) => { if (answer.ok) back(); }, () => {});
    }, PROBE_MS);
  });
  show();
}
