// The start page lists the matches this browser keeps (remembered by the match pages).
"use strict";
const GAME_NAMES = JSON.parse(document.getElementById("game-names").textContent);
const gameName = (game) => GAME_NAMES[game] || game;

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("my-matches");
  let known = [];
  try { known = JSON.parse(localStorage.getItem("cardscore-matches") || "[]"); } catch (e) { known = []; }
  if (!known.length) return;
  const list = box.querySelector("ul");
  for (const match of known.slice(0, 20)) {  // the recent ones; standings count them all
    const link = document.createElement("a");
    link.href = match.url;
    link.textContent = `${gameName(match.game)}: ${match.sides.join(" × ")}`;
    const item = document.createElement("li");
    item.append(link, " ", Object.assign(document.createElement("span"), {
      className: "small", textContent: new Date(match.seen).toLocaleString(),
    }));
    list.append(item);
  }
  box.hidden = false;
  showStandings(known);
});

// Matches and rounds won over the matches this browser keeps (their links hold the keys).
async function showStandings(known) {
  const matches = known.map((m) => m.url.split("/")).filter((p) => p.length >= 4)
    .map((p) => ({ id: p[p.length - 2], key: p[p.length - 1] }));
  const response = await fetch("/api/standings", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ matches }),
  });
  if (!response.ok) return;
  const { games, skipped } = await response.json();
  const box = document.getElementById("standings");
  const labels = box.dataset;
  const counted = matches.length - skipped.length;
  document.getElementById("standings-note").textContent = labels.note.replace("{n}", String(counted));
  const cell = (tag, text, cls) => Object.assign(document.createElement(tag), { textContent: String(text), className: cls || "" });
  const table = (title, rows, keys, heads) => {
    const node = document.createElement("table");
    node.className = "stats";
    const head = document.createElement("tr");
    head.append(cell("th", title), ...heads.map((h) => cell("th", h)));
    node.append(head);
    for (const row of rows) {
      const line = document.createElement("tr");
      line.append(cell("th", row.name), ...keys.map((k) => cell("td", row[k], "num")));
      node.append(line);
    }
    const scroll = cell("div", "", "scroll");
    scroll.append(node);
    return scroll;
  };
  for (const game of games) {
    const part = document.createElement("div");
    part.className = `standings-game ${game.game}`;
    const keys = ["played", "won", "rounds_won"];
    const heads = [labels.played, labels.won, labels.roundsWon];
    part.append(table(gameName(game.game), game.sides, keys, heads));
    if (game.players.length) part.append(table(labels.players, game.players, keys, heads));
    box.append(part);
  }
  box.hidden = !games.length;
}
