// Gong Zhu match page: four piles per hand.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("round-form");
  if (!form) return;
  let editing = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const piles = [...form.querySelectorAll("input.pile")].map((input) => input.value);
    if (await saveRound({ piles }, editing)) window.location.reload();
  });
  for (const button of document.querySelectorAll("button.edit-round")) {
    button.addEventListener("click", () => {
      editing = Number(button.dataset.number);
      const piles = MATCH.rounds[editing - 1].piles;
      form.querySelectorAll("input.pile").forEach((input, i) => { input.value = piles[i]; });
      document.getElementById("save-round").disabled = false;
      document.getElementById("entry").open = true;
        form.scrollIntoView();
    });
  }
});
