// Gong Zhu match page: four piles per hand.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("round-form");
  if (!form) return;
  let editing = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const piles = [...form.querySelectorAll("input.pile")].map((input) => input.value);
    await saveRound({ piles }, editing, () => { form.reset(); editing = null; });
  });
  // Delegated: the history is swapped in anew after every save.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.edit-round");
    if (button) {
      editing = Number(button.dataset.number);
      const piles = roundDocument(editing).piles;
      form.querySelectorAll("input.pile").forEach((input, i) => { input.value = piles[i]; });
      document.getElementById("save-round").disabled = false;
      document.getElementById("entry").open = true;
      form.scrollIntoView();
    }
  });
});
