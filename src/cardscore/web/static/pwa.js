// Every page: install the service worker (offline pages and files, see sw.js).
"use strict";
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  });
}
