// Shared by every match page: the page's data, calls to the JSON API, messages, undo.
"use strict";
const MATCH = JSON.parse(document.getElementById("match-data").textContent);
const TEXT = (() => {
  const node = document.getElementById("i18n-data");
  return node ? JSON.parse(node.textContent) : {};
})();
const tr = (key) => TEXT[key] || key;

const TIMEOUT_MS = 20000; // a request still unanswered then is reported, not waited on forever

// A call to the JSON API: { ok, status, data }; status 0 when no answer came (offline, the
// server down or too slow), with `timedOut` telling which.
async function api(method, path, body, extraHeaders) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        "Content-Type": "application/json",
        "Accept-Language": document.documentElement.lang || "en",
        Authorization: "Bearer " + MATCH.key,
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: abort.signal,
    });
  } catch (e) {
    return { ok: false, status: 0, data: null, timedOut: abort.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return { ok: response.ok, status: response.status, data };
}

// While `work` runs, `button` is disabled and says what is happening (`label`), with a spinner.
async function busy(button, label, work) {
  if (!button) return work();
  const before = button.textContent;
  const wasDisabled = button.disabled;
  button.disabled = true;
  button.classList.add("busy");
  button.setAttribute("aria-busy", "true");
  button.textContent = label;
  try {
    return await work();
  } finally {
    button.textContent = before;
    button.classList.remove("busy");
    button.removeAttribute("aria-busy");
    button.disabled = wasDisabled;
  }
}

function showMessages(lines, kind) {
  const box = document.getElementById("messages");
  if (!box) return;
  box.className = kind || "problems";
  box.replaceChildren();
  if (!lines || !lines.length) return;
  const list = document.createElement("ul");
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  }
  box.appendChild(list);
  box.scrollIntoView({ block: "nearest" });
}

// What went wrong, in the page's language: the problem body's messages, or why none came.
function problemsOf(result) {
  if (result.status === 0) return [tr(result.timedOut ? "slow_connection" : "no_connection")];
  const problems = result.data && result.data.problems;
  if (Array.isArray(problems) && problems.length) {
    return problems.map((p) => (typeof p === "string" ? p : p.message || p.code));
  }
  return [fill(tr("http_error"), { status: result.status })];
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));
}

// Save (add or replace) a round; true when the server stored it. The page then refreshes its
// live parts (refreshMatch), so the answer need not repeat the whole match. The Save button
// shows the request in flight and cannot send it twice.
async function saveRound(document_, editing) {
  const body = { version: MATCH.version, round: document_ };
  const minimal = { Prefer: "return=minimal" };
  const button = document.getElementById("save-round");
  const result = await busy(button, tr("saving"), () => (editing
    ? api("PUT", `/api/matches/${MATCH.id}/rounds/${editing}`, body, minimal)
    : api("POST", `/api/matches/${MATCH.id}/rounds`, body, minimal)));
  if (result.ok) {
    await refreshMatch();
    return true;
  }
  const lines = problemsOf(result);
  if (result.status === 409) lines.push(tr("conflict_help"));
  showMessages(lines, "problems");
  return false;
}

// Remember the matches this browser opened (their links are their only keys), for the start
// page's list and standings: the last 100 (what /api/standings counts at once). A share link
// is kept too (it counts in the standings), unless the edit link is already kept.
function rememberMatch() {
  let known = [];
  try { known = JSON.parse(localStorage.getItem("cardscore-matches") || "[]"); } catch (e) { known = []; }
  const before = known.find((m) => m.id === MATCH.id);
  const keptEdit = Boolean(before) && before.edit !== false;  // older entries were all edit links
  const url = keptEdit && MATCH.access !== "edit" ? before.url : window.location.pathname;
  const edit = MATCH.access === "edit" || keptEdit;
  known = known.filter((m) => m.id !== MATCH.id);
  known.unshift({ id: MATCH.id, url, edit, game: MATCH.game, sides: MATCH.sides, seen: Date.now() });
  localStorage.setItem("cardscore-matches", JSON.stringify(known.slice(0, 100)));
}

// The stored document of a round shown on the page (for editing it).
function roundDocument(number) {
  return (MATCH.documents || {})[String(number)];
}

// Live: fetch this page again and swap in its parts marked data-live (totals, chart, history,
// stats, board), keeping the rounds the reader opened and the older ones they asked for.
// Game scripts hear "cardscore:refreshed" to update what they drew.
let pagedFrom = null;
let refreshing = null;
let refreshAgain = false;
let heardVersion = 0;  // the newest version the match's events announced
async function refreshMatch(heard) {
  if (heard) heardVersion = Math.max(heardVersion, heard);
  if (refreshing) { refreshAgain = true; return refreshing; }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      const url = window.location.pathname + (pagedFrom ? "?from=" + pagedFrom : "");
      let html;
      try {
        const headers = { Accept: "text/html", "X-Cardscore-Refresh": "1" };
        // The version the events announced: the server answers from the page it keeps.
        if (heardVersion > MATCH.version && !pagedFrom) headers["X-Cardscore-Version"] = String(heardVersion);
        const response = await fetch(url, { headers });
        if (!response.ok) return;
        html = await response.text();
      } catch (e) { return; }  // offline: the next event or poll tries again
      const fresh = new DOMParser().parseFromString(html, "text/html");
      const data = fresh.getElementById("match-data");
      if (!data) return;
      const opened = new Set([...document.querySelectorAll("details.round[open]")].map((d) => d.dataset.number));
      for (const node of document.querySelectorAll("[data-live]")) {
        const next = fresh.getElementById(node.id);
        if (next) node.replaceWith(document.adoptNode(next));
      }
      for (const d of document.querySelectorAll("details.round")) {
        if (opened.has(d.dataset.number)) d.open = true;
      }
      Object.assign(MATCH, JSON.parse(data.textContent));
      const undo = document.getElementById("undo");
      if (undo) undo.disabled = !MATCH.count;
      const save = document.getElementById("save-round");
      if (save) save.disabled = Boolean(MATCH.over);
      document.title = fresh.title;
      document.dispatchEvent(new CustomEvent("cardscore:refreshed"));
    } while (refreshAgain);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

// Follow the match: server-sent events, or a poll every few seconds where they fail.
function followMatch() {
  if (!MATCH.events) return;
  const changed = (version) => { if (version > MATCH.version) refreshMatch(version); };
  let polling = null;
  const poll = () => {
    if (polling) return;
    polling = window.setInterval(async () => {
      try {
        const response = await fetch(MATCH.events, { headers: { Accept: "application/json" } });
        if (response.ok) changed((await response.json()).version);
      } catch (e) { /* offline: try again later */ }
    }, 3000);
  };
  if (!window.EventSource) { poll(); return; }
  const events = new EventSource(MATCH.events);
  events.addEventListener("version", (event) => changed(JSON.parse(event.data).version));
  // The browser reconnects by itself; only a refused stream (CLOSED) falls back to polling.
  events.addEventListener("error", () => { if (events.readyState === EventSource.CLOSED) poll(); });
}

document.addEventListener("DOMContentLoaded", () => {
  rememberMatch();
  followMatch();
  document.addEventListener("click", (event) => {
    const older = event.target.closest("a.older");
    if (!older) return;
    event.preventDefault();
    pagedFrom = Number(older.dataset.from);
    refreshMatch();
  });
  const undo = document.getElementById("undo");
  if (undo) {
    undo.addEventListener("click", async () => {
      if (!window.confirm(tr("undo_confirm"))) return;
      const result = await busy(undo, tr("undoing"), () => api("POST", `/api/matches/${MATCH.id}/undo`, { version: MATCH.version }));
      if (result.ok) await refreshMatch();
      else showMessages(problemsOf(result), "problems");
    });
  }
  const share = document.getElementById("share-url");
  if (share) share.addEventListener("focus", () => share.select());
});
