// The service worker (served at /sw.js after two lines the server writes: CACHE, the cache's
// name, made of the package's version and a digest of the files, and SHELL, the page's files).
// It keeps the page's shell on the device, so the page opens without a connection; the API's
// answers and the live feed always go to the server, never to the cache.

// The screens served from a file of their own rather than the one page, address to file
// (the file is in SHELL, as every static file is). Add a screen here.
const OWN_PAGES = {
  "/table": "/static/table.html",
};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // The caches of earlier versions go: their files are no longer the page's.
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("shutthebox-") && name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // Every address of the page is the one page (or a screen's own file, OWN_PAGES): the
    // server's copy when it answers, else ours.
    const kept = OWN_PAGES[url.pathname.replace(/\/$/, "")] || "/";
    event.respondWith(fetch(request).catch(() => caches.match(kept, { cacheName: CACHE })));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request, { cacheName: CACHE, ignoreSearch: true }).then((hit) => hit || fetch(request)));
  }
});
