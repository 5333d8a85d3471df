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

// "Kh" → "K♥", as on the card picker (the codes stay in the fields: any notation is read).
function prettyCard(code) {
  const suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[code.slice(-1).toUpperCase()];
  const rank = code.slice(0, -1).toUpperCase();
  return (rank === "T" ? "10" : rank) + (suit || code.slice(-1));
}

// Save (add or replace) a round; true when the server stored it. The page then refreshes its
// live parts (refreshMatch), so the answer need not repeat the whole match. The Save button
// shows the request in flight and cannot send it twice. `done` clears the entry once the round
// is saved or waits in the queue, before the page shows the match anew.
async function saveRound(document_, editing, done) {
  const finish = () => { if (done) done(); return true; };
  const body = { version: MATCH.version, round: document_ };
  const minimal = { Prefer: "return=minimal" };
  const button = document.getElementById("save-round");
  // Rounds still waiting go first: a new one waits behind them, in order.
  if (queueable() && loadQueue().length) {
    await busy(button, tr("saving"), flushQueue);
    if (loadQueue().length) {
      queueRound(document_, editing);
      showMessages([tr("queued_behind")], "ok");
      return finish();
    }
  }
  const result = await busy(button, tr("saving"), () => (editing
    ? api("PUT", `/api/matches/${MATCH.id}/rounds/${editing}`, body, minimal)
    : api("POST", `/api/matches/${MATCH.id}/rounds`, body, minimal)));
  if (result.ok) {
    showMessages([], "ok");
    finish();
    await refreshMatch();
    return true;
  }
  if (result.status === 0 && queueable()) {
    // Sent against body.version: the page may have heard of a later one meanwhile (this very
    // save, stored, whose answer was lost), and the round must be sent again as it was.
    queueRound(document_, editing, body.version);
    showMessages([tr("queued")], "ok");
    return finish();
  }
  const lines = problemsOf(result);
  if (result.status === 409) lines.push(tr("conflict_help"));
  showMessages(lines, "problems");
  return false;
}

// Offline: a round saved without a connection waits in this browser (localStorage), marked on
// the page, and is sent in order, each with the version it was entered against, when the
// connection returns. A conflict (someone saved first) or a refusal stops the queue and is
// shown with its reason until the user saves it anyway or discards it: never lost silently.
const QUEUE_KEY = `cardscore-queue-${MATCH.id}`;
const queueable = () => MATCH.access === "edit" && MATCH.game !== "crosskings";

function loadQueue() {
  try { return JSON.parse(localStorage.getItem(QUEUE_KEY) || "[]"); } catch (e) { return []; }
}

function saveQueue(queue) {
  if (queue.length) localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  else localStorage.removeItem(QUEUE_KEY);
  renderQueue();
}

function queueRound(round, editing, sentAt) {
  const queue = loadQueue();
  const last = queue[queue.length - 1];
  // Each of our saves moves the match one version on: the next waits for the one after.
  const version = last ? last.version + 1 : (sentAt ?? MATCH.version);
  queue.push({ round, editing: editing || null, version, at: Date.now(), state: "waiting" });
  saveQueue(queue);
}

let flushing = false;
async function flushQueue() {
  if (flushing || !queueable()) return;
  flushing = true;
  try {
    let queue = loadQueue();
    while (queue.length && queue[0].state === "waiting") {
      const item = queue[0];
      const body = { version: item.version, round: item.round };
      const path = item.editing ? `/api/matches/${MATCH.id}/rounds/${item.editing}` : `/api/matches/${MATCH.id}/rounds`;
      const result = await api(item.editing ? "PUT" : "POST", path, body, { Prefer: "return=minimal" });
      if (result.status === 0) break; // still no connection: try again later
      queue = loadQueue();
      if (result.ok) {
        queue.shift();
        saveQueue(queue);
        await refreshMatch();
        continue;
      }
      queue[0].state = result.status === 409 ? "conflict" : "refused";
      queue[0].problems = problemsOf(result);
      saveQueue(queue);
    }
  } finally {
    flushing = false;
  }
}

// Send the first waiting round again against the match as it is now (after a conflict).
async function saveAnyway() {
  await refreshMatch();
  const queue = loadQueue();
  queue.forEach((item, i) => { item.version = MATCH.version + i; item.state = "waiting"; delete item.problems; });
  saveQueue(queue);
  await flushQueue();
}

function discardFirst() {
  if (!window.confirm(tr("pending_discard_confirm"))) return;
  const queue = loadQueue();
  queue.shift();
  // What followed it was entered after it: its versions move one back.
  queue.forEach((item) => { item.version -= 1; });
  saveQueue(queue);
  flushQueue();
}

function renderQueue() {
  let box = document.getElementById("pending");
  const queue = queueable() ? loadQueue() : [];
  if (!queue.length) { if (box) box.remove(); return; }
  if (!box) {
    box = document.createElement("section");
    box.id = "pending";
    box.className = "pending";
    box.setAttribute("role", "status");
    const anchor = document.getElementById("live-head") || document.querySelector("main h1");
    anchor.after(box);
  }
  const time = new Intl.DateTimeFormat(document.documentElement.lang || "en", { hour: "2-digit", minute: "2-digit" });
  const title = document.createElement("strong");
  title.textContent = fill(tr("pending_title"), { n: queue.length });
  const list = document.createElement("ul");
  queue.forEach((item, i) => {
    const line = document.createElement("li");
    const what = item.editing ? fill(tr("pending_edit"), { n: item.editing }) : tr("pending_round");
    const state = item.state === "waiting" ? tr("pending_waiting")
      : item.state === "conflict" ? tr("pending_conflict") : tr("pending_refused");
    line.textContent = `${what} (${time.format(new Date(item.at))}): ${state}`;
    line.dataset.state = item.state;
    if (i === 0 && item.state !== "waiting") {
      const why = document.createElement("ul");
      for (const problem of item.problems || []) {
        const reason = document.createElement("li");
        reason.textContent = problem;
        why.append(reason);
      }
      const again = document.createElement("button");
      again.type = "button";
      again.className = "pending-save";
      again.textContent = tr("pending_save_anyway");
      again.addEventListener("click", saveAnyway);
      const drop = document.createElement("button");
      drop.type = "button";
      drop.className = "pending-discard";
      drop.textContent = tr("pending_discard");
      drop.addEventListener("click", discardFirst);
      line.append(why, again, " ", drop);
    }
    list.append(line);
  });
  box.replaceChildren(title, list);
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
let refreshAbort = null;  // the page request in flight, if any
let heardVersion = 0;  // the newest version the match's events announced
async function refreshMatch(heard) {
  if (heard) heardVersion = Math.max(heardVersion, heard);
  if (refreshing) { refreshAgain = true; return refreshing; }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      const html = await fetchPage();
      if (html) showPage(html);
    } while (refreshAgain);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

// Give up the page request in flight and ask again (the connection came back: a request
// caught by its loss may never settle).
function refreshAnew() {
  if (!refreshAbort) return;
  refreshAgain = true;
  refreshAbort.abort();
}

// This page as the server shows it now; null when no answer came (offline: the next event or
// poll asks again). Bounded like every call, so a lost request holds back no later refresh.
async function fetchPage() {
  const url = window.location.pathname + (pagedFrom ? "?from=" + pagedFrom : "");
  const headers = { Accept: "text/html", "X-Cardscore-Refresh": "1" };
  // The version the events announced: the server answers from the page it keeps.
  if (heardVersion > MATCH.version && !pagedFrom) headers["X-Cardscore-Version"] = String(heardVersion);
  const abort = new AbortController();
  refreshAbort = abort;
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(url, { headers, signal: abort.signal });
    return response.ok ? await response.text() : null;
  } catch (e) {
    return null;
  } finally {
    clearTimeout(timer);
    refreshAbort = null;
  }
}

function showPage(html) {
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
  let events = null;
  const listen = () => {
    if (events) events.close();
    events = new EventSource(MATCH.events);
    events.addEventListener("version", (event) => changed(JSON.parse(event.data).version));
    // The browser reconnects by itself; only a refused stream (CLOSED) falls back to polling.
    const stream = events;
    stream.addEventListener("error", () => { if (stream.readyState === EventSource.CLOSED && stream === events) poll(); });
  };
  listen();
  // A stream open when the connection went may never say so: listen anew when it returns
  // (the new stream's first event is the version now, so nothing saved meanwhile is missed).
  window.addEventListener("online", () => { if (!polling) listen(); });
}

document.addEventListener("DOMContentLoaded", () => {
  rememberMatch();
  followMatch();
  renderQueue();
  flushQueue();
  // The first try may beat the connection back (the browser says online a moment early):
  // try again shortly rather than at the next quarter-minute round.
  window.addEventListener("online", () => {
    refreshAnew();
    flushQueue();
    setTimeout(() => { if (loadQueue().length) flushQueue(); }, 3000);
  });
  window.setInterval(() => { if (navigator.onLine && loadQueue().length) flushQueue(); }, 15000);
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
