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
});
