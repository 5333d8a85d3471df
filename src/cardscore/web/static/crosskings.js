// Cross Kings: tap a legal cell on the board; the server plays the computer's answer.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const board = document.getElementById("board");
  if (!board || !board.classList.contains("playable")) return;
  for (const cell of board.querySelectorAll("g.cell")) {
    const name = cell.dataset.cell;
    if (!MATCH.stats.legal_moves.includes(name)) continue;
    cell.classList.add("legal");
    cell.addEventListener("click", async () => {
      board.classList.add("busy");
      if (await saveRound({ move: name }, null)) window.location.reload();
      else board.classList.remove("busy");
    });
  }
});
