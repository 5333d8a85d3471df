// Tranca round entry: team by team, cards typed or tapped on the picker; the draft lives in
// localStorage until the round is saved whole, photos too (a small copy, what recognition saw
// and the corrections), under a key of their own: they change rarely, the fields at each key.
"use strict";
(() => {
  const DRAFT_KEY = `cardscore-draft-${MATCH.id}`;
  const PHOTOS_KEY = `cardscore-photos-${MATCH.id}`;
  const PHOTO_SIDE = 1280; // the kept copy's longest side, in pixels (about 200 kB as JPEG)
  // What is uploaded: at most 3072 px on the longest side. A 12 MP phone photo (4032×3024)
  // goes as 7 MP, a 50 MP one as 7 MP instead of 50; recognition reads the six real photos
  // (3000×2000) as well at 2560 px as at full size (65 of 66 cards), so 3072 leaves a margin.
  const UPLOAD_SIDE = 3072;
  const SUITS = [["S", "♠", "black"], ["H", "♥", "red"], ["D", "♦", "red"], ["C", "♣", "black"]];
  const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
  const PILE_RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "2"];
  const NUMBER = new Intl.NumberFormat(document.documentElement.lang || "en");
  // Quick entry: a tally round, the numbers a table counts on paper (the library checks them).
  const TALLY = [
    ["table_points", 5], ["clean_canastras", 1], ["dirty_canastras", 1], ["twos_canastras", 1],
    ["dollars", 1], ["trancas", 1], ["hand_points", 5],
  ];
  let quick = false;
  let editing = null;
  let active = null;
  // Per team with a photo: what recognition saw, each card's code as corrected (null: deleted),
  // the positions corrected, the photo's copy (a data: URL, or null) and its drawing;
  // `replacing` is the card tapped on a photo, waiting for the picker.
  let photos = {};
  let replacing = null;

  const el = (tag, attrs = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k in node && typeof v !== "string") node[k] = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) node.append(child);
    return node;
  };
  const tokens = (text) => text.split(/[\s,;]+/).filter(Boolean);
  const cardsText = (cards) => (cards || []).join(" ");

  function cardInput(cls, value, placeholder) {
    const input = el("input", { class: `cards ${cls}`, value: value || "", placeholder, autocapitalize: "characters", spellcheck: "false" });
    input.addEventListener("focus", () => setActive(input));
    return input;
  }

  function setActive(input) {
    if (active) active.classList.remove("active");
    active = input;
    if (active) active.classList.add("active");
  }

  function meldRow(team, cards) {
    const row = el("div", { class: "row meld-row" });
    const input = cardInput("meld", cardsText(cards), "4H 5H 6H");
    const remove = el("button", { type: "button", class: "remove", text: "×", title: tr("remove") });
    remove.addEventListener("click", () => { row.remove(); saveDraft(); });
    row.append(input, remove);
    return row;
  }

  function pileRow(pile) {
    const row = el("div", { class: "row pile-row" });
    const rank = el("select", { class: "pile-rank" }, PILE_RANKS.map((r) => el("option", { value: r, text: r === "T" ? "10" : r })));
    const read = pile && pile.pile ? String(pile.pile).toUpperCase().replace("10", "T") : "A";
    // A rank no canastra has (a photo may read one) is shown as read: the check names it.
    if (!PILE_RANKS.includes(read)) rank.append(el("option", { value: read, text: read }));
    rank.value = read;
    const clean = el("input", { type: "checkbox", class: "pile-clean" });
    clean.checked = pile ? pile.clean !== false : true;
    const count = el("input", { type: "number", class: "pile-cards", min: "7", max: "14", value: String((pile && pile.cards) || 7) });
    const remove = el("button", { type: "button", class: "remove", text: "×", title: tr("remove") });
    remove.addEventListener("click", () => { row.remove(); saveDraft(); });
    row.append(rank, el("label", {}, [clean, " " + tr("clean")]), count, remove);
    return row;
  }

  // A team of several players records each one's hand (for the players' statistics).
  function handInputs(index, hand) {
    const players = (MATCH.config.teams[index] || {}).players || [];
    if (players.length < 2) {
      const cards = Array.isArray(hand) ? hand : Object.values(hand || {}).flat();
      return [el("label", { class: "block" }, [tr("hand") + " ", cardInput("hand", cardsText(cards), "AS 3C")])];
    }
    const byPlayer = Array.isArray(hand) ? { [players[0]]: hand } : hand || {};
    return players.map((player) => {
      const input = cardInput("hand hand-of", cardsText(byPlayer[player]), "AS 3C");
      input.dataset.player = player;
      return el("label", { class: "block" }, [fill(tr("hand_of"), { name: player }) + " ", input]);
    });
  }

  function readHand(section) {
    const each = [...section.querySelectorAll("input.hand-of")];
    if (!each.length) return tokens(section.querySelector("input.hand").value);
    return Object.fromEntries(each.map((input) => [input.dataset.player, tokens(input.value)]));
  }

  function teamSection(index, name, data) {
    data = data || {};
    const melds = el("div", { class: "melds" });
    for (const meld of data.melds || [[]]) melds.append(meldRow(index, meld));
    const addMeld = el("button", { type: "button", class: "add-meld", text: "+ " + tr("meld") });
    addMeld.addEventListener("click", () => { const row = meldRow(index, []); melds.append(row); row.querySelector("input").focus(); });
    const piles = el("div", { class: "piles" });
    for (const pile of data.piles || []) piles.append(pileRow(pile));
    const addPile = el("button", { type: "button", class: "add-pile", text: "+ " + tr("closed_canastra") });
    addPile.addEventListener("click", () => { piles.append(pileRow(null)); saveDraft(); });
    const morto = el("input", { type: "checkbox", class: "took-morto" });
    morto.checked = data.took_morto === undefined ? true : Boolean(data.took_morto);
    const out = el("input", { type: "radio", name: "went_out", value: String(index), class: "went-out" });
    out.checked = Boolean(data.went_out);
    const players = (MATCH.config.teams[index] || {}).players || [];
    const who = el("select", { class: "went-out-player" }, [el("option", { value: "", text: "—" }), ...players.map((p) => el("option", { value: p, text: p }))]);
    who.value = data.went_out_player || "";
    const outLabel = el("label", {}, [out, " " + tr("went_out")]);
    if (players.length > 1) outLabel.append(" · " + tr("who_went_out") + " ", who);
    const photo = el("label", { class: "block photo-input" }, [
      "📷 " + tr("photo") + " ",
      el("input", { type: "file", accept: "image/jpeg,image/png,image/webp", capture: "environment", class: "photo" }),
    ]);
    photo.hidden = !MATCH.photo;
    photo.querySelector("input").addEventListener("change", (event) => {
      if (event.target.files.length) readPhoto(index, event.target.files[0]);
    });
    return el("fieldset", { class: "team-entry", "data-team": String(index) }, [
      photo,
      el("legend", { text: name }),
      el("h3", { text: tr("melds") }), melds, addMeld,
      el("h3", { text: tr("closed_canastras") }), piles, addPile,
      el("label", { class: "block" }, [tr("dollars") + " ", cardInput("dollars", cardsText(data.dollars), "3H 3D")]),
      ...handInputs(index, data.hand),
      el("label", {}, [morto, " " + tr("took_morto")]),
      outLabel,
    ]);
  }

  function tallySection(index, name, data) {
    data = data || {};
    const grid = el("div", { class: "tally-grid" }, TALLY.map(([key, step]) => {
      const value = data[key] === undefined ? "" : String(data[key]);
      const input = el("input", { type: "number", class: "tally-n", inputmode: "numeric", min: "0", step: String(step), value, placeholder: "0" });
      input.dataset.key = key;
      return el("label", {}, [tr("tally." + key), input]);
    }));
    const morto = el("input", { type: "checkbox", class: "took-morto" });
    morto.checked = data.took_morto === undefined ? true : Boolean(data.took_morto);
    const out = el("input", { type: "radio", name: "went_out", value: String(index), class: "went-out" });
    out.checked = Boolean(data.went_out);
    return el("fieldset", { class: "team-entry tally", "data-team": String(index) }, [
      el("legend", { text: name }),
      grid,
      el("label", {}, [morto, " " + tr("took_morto")]),
      el("label", {}, [out, " " + tr("went_out")]),
    ]);
  }

  function readTally(section, i) {
    const team = { name: MATCH.sides[i] };
    for (const input of section.querySelectorAll("input.tally-n")) {
      const text = input.value.trim();
      // What is not a whole number goes as typed: the check names the field and why.
      team[input.dataset.key] = text === "" ? 0 : /^-?\d+$/.test(text) ? Number(text) : text;
    }
    team.took_morto = section.querySelector("input.took-morto").checked;
    team.went_out = section.querySelector("input.went-out").checked;
    return team;
  }

  function setMode(tally) {
    quick = tally;
    document.getElementById("card-entry").setAttribute("aria-pressed", String(!quick));
    document.getElementById("quick-entry").setAttribute("aria-pressed", String(quick));
    document.getElementById("cards-help").hidden = quick;
    document.getElementById("quick-help").hidden = !quick;
    document.getElementById("picker").hidden = quick;
  }

  function buildForm(state) {
    const teams = document.getElementById("teams");
    teams.replaceChildren();
    photos = {};
    endReplace();
    setMode(Boolean(state && state.tally));
    const byName = {};
    for (const team of (state && state.teams) || []) byName[team.name] = team;
    const section = quick ? tallySection : teamSection;
    MATCH.sides.forEach((name, i) => teams.append(section(i, name, byName[name])));
    const none = el("input", { type: "radio", name: "went_out", value: "", class: "went-out" });
    none.checked = !document.querySelector("input.went-out:checked");
    teams.append(el("label", { class: "block" }, [none, " " + tr("nobody_went_out")]));
    setActive(teams.querySelector("input.cards"));
    editing = (state && state.editing) || null;
    document.getElementById("entry-title").textContent = editing ? `${tr("editing_round")} ${editing}` : tr("new_round");
    document.getElementById("cancel-edit").hidden = !editing;
  }

  function readForm() {
    if (quick) {
      const sections = [...document.querySelectorAll("fieldset.team-entry")];
      return { players: MATCH.config.players, tally: true, teams: sections.map(readTally) };
    }
    const teams = [...document.querySelectorAll("fieldset.team-entry")].map((section, i) => ({
      name: MATCH.sides[i],
      melds: [...section.querySelectorAll("input.meld")].map((input) => tokens(input.value)).filter((m) => m.length),
      piles: [...section.querySelectorAll(".pile-row")].map((row) => ({
        pile: row.querySelector(".pile-rank").value,
        clean: row.querySelector(".pile-clean").checked,
        cards: Number(row.querySelector(".pile-cards").value) || 7,
      })),
      dollars: tokens(section.querySelector("input.dollars").value),
      hand: readHand(section),
      took_morto: section.querySelector("input.took-morto").checked,
      went_out: section.querySelector("input.went-out").checked,
    }));
    document.querySelectorAll("fieldset.team-entry").forEach((section, i) => {
      const who = section.querySelector("select.went-out-player");
      if (teams[i].went_out && who && who.value) teams[i].went_out_player = who.value;
    });
    return { players: MATCH.config.players, teams };
  }

  function saveDraft() {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ editing, tally: quick, teams: readForm().teams }));
  }

  function loadDraft() {
    try { return JSON.parse(localStorage.getItem(DRAFT_KEY) || "null"); } catch (e) { return null; }
  }

  function forgetDraft() {
    localStorage.removeItem(DRAFT_KEY);
    localStorage.removeItem(PHOTOS_KEY);
  }

  function savePhotos() {
    const kept = {};
    for (const [index, photo] of Object.entries(photos)) {
      if (photo.image) kept[index] = { image: photo.image, seen: photo.seen, codes: photo.codes, fixed: photo.fixed };
    }
    if (!Object.keys(kept).length) { localStorage.removeItem(PHOTOS_KEY); return; }
    try {
      localStorage.setItem(PHOTOS_KEY, JSON.stringify({ editing, photos: kept }));
    } catch (e) {
      localStorage.removeItem(PHOTOS_KEY); // over the browser's quota: the fields still survive
    }
  }

  // The photos kept with the draft of this very round, drawn again over their teams' fields
  // (which the draft already holds, later edits included).
  function restorePhotos(draft) {
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(PHOTOS_KEY) || "null"); } catch (e) { kept = null; }
    if (!draft || !kept || kept.editing !== editing || quick) { localStorage.removeItem(PHOTOS_KEY); return; }
    const sections = document.querySelectorAll("fieldset.team-entry");
    for (const [key, photo] of Object.entries(kept.photos || {})) {
      const index = Number(key);
      if (!sections[index]) continue;
      photos[index] = { ...photo, view: drawPhoto(index, photo.image, photo.seen) };
      for (const position of photo.fixed || []) markCard(index, position);
      sections[index].prepend(photos[index].view);
    }
  }

  // The photo drawn again at most `side` pixels on its longest side, as a JPEG Blob; null when
  // the browser cannot decode it, or (`onlyLarger`) when it is no larger than that already:
  // the file then goes as it is.
  async function downsize(file, side, quality, onlyLarger = false) {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      if (onlyLarger && scale === 1) { bitmap.close(); return null; }
      const canvas = el("canvas", { width: Math.round(bitmap.width * scale), height: Math.round(bitmap.height * scale) });
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      return await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
    } catch (e) {
      return null;
    }
  }

  // A copy of the photo small enough to keep in the draft (a JPEG data: URL), or null.
  async function shrink(file) {
    const blob = await downsize(file, PHOTO_SIDE, 0.7);
    if (!blob) return null;
    return new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => resolve(null);
      reader.readAsDataURL(blob);
    });
  }

  // Upload with progress (fetch cannot report it): { ok, status, data } as api() gives.
  function upload(path, body, onProgress) {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open("POST", path);
      request.setRequestHeader("Accept-Language", document.documentElement.lang || "en");
      if (MATCH.key) request.setRequestHeader("Authorization", "Bearer " + MATCH.key);
      request.timeout = 120000;
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      });
      request.upload.addEventListener("load", () => onProgress(1));
      request.addEventListener("load", () => {
        let data = null;
        try { data = JSON.parse(request.responseText); } catch (e) { data = null; }
        resolve({ ok: request.status >= 200 && request.status < 300, status: request.status, data });
      });
      request.addEventListener("error", () => resolve({ ok: false, status: 0, data: null }));
      request.addEventListener("timeout", () => resolve({ ok: false, status: 0, data: null, timedOut: true }));
      request.send(body);
    });
  }

  // The photo flow: recognition fills the team's melds, piles and dollars; the photo is shown
  // with every card outlined (unsure ones in orange). Tapping an outline opens the card picker
  // to replace or delete that card; the team's fields are then refilled from the photo.
  // The photo is downsized here before it goes (a phone's photo is megabytes over a weak
  // connection); the message line says what is happening: preparing, sending (%), reading.
  async function readPhoto(index, file) {
    const input = document.querySelectorAll("fieldset.team-entry")[index].querySelector("input.photo");
    input.disabled = true;
    try {
      showMessages([tr("photo_preparing")], "ok");
      const copy = shrink(file);
      const small = await downsize(file, UPLOAD_SIDE, 0.92, true);
      const body = new FormData();
      if (small) body.append("photo", small, "photo.jpg");
      else body.append("photo", file);
      const result = await upload(`/api/matches/${MATCH.id}/photos`, body, (done) => {
        showMessages([done < 1 ? fill(tr("photo_sending"), { percent: Math.round(done * 100) }) : tr("photo_reading")], "ok");
      });
      if (!result.ok) { showMessages(problemsOf(result), "problems"); return; }
      const data = result.data;
      if (!data || !data.recognized) { showMessages([tr("photo_unavailable")], "problems"); return; }
      const seen = data.recognized;
      endReplace();
      const image = await copy;
      // `upload`: the very bytes read, kept (not in the draft) to teach the deck once saved.
      photos[index] = { seen, codes: seen.cards.map((c) => c.card), fixed: [], image, view: null, upload: small || file };
      photos[index].view = drawPhoto(index, image || URL.createObjectURL(file), seen);
      applyPhoto(index);
      savePhotos();
      const flagged = seen.cards.filter((c) => c.flagged).map((c) => c.card);
      const lines = [fill(tr("photo_read"), { n: seen.cards.length })];
      if (flagged.length) lines.push(fill(tr("photo_flagged"), { cards: flagged.join(" ") }));
      if (seen.image && seen.image.jumbo_index) lines.push(tr("photo_jumbo"));
      if (seen.image && seen.image.sharpened) lines.push(tr("photo_shaken"));
      showMessages(lines, "ok");
    } finally {
      if (input.isConnected) input.disabled = false;
    }
  }

  // The photos that teach the match's deck once their round is saved, as the server's rule
  // says (DECK.teaches: GET …/deck's `teach`). A photo teaches the cards as confirmed (a
  // deleted card teaches nothing); the library learns only those.
  function photosToTeach() {
    if (typeof DECK === "undefined" || !DECK.teaches || !MATCH.photo) return [];
    return Object.values(photos)
      .filter((photo) => DECK.teaches(photo.fixed.length > 0))
      .map((photo) => ({
        blob: photo.upload || blobOf(photo.image),
        width: photo.seen.image.width,
        height: photo.seen.image.height,
        cards: photo.seen.cards
          .map((card, i) => (photo.codes[i] ? { card: photo.codes[i], corners: card.corners } : null))
          .filter(Boolean),
      }))
      .filter((photo) => photo.blob && photo.cards.length);
  }

  // The kept copy (a data: URL) as a Blob: after a reload only it is left of the photo.
  function blobOf(dataUrl) {
    if (!dataUrl || !dataUrl.startsWith("data:")) return null;
    const [head, body] = dataUrl.split(",", 2);
    const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
    return new Blob([bytes], { type: head.slice(5).split(";")[0] || "image/jpeg" });
  }

  async function teachDeck(photo) {
    await DECK.teachPhoto(photo.blob, photo.width, photo.height, photo.cards);
  }

  // What the photo's cards (as corrected) make: the groups recognition found, in its order.
  function photoDraft(photo) {
    const melds = [], piles = [], dollars = [];
    for (const group of photo.seen.groups) {
      const codes = group.positions.map((i) => photo.codes[i]).filter(Boolean);
      if (!codes.length) continue;
      if (group.kind === "meld") melds.push(codes);
      else if (group.kind === "dollar") dollars.push(...codes);
      // A loose card (a lone black 3) is in no meld, pile or dollar: the team's draft leaves it out.
      else if (group.kind === "pile") piles.push({ pile: codes[0].slice(0, -1).toUpperCase(), clean: group.orientation === "horizontal", cards: 7 });
    }
    return { melds, piles, dollars };
  }

  // Refill one team's melds, piles and dollars from its photo; the rest of its entry stays.
  function applyPhoto(index) {
    const teams = readForm().teams;
    const data = { ...teams[index], ...photoDraft(photos[index]) };
    const old = document.querySelectorAll("fieldset.team-entry")[index];
    const fresh = teamSection(index, MATCH.sides[index], data);
    fresh.prepend(photos[index].view);
    old.replaceWith(fresh);
    if (!active || !active.isConnected) setActive(fresh.querySelector("input.cards"));
    saveDraft();
  }

  function drawPhoto(index, src, seen) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${seen.image.width} ${seen.image.height}`);
    const size = Math.max(12, seen.image.card_width / 4);
    seen.cards.forEach((card, position) => {
      const outline = document.createElementNS(ns, "polygon");
      outline.setAttribute("points", card.corners.map((p) => p.join(",")).join(" "));
      outline.setAttribute("class", card.flagged ? "seen flagged" : "seen");
      outline.setAttribute("tabindex", "0");
      outline.setAttribute("role", "button");
      outline.setAttribute("aria-label", fill(tr("photo_card"), { card: card.card }));
      outline.dataset.position = String(position);
      const label = document.createElementNS(ns, "text");
      label.setAttribute("x", card.x);
      label.setAttribute("y", card.y);
      label.setAttribute("font-size", size);
      label.setAttribute("class", card.flagged ? "seen-label flagged" : "seen-label");
      label.textContent = card.card;
      outline.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); startReplace(index, position); }
      });
      svg.append(outline, label);
    });
    // Cards in a meld overlap: a tap picks, among the outlines under the finger, the card
    // whose centre is nearest (else the nearest card within a card's width).
    svg.addEventListener("click", (event) => {
      const point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      const at = point.matrixTransform(svg.getScreenCTM().inverse());
      const distance = (card) => Math.hypot(card.x - at.x, card.y - at.y);
      let best = null;
      seen.cards.forEach((card, position) => {
        const inside = contains(card.corners, at.x, at.y);
        if (!inside && distance(card) >= seen.image.card_width) return;
        const better = best === null || (inside && best.outside)
          || (inside !== best.outside && distance(card) < best.distance);
        if (better) best = { position, outside: !inside, distance: distance(card) };
      });
      if (best !== null) startReplace(index, best.position);
    });
    const image = el("img", { src, alt: tr("photo") });
    return el("div", { class: "photo-view", "data-team": String(index) }, [image, svg]);
  }

  function contains(corners, x, y) {
    let inside = false;
    for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
      const [xi, yi] = corners[i], [xj, yj] = corners[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  function outlineOf(index, position) {
    const view = photos[index] && photos[index].view;
    return view ? view.querySelectorAll("polygon")[position] : null;
  }

  function startReplace(index, position) {
    endReplace();
    replacing = { index, position };
    const photo = photos[index];
    const card = photo.seen.cards[position];
    outlineOf(index, position).classList.add("selected");
    const bar = document.getElementById("picker-replace");
    bar.querySelector(".replace-text").textContent = fill(tr("photo_replacing"), { card: prettyCard(photo.codes[position] || card.card) });
    const maybe = bar.querySelector(".replace-maybe");
    maybe.hidden = !card.alternative;
    if (card.alternative) {
      maybe.textContent = fill(tr("photo_maybe"), { card: prettyCard(card.alternative) });
      maybe.dataset.card = card.alternative;
    }
    bar.hidden = false;
    document.getElementById("picker").classList.add("replacing");
  }

  function endReplace() {
    if (replacing) {
      const outline = outlineOf(replacing.index, replacing.position);
      if (outline) outline.classList.remove("selected");
    }
    replacing = null;
    const bar = document.getElementById("picker-replace");
    if (bar) bar.hidden = true;
    const picker = document.getElementById("picker");
    if (picker) picker.classList.remove("replacing");
  }

  // The tapped card becomes `code` (null: it is not a card), on the photo and in the fields.
  function replaceCard(code) {
    const { index, position } = replacing;
    const photo = photos[index];
    photo.codes[position] = code;
    if (!photo.fixed.includes(position)) photo.fixed.push(position);
    markCard(index, position);
    endReplace();
    applyPhoto(index);
    savePhotos();
  }

  // A corrected card's outline and label show its code as corrected (✕: deleted).
  function markCard(index, position) {
    const code = photos[index].codes[position];
    const outline = outlineOf(index, position);
    outline.classList.remove("flagged");
    outline.classList.toggle("corrected", Boolean(code));
    outline.classList.toggle("deleted", !code);
    outline.setAttribute("aria-label", fill(tr("photo_card"), { card: code || "✕" }));
    const label = outline.nextElementSibling;
    label.textContent = code || "✕";
    label.classList.remove("flagged");
  }

  // The picker for a thumb: a suit row (the chosen suit sticks) above two rows of ranks, each
  // rank button naming the card it adds; ⌫ takes back the field's last card.
  function buildPicker() {
    const picker = document.getElementById("picker");
    const suits = el("div", { class: "picker-suits" });
    const ranks = el("div", { class: "picker-ranks" });
    let suit = SUITS[0];
    const rankButtons = RANKS.map((rank) => {
      const button = el("button", { type: "button", class: "card" });
      button.addEventListener("click", () => {
        if (replacing) { replaceCard(rank + suit[0].toLowerCase()); return; }
        if (!active) return;
        active.value = (active.value.trim() + " " + rank + suit[0]).trim();
        saveDraft();
      });
      return button;
    });
    const suitButtons = SUITS.map((each) => {
      const button = el("button", { type: "button", class: `suit ${each[2]}`, "data-suit": each[0], text: each[1], "aria-pressed": "false" });
      button.addEventListener("click", () => choose(each));
      return button;
    });
    function choose(chosen) {
      suit = chosen;
      suitButtons.forEach((button, i) => button.setAttribute("aria-pressed", String(SUITS[i] === chosen)));
      rankButtons.forEach((button, i) => {
        const rank = RANKS[i];
        button.dataset.card = rank + chosen[0];
        button.className = `card ${chosen[2]}`;
        button.textContent = (rank === "T" ? "10" : rank) + chosen[1];
      });
    }
    choose(SUITS[0]);
    suits.append(...suitButtons);
    const back = el("button", { type: "button", class: "card back", text: "⌫", title: tr("remove_last"), "aria-label": tr("remove_last") });
    back.addEventListener("click", () => {
      if (!active) return;
      active.value = tokens(active.value).slice(0, -1).join(" ");
      saveDraft();
    });
    ranks.append(...rankButtons, back);
    picker.append(suits, ranks);
    // Shown while a card tapped on a photo waits to be replaced or deleted.
    const maybe = el("button", { type: "button", class: "replace-maybe" });
    maybe.addEventListener("click", () => replaceCard(maybe.dataset.card));
    const remove = el("button", { type: "button", class: "replace-delete", text: tr("photo_delete") });
    remove.addEventListener("click", () => replaceCard(null));
    const keep = el("button", { type: "button", class: "replace-cancel", text: tr("photo_cancel") });
    keep.addEventListener("click", endReplace);
    const bar = el("div", { id: "picker-replace", class: "picker-replace" }, [
      el("span", { class: "replace-text" }), " ", maybe, remove, keep,
    ]);
    bar.hidden = true;
    picker.prepend(bar);
  }

  function showPreview(data) {
    const box = document.getElementById("preview");
    box.replaceChildren();
    for (const team of data.breakdowns || []) {
      const table = el("table", { class: "breakdown" }, [el("caption", {}, [team.side + ": ", el("strong", { text: NUMBER.format(team.total) })])]);
      for (const term of team.terms) {
        table.append(el("tr", {}, [el("td", { text: tr("term." + term.name) }), el("td", { class: "num", text: NUMBER.format(term.points) }), el("td", { text: term.detail })]));
      }
      box.append(table);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("round-form");
    if (!form) return;
    buildPicker();
    const draft = loadDraft();
    buildForm(draft);
    restorePhotos(draft);
    form.addEventListener("input", saveDraft);
    form.addEventListener("change", saveDraft);
    const check = document.getElementById("check-round");
    check.addEventListener("click", async () => {
      saveDraft();
      const result = await busy(check, tr("checking"), () => api("POST", "/api/tranca/score", readForm()));
      if (result.ok) { showMessages([], "ok"); showPreview(result.data); }
      else { showPreview({}); showMessages(problemsOf(result), "problems"); }
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      saveDraft();
      const teach = quick ? [] : photosToTeach();
      const saved = await saveRound(readForm(), editing, () => { forgetDraft(); buildForm({ tally: quick }); });
      if (saved) for (const photo of teach) await teachDeck(photo);
    });
    // Switching the kind of entry starts that kind's form afresh (the round being edited stays).
    for (const [id, tally] of [["card-entry", false], ["quick-entry", true]]) {
      document.getElementById(id).addEventListener("click", () => {
        if (tally === quick) return;
        buildForm({ editing, tally, teams: [] });
        saveDraft();
        showPreview({});
        showMessages([], "ok");
      });
    }
    document.getElementById("clear-draft").addEventListener("click", () => {
      forgetDraft();
      buildForm({ tally: quick });
      showMessages([], "ok");
    });
    document.getElementById("cancel-edit").addEventListener("click", () => {
      forgetDraft();
      buildForm({ tally: quick });
    });
    // Delegated: the history is swapped in anew after every save.
    document.addEventListener("click", (event) => {
      const button = event.target.closest("button.edit-round");
      if (button) {
        const number = Number(button.dataset.number);
        const document_ = roundDocument(number);
        buildForm({ editing: number, tally: Boolean(document_.tally), teams: document_.teams });
        saveDraft();
        savePhotos();
        document.getElementById("save-round").disabled = false;
        document.getElementById("entry").open = true;
        form.scrollIntoView();
      }
    });
  });
})();
