// The service worker: the app's pages and files keep working without a connection.
// Pages: the network first (they change with every save), the last copy when offline.
// Static files: the copy kept, refreshed in the background. The API is never cached: the
// pages queue what they save offline (match.js) and send it when the connection returns.
"use strict";
const CACHE = "cardscore-v1";
const STATIC = [
  "/static/app.css", "/static/match.js", "/static/deck.js", "/static/tranca.js", "/static/gongzhu.js",
  "/static/crosskings.js", "/static/home.js", "/static/tranca_new.js", "/static/pwa.js",
  "/static/manifest.webmanifest", "/static/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(STATIC)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

async function pageFirstFromNetwork(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

async function staticKeptFirst(request, event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  const fresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => null));
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/")) { event.respondWith(staticKeptFirst(request, event)); return; }
  if (request.mode === "navigate" || (request.headers.get("accept") || "").includes("text/html")) {
    event.respondWith(pageFirstFromNetwork(request));
  }
});
