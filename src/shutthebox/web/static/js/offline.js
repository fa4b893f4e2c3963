// Working without a connection: the service worker that keeps the page's shell on the device
// (so the page opens, and installs as an app on a phone), and the banner that says the
// network is gone and leaves by itself when it is back.

import { $ } from "./dom.js";

/** Registers the service worker and follows the connection; `onBack` runs when it returns. */
export function init(onBack) {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});   // the page works without it
  }
  const show = () => { $("offline").hidden = navigator.onLine; };
  window.addEventListener("offline", show);
  window.addEventListener("online", () => { show(); onBack(); });
  show();
}
