// The start page lists the matches this browser keeps (remembered by the match pages).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("my-matches");
  let known = [];
  try { known = JSON.parse(localStorage.getItem("cardscore-matches") || "[]"); } catch (e) { known = []; }
  if (!known.length) return;
  const list = box.querySelector("ul");
  for (const match of known) {
    const link = document.createElement("a");
    link.href = match.url;
    link.textContent = `${match.game}: ${match.sides.join(" × ")}`;
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
  const { games } = await response.json();
  const box = document.getElementById("standings");
  const labels = box.dataset;
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
    part.append(table(game.game, game.sides, ["played", "won", "rounds_won"], [labels.played, labels.won, labels.roundsWon]));
    if (game.players.length) part.append(table(labels.players, game.players, ["played", "won"], [labels.played, labels.won]));
    box.append(part);
  }
  box.hidden = !games.length;
}
