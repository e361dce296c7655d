/* The service worker: the app shell and static files from the cache, pages from the
   network first (and from the cache when the network is gone), live data never cached. */
"use strict";
const CACHE = "rummy-{{ version }}";
const SHELL = {{ shell|safe }};
const OFFLINE = "{% url 'offline' %}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("rummy-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

async function fromNetworkThenCache(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // Keep pages, not redirects: the edit link redirects, and its address holds the token.
    if (response.ok && !response.redirected && !new URL(request.url).pathname.includes("/join/")) {
      cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    return (await cache.match(request, { ignoreSearch: false })) || (await cache.match(OFFLINE));
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  // Pages only: htmx fragments, the live poll, the API and downloads always go to the network.
  if (request.mode === "navigate") event.respondWith(fromNetworkThenCache(request));
});

// The table page asks for a fresh copy after each update, so it reads right offline. Only the
// copy asked for last is kept: an older one answered late would put the page back a round.
const asked = new Map();
self.addEventListener("message", (event) => {
  const path = event.data && event.data.refresh;
  if (typeof path !== "string" || !path.startsWith("/")) return;
  const mine = (asked.get(path) || 0) + 1;
  asked.set(path, mine);
  const keep = (cache, response) => (response.ok && asked.get(path) === mine ? cache.put(path, response) : null);
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      fetch(path, { credentials: "same-origin" }).then((response) => keep(cache, response)).catch(() => null)
    )
  );
});
