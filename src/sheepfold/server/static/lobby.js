/* sheepfold — the lobby: start a table, see the open ones. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();
  let games = null;
  let game = "dolly-crush";
  let seats = [{ kind: "human" }, { kind: "bot", bot: "random" }];
  const specs = {}; // GET /api/rules/GAME by game (null: not to be had)
  const editor = SF.rulesEditor($("rules-form"), updateCreate);
  const BLURB = {
    "dolly-crush": "Swap neighbouring sheep cards to line up three or more of a kind, then collect them. Each player has 4 dog cards; a dog card says how many swaps you make.",
    "shave-a-sheep": "Roll the die: grow wool on your sheep, swap sheep, send the wolf, or shear your sheep to keep its wool safe. The biggest safe pile wins.",
  };

  function botOptions(selected) {
    const bots = (games && games[game].bots) || { random: "random moves" };
    return Object.keys(bots).map((b) => `<option value="${SF.esc(b)}" title="${SF.esc(bots[b])}" ${b === selected ? "selected" : ""}>${SF.esc(b)}</option>`).join("");
  }

  // -- Dolly Crush: each seat's dog breed, and whether the seats' dog cards are equal -------
  const DEFAULT_RULESET = { "dolly-crush": "dolly-graded" }; // every breed's cards show 1, 2, 3, 4
  const breeds = () => (games && games[game].breeds) || [];
  const breedTitle = (name) => (breeds().find((b) => b.name === name) || { title: name }).title;
  function assignBreeds() { // every seat a breed of its own (Dolly Crush ruling 3): the first free one
    const names = breeds().map((b) => b.name);
    const used = new Set();
    seats.forEach((s) => {
      if (names.indexOf(s.breed) < 0 || used.has(s.breed)) s.breed = names.find((n) => !used.has(n));
      used.add(s.breed);
    });
  }
  function pickBreed(i, name) { // a breed another seat holds: the two seats swap breeds
    const other = seats.find((s) => s.breed === name);
    if (other) other.breed = seats[i].breed;
    seats[i].breed = name;
  }
  function breedHTML(s, i) {
    const opts = breeds().map((b) => `<option value="${SF.esc(b.name)}" ${b.name === s.breed ? "selected" : ""}>${SF.esc(b.title)}</option>`).join("");
    return `<label>dog <select class="breed" aria-label="player ${i + 1}'s dog breed">${opts}</select></label>
      <span class="dog-cards muted" data-seat="${i}"></span>`;
  }
  function dogCards(breed) { // the swap count on each of this breed's dog cards, as the rules are edited
    const v = editor.values();
    if (!v.dog_swaps) return null;
    const counts = v.dog_swaps[breed] || [];
    const n = v.dogs_per_player || counts.length;
    return counts.length === 1 ? Array(n).fill(counts[0]) : counts;
  }
  const cardsText = (cards) => `dog cards: ${cards.join(", ")} swaps`;
  function renderFairness() {
    const box = $("fairness");
    const cards = breeds().length && specs[game] ? seats.map((s) => dogCards(s.breed)) : [];
    if (!cards.length || cards.some((c) => !c)) { box.innerHTML = ""; return; }
    document.querySelectorAll(".dog-cards").forEach((el) => { el.textContent = cardsText(cards[+el.dataset.seat]); });
    const key = (c) => c.slice().sort((a, b) => a - b).join(",");
    if (cards.every((c) => key(c) === key(cards[0]))) {
      box.innerHTML = `<p class="muted">Every player's dog cards are equal.
        <button type="button" class="secondary" id="use-rulebook">Use the printed edition's dog cards (the rulebook)</button></p>`;
      $("use-rulebook").onclick = () => useRuleset("dolly-rulebook");
      return;
    }
    const who = seats.map((s, i) => `Player ${i + 1} (${SF.esc(breedTitle(s.breed))}): ${cards[i].join(", ")}`).join("; ");
    box.innerHTML = `<div class="warning" role="alert"><strong>Unequal dog cards decide the game.</strong>
      The printed edition gives the Australian Shepherd 4 swaps a card against 1: in bot tests the seat holding it
      won every one of 200 games. Here: ${who}.
      <button type="button" class="secondary" id="use-equal">Give everyone equal dog cards (dolly-graded)</button></div>`;
    $("use-equal").onclick = () => useRuleset(DEFAULT_RULESET["dolly-crush"]);
  }
  function useRuleset(name) {
    $("ruleset").value = name;
    pickRuleset();
  }

  function renderSeats() {
    $("seats").innerHTML = seats.map((s, i) => `
      <div class="row seat-row" data-seat="${i}">
        <strong>Player ${i + 1}</strong>
        <select class="kind" aria-label="player ${i + 1} is">
          <option value="human" ${s.kind === "human" ? "selected" : ""}>a person</option>
          <option value="bot" ${s.kind === "bot" ? "selected" : ""}>a bot</option>
        </select>
        ${s.kind === "bot" ? `<select class="bot" aria-label="bot level">${botOptions(s.bot)}</select>` : `<span class="muted">takes the seat with the invite link</span>`}
        ${breeds().length ? breedHTML(s, i) : ""}
      </div>`).join("");
    document.querySelectorAll(".seat-row").forEach((row) => {
      const i = +row.dataset.seat;
      row.querySelector(".kind").onchange = (e) => { seats[i].kind = e.target.value; if (!seats[i].bot) seats[i].bot = "random"; renderSeats(); };
      const b = row.querySelector(".bot");
      if (b) b.onchange = (e) => { seats[i].bot = e.target.value; };
      const br = row.querySelector(".breed");
      if (br) br.onchange = (e) => { pickBreed(i, e.target.value); renderSeats(); };
    });
    renderFairness();
    $("first").innerHTML = seats.map((_, i) => `<option value="${i}">Player ${i + 1}</option>`).join("") + `<option value="random">pick at random</option>`;
    $("add-seat").disabled = seats.length >= 4;
    $("remove-seat").disabled = seats.length <= 2;
  }

  function renderGame() {
    document.querySelectorAll("#game-choice button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.game === game)));
    $("game-blurb").textContent = BLURB[game];
    const sets = (games && games[game].rulesets) || [];
    $("ruleset").innerHTML = `<option value="">the rulebook</option>` + sets.map((r) => `<option value="${SF.esc(r.name)}" title="${SF.esc(r.description)}">${SF.esc(r.name)}</option>`).join("");
    if (sets.some((r) => r.name === DEFAULT_RULESET[game])) $("ruleset").value = DEFAULT_RULESET[game];
    $("ruleset").onchange = pickRuleset;
    $("ruleset-about").textContent = "";
    loadRules();
    $("autoroll-box").hidden = game !== "shave-a-sheep";
    $("scores-box").hidden = game !== "dolly-crush";
    const bots = games ? Object.keys(games[game].bots) : ["random"];
    seats.forEach((s) => { if (s.kind === "bot" && bots.indexOf(s.bot) < 0) s.bot = bots[0] || "random"; });
    assignBreeds();
    renderSeats();
  }

  // -- the rules: the chosen rule set, as edited in the rule editor ------------------------
  async function loadRules() {
    const g = game;
    $("rules-editor").hidden = true;
    updateCreate();
    if (specs[g] === undefined) {
      try { specs[g] = await SF.api(`/api/rules/${encodeURIComponent(g)}`); } catch (e) { specs[g] = null; }
    }
    if (g !== game || !specs[g]) return;
    editor.setSpec(specs[g]);
    $("rules-editor").hidden = false;
    pickRuleset();
  }
  function pickRuleset() {
    const spec = specs[game];
    const r = spec && spec.rulesets.find((x) => x.name === $("ruleset").value);
    $("ruleset-about").textContent = r ? r.description : "";
    if (spec) editor.load(r ? r.rules : null);
  }
  function updateCreate() { // Create waits for the rules to be checked, and refuses bad ones
    renderFairness();
    const editing = !!specs[game] && !$("rules-editor").hidden;
    const checking = editing && editor.checking();
    const bad = editing && !checking && !editor.valid();
    $("create-btn").disabled = checking || bad;
    $("rules-download").disabled = !editing || !editor.toml();
    $("rules-state").textContent = !editing ? "" : checking ? "checking the rules…" : bad ? "✗ these rules cannot be played: see the messages" : "✓ these rules can be played";
  }
  $("rules-download").onclick = () => {
    const text = editor.toml();
    if (!text) return;
    const name = String(editor.values().name || $("ruleset").value || game + "-rules").replace(/[^A-Za-z0-9_-]+/g, "-");
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
    a.download = name + ".toml";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  $("rules-upload").onchange = async (e) => {
    const file = e.target.files[0];
    e.target.value = ""; // the same file again is a new upload
    if (!file || !specs[game]) return;
    $("rules-editor").open = true;
    if (await editor.upload(file.name, await file.text())) { // on top of the rulebook
      $("ruleset").value = "";
      $("ruleset-about").textContent = `from ${file.name}`;
    }
  };

  document.querySelectorAll("#game-choice button").forEach((b) => { b.onclick = () => { game = b.dataset.game; renderGame(); }; });
  $("add-seat").onclick = () => { if (seats.length < 4) { seats.push({ kind: "bot", bot: "random" }); assignBreeds(); renderSeats(); } };
  $("remove-seat").onclick = () => { if (seats.length > 2) { seats.pop(); renderSeats(); } };

  $("create-btn").onclick = async () => {
    $("create-error").innerHTML = "";
    const body = {
      game,
      seats: seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "human" })),
      show_scores: $("show-scores").checked,
      replace_leavers: $("replace").checked,
      auto_roll: $("auto-roll").checked,
      private: $("private").checked,
    };
    if ($("ruleset").value) body.ruleset = $("ruleset").value;
    if (breeds().length) body.breeds = seats.map((s) => s.breed);
    const first = $("first").value;
    body.first_player = first === "random" ? "random" : +first;
    const rules = specs[game] ? editor.overrides() : {};
    if (Object.keys(rules).length) body.rules = rules;
    try {
      const t = await SF.api("/api/tables", { method: "POST", body });
      location.href = t.invite;
    } catch (e) {
      $("create-error").innerHTML = `<div class="error">${SF.esc(e.message)}</div>`;
    }
  };

  async function loadTables() {
    try {
      const ts = await SF.api("/api/tables");
      if (!ts.length) { $("tables").innerHTML = `<li class="muted">No tables yet: start one above!</li>`; return; }
      $("tables").innerHTML = ts.map((t) => {
        const free = t.seats.filter((s) => s.free).length;
        const who = t.seats.map((s) => SF.esc(s.name || "free seat")).join(", ");
        const state = t.finished ? "finished" : free ? `${free} free seat${free > 1 ? "s" : ""}` : "playing";
        return `<li><span class="name">${SF.esc(t.title)}${t.ruleset ? " · " + SF.esc(t.ruleset) : ""}</span>
          <span class="muted">${who} — ${state}</span>
          <a class="btn ${free ? "" : "secondary"}" href="/t/${encodeURIComponent(t.id)}">${t.finished ? "Replay" : free ? "Join" : "Watch"}</a></li>`;
      }).join("");
    } catch (e) {
      $("tables").innerHTML = `<li class="error">${SF.esc(e.message)}</li>`;
    }
  }

  (async () => {
    try { games = await SF.api("/api/games"); } catch (e) { games = null; }
    renderGame();
    loadTables();
    setInterval(loadTables, 5000);
  })();
})();
