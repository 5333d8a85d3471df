// New Tranca match: show the team and player fields the chosen number of players needs.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("new-tranca");
  const sizes = { 2: [2, 1], 3: [3, 1], 4: [2, 2], 6: [2, 3] };
  function update() {
    const players = form.querySelector("input[name=players]:checked").value;
    const [teams, each] = sizes[players];
    for (const team of form.querySelectorAll("fieldset.team")) {
      const t = Number(team.dataset.team);
      team.hidden = t >= teams;
      for (const player of team.querySelectorAll("label.player")) {
        player.hidden = Number(player.dataset.player) >= each;
      }
    }
  }
  form.addEventListener("change", update);
  update();
});
