// Cross Kings: tap a legal cell on the board; the server plays the computer's answer.
"use strict";
function bindBoard() {
  const board = document.getElementById("board");
  if (!board || !board.classList.contains("playable")) return;
  for (const cell of board.querySelectorAll("g.cell")) {
    const name = cell.dataset.cell;
    if (!MATCH.stats.legal_moves.includes(name)) continue;
    cell.classList.add("legal");
    cell.addEventListener("click", async () => {
      board.classList.add("busy");
      if (!(await saveRound({ move: name }, null))) board.classList.remove("busy");
    });
  }
}
document.addEventListener("DOMContentLoaded", bindBoard);
document.addEventListener("cardscore:refreshed", bindBoard);  // a new board each time
