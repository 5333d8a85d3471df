// Play Tranca: renders seat 1's view from /api/tranca/play and sends the taps back.
// No rule lives here: the server answers which moves are legal, refuses with the engine's reasons.
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const section = $("play");
  const text = section.dataset;
  const lang = document.documentElement.lang || "en";
  const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  let game = null;
  let selected = new Set();
  let busy = false;  // one move at a time from this page: a second tap meanwhile is dropped

  const face = (code) => (code[0] === "T" ? "10" : code[0]) + SUITS[code[1].toLowerCase()];
  const isRed = (code) => "hd".includes(code[1].toLowerCase());

  function cardSpan(code) {
    const span = document.createElement("span");
    span.className = "play-card" + (isRed(code) ? " red" : "");
    span.textContent = face(code);
    return span;
  }

  async function call(path, body) {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", "accept-language": lang },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) {
      const problems = (data.problems || []).map((p) => p.message || String(p));
      const error = new Error(problems.join("\n") || data.detail || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function showProblem(message) {
    const box = $("play-problems");
    box.hidden = !message;
    box.textContent = message ? `${text.refused}: ${message}` : "";
  }

  function renderTeams() {
    const box = $("play-teams");
    box.replaceChildren();
    game.teams.forEach((team, index) => {
      const div = document.createElement("div");
      div.className = "play-team";
      const title = document.createElement("h3");
      title.textContent = team.name + (team.dollars.length ? "  $ " + team.dollars.map(face).join(" ") : "");
      div.append(title);
      if (!team.melds.length) {
        const none = document.createElement("p");
        none.className = "small";
        none.textContent = text.noMelds;
        div.append(none);
      }
      team.melds.forEach((meld, m) => {
        // The user's own team's melds are buttons: tap one to add the selected cards to it
        // (or, before drawing, to take the pile onto it).
        const row = document.createElement(index === 0 ? "button" : "div");
        row.className = "play-meld";
        if (index === 0) {
          row.type = "button";
          row.dataset.meld = String(m);
          row.disabled = !game.actions.includes("add") && !game.actions.includes("take");
        }
        const label = document.createElement("span");
        label.className = "small";
        label.textContent = text.meldN.replace("{n}", String(m + 1)) + " ";
        row.append(label, ...meld.map(cardSpan));
        div.append(row);
      });
      box.append(div);
    });
  }

  function renderHand() {
    const box = $("play-hand");
    box.replaceChildren();
    game.hand.forEach((code, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "play-card" + (isRed(code) ? " red" : "");
      button.textContent = face(code);
      button.dataset.code = code;
      button.dataset.index = String(i);
      button.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
      box.append(button);
    });
  }

  function render() {
    section.hidden = false;
    const yours = !game.over && game.to_act === 0;
    $("play-status").textContent = game.over ? text.over : yours ? text.you : text.waiting;
    $("play-top").replaceChildren(game.top ? cardSpan(game.top) : text.empty);
    if (game.top) $("play-top").append(` (${game.pile})`);
    $("play-stock").textContent = String(game.stock);
    $("play-mortos").textContent = String(game.mortos);
    $("play-sizes").textContent = game.names.map((name, seat) => `${name} ${game.hand_sizes[seat]}`).join(" · ");
    renderTeams();
    renderHand();
    for (const button of $("play-actions").querySelectorAll("button")) {
      const action = button.dataset.action;
      const allowed = action === "hint" ? yours : action === "undo" ? game.can_undo : game.actions.includes(action);
      button.disabled = !allowed;
    }
    const hint = $("play-hint");
    hint.hidden = !game.hint;
    hint.textContent = game.hint ? text.hint.replace("{move}", game.hint) : "";
    showLog(game.log);
    const result = $("play-result");
    result.hidden = !game.result;
    if (game.result) renderResult(game.result);
  }

  // The moves appear one by one (at once for those who ask for less motion).
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let shown = 0;
  function showLog(lines) {
    const list = $("play-log");
    const run = ++shown;
    list.replaceChildren();
    lines.forEach((line, i) => {
      const add = () => {
        if (run !== shown) return;  // a newer answer replaced this list
        const li = document.createElement("li");
        li.textContent = line;
        list.append(li);
      };
      if (calm || i === 0) add(); else setTimeout(add, 250 * i);
    });
  }

  function renderResult(result) {
    const box = $("play-breakdowns");
    box.replaceChildren();
    for (const b of result.breakdowns) {
      const h = document.createElement("h3");
      h.textContent = `${b.side}: ${b.total}`;
      const ul = document.createElement("ul");
      for (const term of b.terms) {
        const li = document.createElement("li");
        li.textContent = `${term.points > 0 ? "+" : ""}${term.points} · ${term.detail}`;
        ul.append(li);
      }
      box.append(h, ul);
    }
  }

  async function act(body) {
    if (busy) return;
    busy = true;
    try {
      await send(body);
    } finally {
      busy = false;
    }
  }

  async function send(body) {
    showProblem("");
    try {
      // The view's version: a move made on a view the game has left (played on in another
      // tab or phone) is refused, and the game as it is now is shown instead.
      game = await call(`/api/tranca/play/${game.id}/act`, { ...body, version: game.version });
      selected = game.hint ? hintedCards(game.hint) : new Set();
    } catch (error) {
      if (error.status === 409) await reload();
      showProblem(error.message);
      return;
    }
    render();
  }

  async function reload() {
    try {
      game = await call(`/api/tranca/play/${game.id}`);
    } catch (error) {
      return;
    }
    selected = new Set();
    render();
  }

  // The hint's cards (codes after its verb, and a meld number) come selected: one tap to follow it.
  function hintedCards(hint) {
    const wanted = hint.split(" ").filter((word) => /^[2-9TJQKA][shdc]$/.test(word));
    const picked = new Set();
    for (const code of wanted) {
      const i = game.hand.findIndex((held, j) => held === code && !picked.has(j));
      if (i >= 0) picked.add(i);
    }
    return picked;
  }

  const chosen = () => [...selected].sort((a, b) => a - b).map((i) => game.hand[i]);

  $("play-new").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    showProblem("");
    try {
      game = await call("/api/tranca/play", {
        players: Number(form.get("players")), level: Number(form.get("level")),
      });
    } catch (error) {
      showProblem(error.message);
      section.hidden = false;
      return;
    }
    selected = new Set();
    $("play-match").hidden = true;
    $("play-save").disabled = false;
    history.replaceState(null, "", `#${game.id}`);  // a reload goes on with this game
    render();
  });
  $("play-start").disabled = false;

  // Open the game named in the address (after a reload); one this server forgot is dropped.
  async function resume() {
    const id = location.hash.slice(1);
    if (!/^[\w-]{8,64}$/.test(id)) return;
    try {
      game = await call(`/api/tranca/play/${id}`);
    } catch (error) {
      history.replaceState(null, "", location.pathname);
      return;
    }
    render();
  }
  resume();

  $("play-hand").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-index]");
    if (!button) return;
    const i = Number(button.dataset.index);
    if (selected.has(i)) selected.delete(i); else selected.add(i);
    button.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
  });

  $("play-teams").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-meld]");
    // Before drawing, a meld takes the pile onto it; after, it takes the selected cards.
    const action = game.actions.includes("add") ? "add" : "take";
    if (button) act({ action, meld: Number(button.dataset.meld), cards: action === "add" ? chosen() : [] });
  });

  $("play-actions").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    const cards = ["take", "meld", "discard"].includes(action) ? chosen() : [];
    act({ action, cards });
  });

  $("play-save").addEventListener("click", async () => {
    const result = game.result;
    showProblem("");
    try {
      const match = await fetch("/api/matches", {
        method: "POST",
        headers: { "content-type": "application/json", "accept-language": lang },
        body: JSON.stringify(result.match),
      });
      const created = await match.json();
      if (!match.ok) throw new Error((created.problems || []).map((p) => p.message).join("\n"));
      const saved = await fetch(`/api/matches/${created.id}/rounds`, {
        method: "POST",
        headers: {
          "content-type": "application/json", "accept-language": lang,
          authorization: `Bearer ${created.edit_key}`,
        },
        body: JSON.stringify({ version: created.version, round: result.round }),
      });
      if (!saved.ok) {
        const data = await saved.json();
        throw new Error((data.problems || []).map((p) => p.message).join("\n"));
      }
      const link = $("play-match");
      link.href = created.edit_url;
      link.hidden = false;
      $("play-save").disabled = true;
    } catch (error) {
      showProblem(error.message);
    }
  });
})();
