// Shared by every match page: the page's data, calls to the JSON API, messages, undo.
"use strict";
const MATCH = JSON.parse(document.getElementById("match-data").textContent);
const TEXT = (() => {
  const node = document.getElementById("i18n-data");
  return node ? JSON.parse(node.textContent) : {};
})();
const tr = (key) => TEXT[key] || key;

async function api(method, path, body, extraHeaders) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", Authorization: "Bearer " + MATCH.key, ...extraHeaders },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return { ok: response.ok, status: response.status, data };
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

function problemsOf(result) {
  if (result.data && Array.isArray(result.data.problems)) return result.data.problems;
  return ["HTTP " + result.status];
}

// Save (add or replace) a round; true when the server stored it. The page reloads after a
// save, so the answer need not repeat the whole match.
async function saveRound(document_, editing) {
  const body = { version: MATCH.version, round: document_ };
  const minimal = { Prefer: "return=minimal" };
  const result = editing
    ? await api("PUT", `/api/matches/${MATCH.id}/rounds/${editing}`, body, minimal)
    : await api("POST", `/api/matches/${MATCH.id}/rounds`, body, minimal);
  if (result.ok) return true;
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

document.addEventListener("DOMContentLoaded", () => {
  rememberMatch();
  const undo = document.getElementById("undo");
  if (undo) {
    undo.addEventListener("click", async () => {
      if (!window.confirm(tr("undo_confirm"))) return;
      const result = await api("POST", `/api/matches/${MATCH.id}/undo`, { version: MATCH.version });
      if (result.ok) window.location.reload();
      else showMessages(problemsOf(result), "problems");
    });
  }
  const share = document.getElementById("share-url");
  if (share) share.addEventListener("focus", () => share.select());
});
