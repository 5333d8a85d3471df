// A match's deck (Tranca match page, edit link, where photos are read): what recognition
// learnt of this table's cards, taught from a photo of the whole deck spread out or from the
// cards confirmed on a round's photo (tranca.js calls DECK.teachPhoto once the round is saved).
"use strict";
const DECK = (() => {
  const SIDE = 3072; // as a round's photo: the spread's 52 cards stay about 200 px wide
  let learnt = false;
  // The server's rule for a photo nobody corrected: "every_photo" teaches it, "corrections"
  // not (a corrected photo always teaches). Until the deck is read, no photo teaches.
  let teach = null;

  const say = (lines, kind) => {
    const box = document.getElementById("deck-messages");
    if (!box) return;
    box.className = lines.length ? kind : "";
    box.replaceChildren(...lines.map((line) => Object.assign(document.createElement("p"), { textContent: line })));
  };

  function show(deck) {
    learnt = Boolean(deck && deck.learnt);
    teach = (deck && deck.teach) || null;
    const status = document.getElementById("deck-status");
    if (status) {
      status.textContent = !learnt ? tr("deck_none")
        : fill(tr(deck.photos === 1 ? "deck_learnt_one" : "deck_learnt"), { cards: deck.cards, photos: deck.photos });
    }
    const forget = document.getElementById("deck-forget");
    if (forget) forget.hidden = !learnt;
  }

  async function refresh() {
    const result = await api("GET", `/api/matches/${MATCH.id}/deck`);
    if (result.ok) show(result.data);
  }

  // A multipart POST with the edit key; learning takes seconds, so the wait is long.
  async function post(path, form) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 120000);
    try {
      const response = await fetch(path, {
        method: "POST",
        headers: { "Accept-Language": document.documentElement.lang || "en", Authorization: "Bearer " + MATCH.key },
        body: form,
        signal: abort.signal,
      });
      let data = null;
      try { data = await response.json(); } catch (e) { data = null; }
      return { ok: response.ok, status: response.status, data };
    } catch (e) {
      return { ok: false, status: 0, data: null, timedOut: abort.signal.aborted };
    } finally {
      clearTimeout(timer);
    }
  }

  // The photo at most SIDE px on its longest side (a JPEG Blob), or the file as it is.
  async function smaller(file) {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      const scale = Math.min(1, SIDE / Math.max(bitmap.width, bitmap.height));
      if (scale === 1) { bitmap.close(); return file; }
      const canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      return (await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92))) || file;
    } catch (e) {
      return file;
    }
  }

  async function teachSpread(input) {
    if (!input.files.length) return;
    input.disabled = true;
    say([tr("deck_learning")], "ok");
    try {
      const form = new FormData();
      form.append("photo", await smaller(input.files[0]), "spread.jpg");
      const result = await post(`/api/matches/${MATCH.id}/deck/spread`, form);
      if (!result.ok) { say(problemsOf(result), "problems"); return; }
      show(result.data);
      say([], "ok");
    } finally {
      input.disabled = false;
      input.value = "";
    }
  }

  // A round's photo as the player confirmed it: `blob` (the photo read, or the smaller copy
  // kept with the draft), the size the reading measured its corners in, and the cards.
  async function teachPhoto(blob, width, height, cards) {
    if (!cards.length) return;
    say([tr("deck_learning")], "ok");
    const form = new FormData();
    form.append("photo", blob, "photo.jpg");
    form.append("reading", JSON.stringify({ width, height, cards }));
    const result = await post(`/api/matches/${MATCH.id}/deck/photos`, form);
    if (!result.ok) { say(problemsOf(result), "problems"); return; }
    show(result.data);
    // A confirmed card whose index was not found where it lies taught nothing: say which.
    const missed = result.data.missed || [];
    const lines = [fill(tr("deck_taught"), { n: result.data.taught.length })];
    if (missed.length) lines.push(fill(tr("deck_missed"), { cards: missed.map(prettyCard).join(" ") }));
    say(lines, "ok");
  }

  async function forget(button) {
    if (!window.confirm(tr("deck_forget_confirm"))) return;
    button.disabled = true;
    const result = await api("DELETE", `/api/matches/${MATCH.id}/deck`);
    button.disabled = false;
    if (result.ok) { show(result.data); say([], "ok"); } else say(problemsOf(result), "problems");
  }

  document.addEventListener("DOMContentLoaded", () => {
    const section = document.getElementById("deck");
    if (!section || !MATCH.photo || MATCH.access !== "edit") return;
    section.hidden = false;
    // A new match may start from a spread photo: before any round, the deck comes first.
    const entry = document.getElementById("entry");
    if (!MATCH.count && entry) entry.before(section);
    const input = document.getElementById("deck-spread");
    input.addEventListener("change", () => teachSpread(input));
    const button = document.getElementById("deck-forget");
    button.addEventListener("click", () => forget(button));
    refresh();
  });

  // Whether a photo teaches the deck once its round is saved, as the server's rule says.
  const teaches = (corrected) => teach !== null && (corrected || teach === "every_photo");

  return { teachPhoto, teaches, get learnt() { return learnt; } };
})();
