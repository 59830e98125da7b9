/* sheepfold — a table: join, play, watch, replay.
   The server is the authority: this page only sends intents and draws the views it receives,
   each with the renderer the server names (`shown.renderer`, the game's table driver): Dolly
   Crush's and Shave a Sheep's own, or the generic one (the driver's lines, the legal actions
   as buttons) for any other game. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const tableId = decodeURIComponent(location.pathname.split("/").pop());
  const TOKEN_KEY = "sheepfold:token:" + tableId;
  // a seat link (/t/ID#seat=TOKEN, from another device): keep its token, take it out of the address
  const linked = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (linked) {
    localStorage.setItem(TOKEN_KEY, linked);
    history.replaceState(null, "", location.pathname + location.search);
  }
  $("logo").innerHTML = SF.logo();
  $("invite").value = location.origin + "/t/" + encodeURIComponent(tableId);

  let ws = null;
  let msg = null; // the last state message
  let seqSeen = -1;
  let retry = 0;
  let pending = null; // Dolly Crush: {dog, swaps:[[a,b]], sel}
  let preview = null; // the server's answer for the planned swaps: {key, ref, cells: Set|null, points}
  let previewRef = 0;
  let replay = null; // {frames, i}
  let raceTimer = null;
  let errorTimer = null;
  let grabbedAt = -1; // Howling Wolf: the position at which this page sent its grab
  let gone = false; // the server does not know this table
  let ruleWords; // GET /api/tables/ID/rules: the rules in words; null: asked, or none to be had
  let houseKey = null; // what the House rules box shows
  const chat = SF.tableChat($("chat"), (m) => send(m)); // the table's chat (chat.js)

  // -- connection ------------------------------------------------------------------------
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}?lang=${encodeURIComponent(SF.lang)}`);
    ws.onopen = () => {
      retry = 0;
      preview = null; // asked again on the new connection
      story = []; // the log too (a restarted server tells it again)
      drawnUpTo = null;
      askedFor = -1;
      setStatus(true);
      const token = localStorage.getItem(TOKEN_KEY);
      const profile = SF.profileSecret(); // the profile's seat, from any of its devices
      if (token || profile) ws.send(JSON.stringify({ type: "hello", token, profile }));
    };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "state") SF.motion.show(m, onState); // shown in turn, moving (motion.js)
      else if (m.type === "preview") onPreview(m);
      else if (m.type === "chat" || m.type === "chat_log") chat.onMessage(m);
      else if (m.type === "log") { heard(m.events, true); render(); }
      else if (m.type === "error" && m.ref === "chat") chat.error(m.message);
      else if (m.type === "error") {
        if (m.message.startsWith("no table")) gone = true;
        if (typeof m.ref === "string" && m.ref.startsWith("preview-")) {
          // a preview is a hint, not a move: one the position left behind (a turn played from
          // another connection meanwhile) fails quietly; the move itself says what is wrong
          if (preview && m.ref === "preview-" + preview.ref) { preview.cells = new Set(); preview.failed = true; render(); }
          return;
        }
        showError(m.message);
      }
    };
    ws.onclose = () => {
      if (gone) {
        $("status").textContent = t("no such table");
        $("banner").innerHTML = `${t("This table does not exist (any more).")} <a href="/">${t("Back to the lobby")}</a>`;
        clearTimeout(errorTimer);
        return;
      }
      setStatus(false);
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 300 * retry);
    };
  }
  function send(obj) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj));
    else showError(t("not connected: trying again…"));
  }
  function setStatus(on) {
    $("status").className = "status " + (on ? "on" : "off");
    $("status").textContent = on ? t("connected") : t("reconnecting…");
  }
  const ERROR_MS = 3000; // a toast's life; a new position clears it sooner
  function showError(text) {
    $("error").innerHTML = `<div class="error">${SF.esc(text)}</div>`;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(clearError, ERROR_MS);
  }
  function clearError() {
    clearTimeout(errorTimer);
    $("error").innerHTML = "";
  }

  function onState(m) {
    if (m.seq !== seqSeen) {
      if (pending && (m.view.to_move !== m.you || m.view.phase !== "dog")) pending = null;
      if (seqSeen >= 0) clearError(); // an error was about the position before this one
      seqSeen = m.seq;
    }
    if (m.you === null && msg && msg.you !== null && localStorage.getItem(TOKEN_KEY) && m.table.seats[msg.you] && m.table.seats[msg.you].kind === "bot") {
      localStorage.removeItem(TOKEN_KEY); // we left: a bot took the seat
    }
    msg = m;
    window.SF_LAST = m; // what this page was told (tests read it)
    render();
  }

  // -- Dolly Crush: the lines planned swaps would take, as the server's engine finds them --
  function previewKey() { // what the planned swaps are, at this position
    if (!msg || msg.you === null || rendererOf(msg.shown) !== RENDERERS["dolly-crush"] || !myTurn() || !pending) return null;
    if (!pending.live && pending.dog === null) return null;
    return JSON.stringify([msg.seq, pending.live ? null : pending.dog, pending.swaps]);
  }
  function requestPreview() {
    const key = previewKey();
    if (key === null || (preview && preview.key === key)) return;
    previewRef += 1;
    preview = { key, ref: previewRef, cells: null, points: 0 };
    const m = { type: "preview", swaps: pending.swaps, ref: "preview-" + previewRef };
    if (!pending.live) m.dog = pending.dog;
    send(m);
  }
  function onPreview(m) {
    if (!preview || m.ref !== "preview-" + preview.ref) return; // an answer to older swaps
    preview.cells = new Set(m.cells);
    preview.points = m.points;
    paintPreview();
  }
  function paintPreview() { // the dashed cards and the words, without redrawing the page
    const flock = $("flock");
    if (!flock) return;
    const cells = (flock.dataset.interactive === "1" && previewCells()) || new Set();
    flock.querySelectorAll(".cell").forEach((el) => el.classList.toggle("line", cells.has(el.dataset.cell)));
    $("line-note").innerHTML = cells.size ? ` · <b class="line-ok">${t("dashed cards make a line!")}</b>` : "";
    if ($("preview") && pending && !pending.live && pending.dog !== null) {
      const left = msg.view.dog_swaps[me()][pending.dog] - pending.swaps.length;
      $("preview").innerHTML = `<b>${previewText(left)}</b>`;
      $("confirm").textContent = confirmText();
    }
  }
  function previewCells() { // null while the answer is on its way
    return preview && preview.key === previewKey() ? preview.cells : null;
  }

  // -- helpers ---------------------------------------------------------------------------
  const name = (seat) => SF.playerName(msg.table, seat);
  const me = () => msg.you;
  const myTurn = () => msg.you !== null && msg.view.to_move === msg.you;

  // -- join ------------------------------------------------------------------------------
  function renderJoin() {
    const t = msg.table;
    const box = $("join");
    const free = t.seats.filter((s) => s.free);
    if (me() !== null || t.finished || !free.length) { box.hidden = true; return; }
    box.hidden = false;
    if (box.dataset.free === free.map((s) => s.seat).join(",")) return; // keep what is typed
    box.dataset.free = free.map((s) => s.seat).join(",");
    const remembered = localStorage.getItem(SF.PROFILE_NAME_KEY) || localStorage.getItem("sheepfold:name") || "";
    box.innerHTML = `<h2>${SF.t("Take a seat")}</h2>
      <div class="row"><label>${SF.t("Your name")} <input id="join-name" maxlength="32" value="${SF.esc(remembered)}" placeholder="${SF.t("e.g. Mia")}"></label></div>
      <div class="row">${free.map((s) => `<button type="button" class="sit" data-seat="${s.seat}">${SF.t("Sit as player {n}", { n: s.seat + 1 })}</button>`).join("")}
      <span class="muted">${SF.t("or just watch")}</span></div>`;
    box.querySelectorAll(".sit").forEach((b) => {
      b.onclick = async () => {
        const nm = $("join-name").value.trim();
        if (!nm) { showError(SF.t("type your name first")); $("join-name").focus(); return; }
        try {
          const r = await SF.api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", headers: SF.profileHeaders(), body: { name: nm, seat: +b.dataset.seat } });
          localStorage.setItem(TOKEN_KEY, r.token);
          localStorage.setItem("sheepfold:name", nm);
          box.dataset.free = "";
          send({ type: "hello", token: r.token });
        } catch (e) { showError(e.message); }
      };
    });
  }

  // -- players ---------------------------------------------------------------------------
  function renderPlayers(view, table, live, r, shown) {
    $("players").innerHTML = table.seats.map((s, i) => {
      const turn = !view.finished && (view.to_move === i || (view.to_move === "chance" && r.rollerMoves && view.turn === i && view.phase === "roll"));
      const cls = ["player", turn ? "turn" : "", live && i === me() ? "me" : ""].join(" ");
      const body = r.seat(view, i, shown);
      const tag = s.kind === "bot" ? `<span class="tag">${t("bot: {level}", { level: SF.esc(SF.levelTitle(s.bot)) })}</span>` : s.held_for ? `<span class="tag">${t("saved for {name}", { name: SF.esc(s.held_for) })}</span>` : s.free ? `<span class="tag">${t("free seat")}</span>` : s.online ? "" : s.stand_in ? `<span class="tag">${t("away: a bot plays for them")}</span>` : `<span class="tag">${t("away")}</span>`;
      const winner = view.finished && view.winners.indexOf(i) >= 0 ? (view.winners.length > 1 ? " ★ " + t("tie") : " ★ " + t("winner")) : "";
      return `<div class="${cls}" data-seat="${i}"><span class="pname">${SF.esc(s.name || t("Seat {n}", { n: i + 1 }))}${winner}</span>${tag}
        ${live && i === me() ? `<span class="tag">${t("you")}</span>` : ""}${turn ? `<span class="turnmark">▶ ${t("turn")}</span>` : ""}${body}</div>`;
    }).join("");
  }
  function dollySeat(view, i) {
    const dogs = view.dog_swaps[i].map((n, d) => `<span class="dogchip ${view.dogs_left[i].indexOf(d) < 0 ? "used" : ""}" title="${t("dog card {n}", { n: d + 1 })}">${n}⇄</span>`).join("");
    const pile = view.collected[i];
    const score = view.scores[i] === null || view.scores[i] === undefined ? t("hidden") : view.scores[i];
    return `<div class="muted">${SF.esc(breedTitle(view.breeds[i]))}</div>
      <div class="dogs" aria-label="${t("dog cards")}">${dogs}</div>
      <div>${t("Sheep collected:")} <b>${pile.length}</b> · ${t("points:")} <b class="score">${score}</b></div>
      <div>${pile.map((c) => SF.cardHTML(c, "", view.card_points)).join("")}</div>`;
  }
  function shaveSeat(view, i) {
    const wool = [];
    for (let k = 0; k < view.max_wool; k++) wool.push(`<i class="${k < view.sheep[i] ? "" : "empty"}"></i>`);
    return `<div class="sheep">${SF.art.shaveSheep(view.sheep[i], view.max_wool)}<div class="wool" role="img" aria-label="${t("{n} wool on the sheep", { n: view.sheep[i] })}">${wool.join("")}</div></div>
      <div>${t("Wool on sheep:")} <b>${view.sheep[i]}</b> / ${view.max_wool}</div>
      <div class="pile">${t("Safe pile:")} <b class="score">${view.piles[i]}</b></div>
      ${view.wolf === i ? `<div class="wolfmark">${SF.COLOURS.gray.icon.replace("<svg", '<svg class="icon-13"')} ${t("the wolf stands here")}</div>` : ""}`;
  }
  function breedTitle(b) { return String(b || "").split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" "); }

  // -- Dolly Crush -----------------------------------------------------------------------
  // The flock: `rows` x `cols` (the view's; the rulebook's 3x5 when it says none); a cell is
  // named by its row letter and column number (a1, a2, ... b1, ...).
  let grid = null;
  function setGrid(view) {
    const rows = view.rows || 3, cols = view.cols || 5;
    if (grid && grid.rows === rows && grid.cols === cols) return;
    const cells = [];
    for (let r = 0; r < rows; r++) for (let c = 1; c <= cols; c++) cells.push(String.fromCharCode(97 + r) + c);
    grid = { rows, cols, cells };
  }
  const idx = (cell) => grid.cells.indexOf(cell);
  const adjacent = (a, b) => {
    const x = idx(a), y = idx(b), n = grid.cols;
    const rx = Math.floor(x / n), ry = Math.floor(y / n);
    return (rx === ry && Math.abs(x - y) === 1) || (x % n === y % n && Math.abs(rx - ry) === 1);
  };
  function flatFlock(view) { return [].concat(...view.flock); }
  function pendingFlock(view) {
    const f = flatFlock(view).slice();
    if (pending) for (const [a, b] of pending.swaps) { const x = idx(a), y = idx(b); const t = f[x]; f[x] = f[y]; f[y] = t; }
    return f;
  }
  /* The deck's line: how many cards, and what the stars say under the rules in play (the view's
     card_points): the printed points, a colour's points, or each card its own (the number after
     its stars, each type's in the legend: byType). */
  function pointsKey(n, types, points, byType) {
    if (SF.printedPoints(points)) return t("Deck: {n} cards · ★ white = 1 point, ★★ black = 2 points", { n });
    if (byType) return t("Deck: {n} cards · ★ white, ★★ black: the number after the stars is the card's points", { n });
    const first = [...types][0];
    return t("Deck: {n} cards · ★ white = {white}, ★★ black = {black}", { n, white: SF.pointsWords(SF.cardPoints(first + "-white", points)), black: SF.pointsWords(SF.cardPoints(first + "-black", points)) });
  }
  function renderDolly(view, live) {
    const points = view.card_points;
    const interactive = live && myTurn() && (view.phase === "dog" || view.phase === "swap") && pending && pending.dog !== null;
    const f = live ? pendingFlock(view) : flatFlock(view);
    const taken = new Set(view.last_taken || []);
    const moved = new Set();
    if (pending && live) for (const [a, b] of pending.swaps) { moved.add(a); moved.add(b); }
    const cells = f.map((code, i) => {
      const cell = grid.cells[i];
      if (!code) return `<div class="cell empty" data-cell="${cell}" role="img" aria-label="${t("{cell} empty", { cell })}"><span class="coord">${cell}</span></div>`;
      const [type, colour] = code.split("-");
      const cls = ["cell", colour,
        interactive && pending.sel === cell ? "sel" : "",
        interactive && pending.sel && pending.sel !== cell && adjacent(pending.sel, cell) ? "target" : "",
        !interactive && taken.has(cell) ? "taken" : "", moved.has(cell) ? "moved" : ""].join(" ");
      return `<div class="${cls}" data-cell="${cell}" data-code="${code}" role="button" aria-label="${colour === "black" ? t("{type} {cell}, black", { type: SF.esc(SF.typeWord(type)), cell }) : t("{type} {cell}, white", { type: SF.esc(SF.typeWord(type)), cell })}${SF.printedPoints(points) ? "" : ", " + SF.pointsWords(SF.cardPoints(code, points))}">
        <span class="pts" aria-hidden="true">${SF.cardMark(code, points)}</span>${SF.art.card(type, colour)}<span class="sym" aria-hidden="true">${SF.symbol(type)}</span><span class="word">${SF.esc(SF.typeWord(type))}</span> <span class="coord">${cell}</span></div>`;
    }).join("");
    const types = new Set(view.types || Object.keys(SF.TYPE_WORDS).slice(0, 5));
    f.forEach((code) => { if (code) types.add(code.split("-")[0]); });
    const byType = new Set([...types].map((ty) => `${SF.cardPoints(ty + "-white", points)}/${SF.cardPoints(ty + "-black", points)}`)).size > 1;
    const legend = [...types].map((ty) => `<span class="mini white">${SF.symbol(ty)} ${SF.esc(SF.typeWord(ty))}${byType ? ` ★ ${SF.cardPoints(ty + "-white", points)} ★★ ${SF.cardPoints(ty + "-black", points)}` : ""}</span>`).join("");
    $("board").innerHTML = `<div class="flock" id="flock" data-interactive="${interactive ? 1 : 0}">${cells}</div>
      <div class="row muted centered">${pointsKey(view.deck_size, types, points, byType)}<span id="line-note"></span></div>
      <div class="legend">${legend}</div>`;
    const flockEl = $("flock"); // sized here, not in a style attribute (the CSP allows no inline styles)
    flockEl.style.gridTemplateColumns = `repeat(${grid.cols}, minmax(0, 1fr))`; // no word widens a column
    flockEl.style.maxWidth = `${Math.min(112 * grid.cols, 940)}px`;
    flockEl.style.setProperty("--flock-shape", String(grid.cols / grid.rows)); // app.css: the flock fits the screen's height
    if (interactive) {
      $("board").querySelectorAll(".cell:not(.empty)").forEach((el) => {
        el.tabIndex = 0; // keyboard: Tab to a card, Enter or Space to tap it
        el.onclick = () => tapCell(el.dataset.cell);
        el.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tapCell(el.dataset.cell); } };
      });
      if (pending && pending.focus) { const f = $("board").querySelector(`[data-cell="${pending.focus}"]`); if (f) f.focus(); }
    }
  }

  function tapCell(cell) {
    const view = msg.view;
    if (pending.live) {
      if (pending.sel === null || pending.sel === cell) pending.sel = pending.sel === cell ? null : cell;
      else if (adjacent(pending.sel, cell)) { send({ type: "act", action: `swap ${pending.sel}-${cell}` }); pending.sel = null; }
      else pending.sel = cell;
      render();
      return;
    }
    const need = view.dog_swaps[me()][pending.dog];
    if (pending.swaps.length >= need) { showError(t("no swaps left: confirm your turn, or undo a swap")); return; }
    pending.focus = cell;
    if (pending.sel === null) pending.sel = cell;
    else if (pending.sel === cell) pending.sel = null;
    else if (adjacent(pending.sel, cell)) { pending.swaps.push([pending.sel, cell]); pending.sel = null; }
    else pending.sel = cell;
    render();
  }

  function previewText(left) {
    const cells = previewCells();
    if (!cells) return t("Looking for lines…");
    if (preview.failed) return t("The server could not check these swaps.");
    const n = cells.size;
    const pts = preview.points === 1 ? t("1 point") : t("{n} points", { n: preview.points });
    if (n) return t("With these swaps you take {n} sheep ({points}).", { n, points: pts });
    return left ? t("No line of three yet.") : t("With these swaps you take no sheep.");
  }

  function confirmText() { // "take the sheep" only when the swaps take some
    const cells = previewCells();
    if (!cells || preview.failed) return t("Done: end my turn");
    return cells.size ? t("Done: take the sheep!") : t("Done: end my turn (no sheep to take)");
  }

  function renderDollyControls(view) {
    const box = $("controls");
    if (myTurn() && view.phase === "swap") { // a turn started decision by decision: finish it live
      pending = { dog: view.dog, swaps: [], sel: pending && pending.live ? pending.sel : null, live: true };
      box.hidden = false;
      box.innerHTML = `<h2>${view.swaps_left === 1 ? t("Finish your turn: 1 swap left") : t("Finish your turn: {n} swaps left", { n: view.swaps_left })}</h2><p class="muted">${t("Tap a sheep, then a sheep next to it: each swap is played at once.")}</p>`;
      return;
    }
    if (!myTurn() || view.phase !== "dog") { box.hidden = true; return; }
    box.hidden = false;
    if (!pending) pending = { dog: null, swaps: [], sel: null };
    const my = me();
    if (pending.dog === null) {
      box.innerHTML = `<h2>${t("Your turn! Pick a dog card")}</h2><div class="turnbox">` +
        view.dogs_left[my].map((d) => `<button type="button" class="dogcard" id="dog-${d}" data-dog="${d}"><span class="n">${view.dog_swaps[my][d]}</span>${view.dog_swaps[my][d] === 1 ? t("swap") : t("swaps")}<span class="muted">${t("dog {n}", { n: d + 1 })}</span></button>`).join("") + `</div>`;
      box.querySelectorAll(".dogcard").forEach((b) => { b.onclick = () => { pending = { dog: +b.dataset.dog, swaps: [], sel: null }; render(); }; });
      return;
    }
    const need = view.dog_swaps[my][pending.dog];
    const left = need - pending.swaps.length;
    box.innerHTML = `<h2>${t("Swaps left: {left} of {need}", { left: `<span id="swaps-left">${left}</span>`, need })}</h2>
      <p class="muted">${left ? t("Tap a sheep, then a sheep next to it (left, right, up or down) to swap them.") : t("All swaps made. Cards in a dashed line will be yours!")}</p>
      <p id="preview"></p>
      <div class="turnbox">
        <button type="button" class="secondary" id="undo">↶ ${t("Undo")}</button>
        <button type="button" class="big" id="confirm" ${left ? "disabled" : ""}>${confirmText()}</button>
      </div>`;
    $("undo").onclick = () => {
      if (pending.swaps.length) pending.swaps.pop(); else pending = { dog: null, swaps: [], sel: null };
      pending.sel = null;
      render();
    };
    $("confirm").onclick = () => {
      send({ type: "turn", dog: pending.dog, swaps: pending.swaps });
      $("confirm").disabled = true;
    };
  }

  // -- Shave a Sheep ---------------------------------------------------------------------
  /* a decision's button: the server's words for it under the rules in play (the view's
     `labels`, games/shave_a_sheep/table.py), a player named where the words mark one */
  function actionLabel(a, view) {
    const said = view.labels && view.labels[a];
    return said ? named(said) : a.charAt(0).toUpperCase() + a.slice(1);
  }
  const ACTION_COLOUR = { grow: "white", double: "x2", shear: "pink", swap: "green", wolf: "gray", raid: "gray" };

  function renderShave(view) {
    const die = view.roll ? `<span class="die" id="die">${SF.art.die(view.roll)}${SF.faceHTML(view.roll)}</span>` : `<span class="muted">${t("The die:")} ${view.die.map((f) => SF.esc(f.split("/").map((c) => SF.COLOUR_WORDS[c] || c).join("/"))).join(" · ")}</span>`;
    $("board").innerHTML = `<div class="middle">${t("Wool in the middle:")} <b id="middle">${view.middle}</b></div>
      <div class="row centered">${die}</div>
      ${view.variants.length ? `<div class="muted centered">${t("Variants:")} ${view.variants.map((v) => SF.esc(t(SF.title(v)))).join(", ")}</div>` : ""}`;
  }

  function renderShaveControls(view, race) {
    const box = $("controls");
    clearInterval(raceTimer);
    const my = me();
    if (view.finished || my === null) { box.hidden = true; return; }
    let html = "";
    const acts = myTurn() ? view.legal_actions : []; // every decision the view lists gets a button
    if (view.phase === "roll" && view.turn === my) {
      html = `<h2>${t("Your turn!")}</h2><div class="actions"><button type="button" class="big" id="roll">${t("Roll the die")}</button></div>`;
    } else if (view.phase === "grab") {
      html = `<h2>${t("The wolf howls! Grab it first!")}</h2><div class="actions"><button type="button" class="big howl" id="howl" ${grabbedAt === msg.seq ? "disabled" : ""}>${t("HOWL! Grab the wolf")}</button></div><p class="muted" id="race-left"></p>`;
    }
    if (acts.length) {
      const title = view.phase === "howl-target" ? t("You won the race: you grabbed the wolf! Whose sheep does it bite?") : view.phase === "howl-grow" ? t("Add one piece of wool to your sheep?") : t("Choose what to do");
      html += (html ? "" : `<h2>${title}</h2>`) + `<div class="actions">` + acts.map((a) => {
        const c = ACTION_COLOUR[a.split(" ")[0]];
        const icon = c && view.phase === "choose" ? SF.COLOURS[c].icon.replace("<svg", '<svg class="icon-14"') : "";
        return `<button type="button" class="act" data-action="${SF.esc(a)}">${icon}${SF.esc(actionLabel(a, view))}</button>`;
      }).join("") + `</div>`;
    }
    if (!html) { box.hidden = true; return; }
    box.hidden = false;
    box.innerHTML = html;
    if ($("roll")) $("roll").onclick = () => { $("roll").disabled = true; send({ type: "roll" }); };
    if ($("howl")) {
      $("howl").onclick = () => { $("howl").disabled = true; grabbedAt = msg.seq; send({ type: "grab" }); };
      if (race) {
        const end = Date.now() + race.ms_left;
        const tick = () => { const s = Math.max(0, Math.ceil((end - Date.now()) / 1000)); if ($("race-left")) $("race-left").textContent = t("{s} s left", { s }); };
        tick();
        raceTimer = setInterval(tick, 250);
      }
    }
    box.querySelectorAll(".act").forEach((b) => { b.onclick = () => { box.querySelectorAll(".act").forEach((x) => { x.disabled = true; }); send({ type: "act", action: b.dataset.action }); }; });
  }

  // -- any other game: the driver's lines, the legal actions by name -------------------------
  const capital = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);
  function genericSeat(view, i, shown) {
    const score = view.scores && view.scores[i] !== null && view.scores[i] !== undefined ? view.scores[i] : t("hidden");
    return `<div>${SF.esc(capital(shown.score_label || t("score")))}: <b class="score">${SF.esc(score)}</b></div>`;
  }
  function renderGeneric(view, shown) {
    const lines = shown.lines || [];
    $("board").innerHTML = lines.length ? `<ul class="lines" id="lines">${lines.map((l) => `<li>${SF.esc(capital(l))}</li>`).join("")}</ul>` : "";
  }
  function renderGenericControls(view) {
    const box = $("controls");
    const acts = myTurn() && !view.finished ? view.legal_actions || [] : [];
    if (!acts.length) { box.hidden = true; return; }
    box.hidden = false;
    box.innerHTML = `<h2>${t("Your turn!")}</h2><div class="actions">` + acts.map((a) => `<button type="button" class="act" data-action="${SF.esc(a)}">${SF.esc(capital(a))}</button>`).join("") + `</div>`;
    box.querySelectorAll(".act").forEach((b) => { b.onclick = () => { box.querySelectorAll(".act").forEach((x) => { x.disabled = true; }); send({ type: "act", action: b.dataset.action }); }; });
  }

  /* The renderers, by the name the server gives (`shown.renderer`): a seat's panel, the board
     and its controls, and the replay's first words. */
  const RENDERERS = {
    "dolly-crush": {
      seat: dollySeat,
      draw(view, live) {
        setGrid(view);
        if (live) renderDollyControls(view); else $("controls").hidden = true;
        renderDolly(view, live);
        paintPreview();
      },
      start: t("The start: the flock as it was dealt."),
    },
    "shave-a-sheep": {
      seat: shaveSeat,
      rollerMoves: true, // at a roll the roller's seat shows the turn
      draw(view, live) {
        renderShave(view);
        if (live) renderShaveControls(view, msg.race); else $("controls").hidden = true;
      },
      rolls: true,
    },
    generic: {
      seat: genericSeat,
      draw(view, live, shown) {
        renderGeneric(view, shown);
        if (live) renderGenericControls(view); else $("controls").hidden = true;
      },
    },
  };
  const rendererOf = (shown) => RENDERERS[shown && shown.renderer] || RENDERERS.generic;

  // -- banner, log, replay ---------------------------------------------------------------
  const names = (list) => (list.length > 1 ? t("{some} and {last}", { some: list.slice(0, -1).join(", "), last: list[list.length - 1] }) : list.join(""));
  function endText(view, table, live) {
    if (view.truncated) return t("The game stopped (turn limit).");
    const w = view.winners.map((s) => SF.playerName(table, s));
    if (w.length > 1) return t("A tie between {names}! Game over.", { names: names(w) });
    if (!w.length) return t("Game over.");
    return (live && view.winners[0] === me() ? t("You won!") + " " : "") + t("Game over — {name} wins!", { name: w[0] });
  }
  const mover = (view) => (view.to_move === "chance" ? view.turn : view.to_move);
  function bannerText(view, table, live, r) {
    if (view.finished) return ["over", endText(view, table, live)];
    if (view.phase === "grab") return ["mine", t("The wolf howls! First to grab it picks a sheep.")];
    if (view.phase === "howl-target" && live && view.grabber === me()) return ["mine", t("You won the race: you grabbed the wolf!")];
    const who = mover(view);
    if (view.phase === "howl-target") return ["", t("{name} grabbed the wolf first!", { name: SF.playerName(table, view.grabber) })];
    if (live && who === me()) return ["mine", t("Your turn!")];
    if (r.rolls && view.phase === "roll") return ["", t("{name} rolls the die…", { name: SF.playerName(table, who) })];
    const away = table.clock && table.clock.away[who]; // past their clock, or gone long (server/clock.py)
    if (away) return ["", t("{name} is away since {time}", { name: SF.playerName(table, who), time: SF.awaySince(away) })];
    return ["", t("{name} is playing…", { name: SF.playerName(table, who) })];
  }

  // the server's words mark a seat's player as "{player K}" (a line made once names whoever sits there)
  const named = (text) => String(text).replace(/\{player (\d)\}/g, (_, k) => name(+k));
  /* the game's log, turn by turn (server/events.py): the state message brings its last few
     entries, and what a page missed (three bots played while it looked away) it asks for */
  let story = []; // every entry so far, in order (each numbered: n)
  let askedFor = -1; // the entry asked for last ("log" since it), not asked again
  const unfolded = new Map(); // turn -> open: what the player opened or folded by hand
  let drawnUpTo = null; // the last entry drawn (null: none yet; the first draw shows no arrival)
  // entries new since the last draw arrive one after another, in order (app.css: log-arrive),
  // at most 3 s behind; none move where the player's system asks for reduced motion
  const arrivals = new Map(); // entry n -> when its arrival starts (performance.now() ms)
  let lastArrival = -Infinity;
  const ARRIVE_MS = 300, ARRIVAL_MS = 450, BEHIND_MS = 3000;
  const moving = () => !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  function schedule(now) {
    if (drawnUpTo === null || !moving()) return;
    for (const e of story) {
      if (e.n <= drawnUpTo || arrivals.has(e.n)) continue;
      lastArrival = Math.min(Math.max(now, lastArrival + ARRIVE_MS), now + BEHIND_MS);
      arrivals.set(e.n, lastArrival);
      (window.SF_ARRIVALS = window.SF_ARRIVALS || []).push([e.n, lastArrival]); // tests read it
    }
    for (const [n, start] of arrivals) if (now - start > ARRIVAL_MS) arrivals.delete(n);
  }
  function heard(events, answer) { // entries from a state message, or the answer to "log"
    const have = story.length ? story[story.length - 1].n : 0;
    const fresh = events.filter((e) => e.n > have);
    if (!fresh.length) return;
    if (answer || fresh[0].n === have + 1) story = story.concat(fresh).slice(-1000);
    else if (askedFor !== fresh[fresh.length - 1].n) { // a gap: ask for what was missed
      askedFor = fresh[fresh.length - 1].n;
      send({ type: "log", since: have, ref: "log" });
    }
  }
  function logTurns() { // runs of entries of one turn: {seat, who, entries}
    const turns = [];
    for (const e of story) {
      const t = turns[turns.length - 1];
      if (t && t.turn === e.turn) { t.entries.push(e); if (t.seat == null && e.seat != null) Object.assign(t, { seat: e.seat, who: e.who }); }
      else turns.push({ turn: e.turn, seat: e.seat, who: e.who, entries: [e] });
    }
    return turns;
  }
  const entryNode = (t, now) => (e) => { // an entry still arriving: its animation, where it is
    const li = SF.el("li", {}, e.who && e.seat !== t.seat ? SF.el("b", { text: e.who + ": " }) : null, named(e.text));
    const start = arrivals.get(e.n);
    if (start !== undefined) {
      li.classList.add("arrived");
      li.style.animationDelay = `${(start - now) / 1000}s`; // below 0: part played already
    }
    return li;
  };
  function renderLog() {
    const turns = logTurns();
    // since my last turn: every turn after the one before the last (open); the rest folded
    let since = turns.length - 1;
    if (me() !== null) {
      let i = turns.length - 2;
      while (i >= 0 && turns[i].seat !== me()) i--;
      since = i + 1;
    }
    const key = JSON.stringify([story.length && story[story.length - 1].n, since, me()]);
    if ($("log").dataset.key === key) return;
    $("log").dataset.key = key;
    const title = (turn) => (turn.seat == null ? SF.t("At the table") : turn.seat === me() ? SF.t("Your turn") : SF.t("{name}'s turn", { name: turn.who }));
    const now = performance.now();
    schedule(now);
    const opened = (t, i) => (unfolded.has(t.turn) ? unfolded.get(t.turn) : i >= since);
    SF.fill($("log"), turns.map((t, i) => SF.el("details", { class: "turn" + (i >= since ? " recent" : ""), open: opened(t, i), dataset: { turn: String(t.turn) } },
      SF.el("summary", { onclick: (ev) => unfolded.set(t.turn, !ev.currentTarget.parentElement.open) }, SF.el("b", { text: title(t) }), ` · ${t.entries.length === 1 ? SF.t("1 thing") : SF.t("{n} things", { n: t.entries.length })}`),
      SF.el("ol", {}, t.entries.map(entryNode(t, now))))).reverse());
    drawnUpTo = story.length ? story[story.length - 1].n : drawnUpTo;
    $("log").scrollTop = 0; // the newest turn first
  }

  /* a frame's words: the server's, the log's lines for the move under the rules in play
     (server/replay.py), each on its own line */
  function replayEvent(f) {
    const said = (f.said || []).map((line) => SF.esc(named(line))).join("<br>");
    if (f.event === "start") return `<b>${rendererOf(f.shown).start || t("The start.")}</b>${said && "<br>" + said}`;
    return `<b>${SF.esc(f.who)}</b>: ${said}`;
  }
  function renderReplayBox() {
    const box = $("replay");
    if (!msg.table.finished) { box.hidden = true; return; }
    box.hidden = false;
    if (!replay) {
      box.innerHTML = `<h2>${t("Replay")}</h2><button type="button" id="replay-open">▶ ${t("Watch the game again, move by move")}</button>`;
      $("replay-open").onclick = async () => {
        try {
          const r = await SF.api(`/api/tables/${encodeURIComponent(tableId)}/replay`);
          replay = { frames: r.frames, i: 0 };
          render();
        } catch (e) { showError(e.message); }
      };
      return;
    }
    const n = replay.frames.length;
    box.innerHTML = `<h2>${t("Replay: move {i} of {n}", { i: `<span id="replay-pos">${replay.i}</span>`, n: n - 1 })}</h2>
      <div class="replaybar"><button type="button" id="replay-prev" aria-label="${t("previous move")}">◀</button>
      <input type="range" id="replay-range" min="0" max="${n - 1}" value="${replay.i}" aria-label="${t("move")}">
      <button type="button" id="replay-next" aria-label="${t("next move")}">▶</button>
      <button type="button" class="secondary" id="replay-close">${t("Back to the end")}</button></div>
      <p id="replay-event">${replayEvent(replay.frames[replay.i])}</p>`;
    $("replay-prev").onclick = () => { replay.i = Math.max(0, replay.i - 1); render(); };
    $("replay-next").onclick = () => { replay.i = Math.min(n - 1, replay.i + 1); render(); };
    $("replay-range").oninput = (e) => { replay.i = +e.target.value; render(); };
    $("replay-close").onclick = () => { replay = null; render(); };
  }

  // -- the table's rules: what differs from the rulebook, in the game's words (the server's) ---
  function loadRuleWords() { // asked once: a table's rules never change
    if (ruleWords !== undefined) return;
    ruleWords = null;
    SF.api(`/api/tables/${encodeURIComponent(tableId)}/rules`).then((w) => { ruleWords = w; render(); }, () => {});
  }
  function renderHouseRules(table) {
    loadRuleWords();
    if (table.house) { renderGalleryRules(table.house); return; }
    const key = JSON.stringify(ruleWords);
    if (key === houseKey) return;
    houseKey = key;
    const box = $("house-rules");
    if (!ruleWords) { SF.fill(box); return; }
    const from = ruleWords.ruleset ? SF.el("span", { class: "muted", text: ` (${ruleWords.ruleset})` }) : null;
    const lines = ruleWords.house_rules;
    SF.fill(box, lines.length
      ? [SF.el("strong", { text: t("House rules") }), from, SF.el("ul", { class: "differences" }, lines.map((d, i) => SF.el("li", { dataset: { part: String(i) }, text: d })))]
      : [SF.el("strong", { text: t("House rules:") }), " " + t("none, the rulebook's rules"), from]);
  }

  /* A rule set from the gallery: its name, version, author and differences from the rulebook,
     for everyone at the table (and in the replay), and before the first move above all: the
     rulebook asks that everyone knows the rules before the game starts. */
  function renderGalleryRules(house) {
    const fresh = !msg.table.finished && msg.seq === 0; // seq: the moves made so far
    const key = JSON.stringify([house, fresh, ruleWords]);
    if (key === houseKey) return;
    houseKey = key;
    const box = $("house-rules");
    box.className = "house-rules house-gallery panel" + (fresh ? " before-start" : "");
    SF.fill(box,
      SF.el("strong", { text: (fresh ? t("Before you start — this table plays house rules:") : t("House rules:")) + " " }),
      SF.el("a", { class: "house-name", href: house.url, text: house.name }),
      SF.el("span", { class: "muted", text: " " + t("version {v} · by", { v: house.version }) + " " }), SF.el("span", { class: "house-author", text: house.author }),
      SF.el("p", { class: "muted", text: t("What differs from the rulebook:") }),
      SF.differencesList(ruleWords ? ruleWords.house_rules : house.differences));
  }

  // -- after a game with gallery rules: would you play them again? --------------------------
  const VOTE_KEY = "sheepfold:vote:" + tableId;
  let voted = JSON.parse(localStorage.getItem(VOTE_KEY) || "null"); // {votes_yes, votes_total, again} once this seat voted
  function renderVote(table) {
    const box = $("vote");
    const token = localStorage.getItem(TOKEN_KEY);
    if (!table.house || !table.finished || me() === null || !token || replay) { box.hidden = true; return; }
    box.hidden = false;
    const key = JSON.stringify(voted);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const ask = (again) => async () => {
      box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
      try {
        const r = await SF.api(`/api/tables/${encodeURIComponent(tableId)}/vote`, { method: "POST", body: { token, again } });
        voted = Object.assign({ again }, r);
        localStorage.setItem(VOTE_KEY, JSON.stringify(voted));
        render();
      } catch (e) { showError(e.message); box.dataset.key = ""; render(); }
    };
    SF.fill(box,
      SF.el("h2", { text: t("Would we play {name} again?", { name: table.house.name }) }),
      SF.el("div", { class: "actions" },
        SF.el("button", { type: "button", id: "vote-yes", "aria-pressed": String(!!voted && voted.again), text: "✓ " + t("Yes"), onclick: ask(true) }),
        SF.el("button", { type: "button", class: "secondary", id: "vote-no", "aria-pressed": String(!!voted && !voted.again), text: "✗ " + t("No"), onclick: ask(false) })),
      voted ? SF.el("p", { id: "vote-counts", text: t("Thanks! {votes} (you can change your vote).", { votes: SF.votesText(voted.votes_yes, voted.votes_total) }) }) : null);
  }

  // -- the end: play again, or back to the lobby ----------------------------------------
  function renderEnd(table) {
    const box = $("end");
    box.hidden = !table.finished;
    if (box.hidden || box.dataset.next === String(table.next)) return;
    box.dataset.next = String(table.next);
    const again = table.next ? t("Join the next game") : t("Play again");
    box.innerHTML = `<div class="actions"><button type="button" class="big" id="again">${again}</button>
      <a class="btn secondary" id="to-lobby" href="/">${t("Back to the lobby")}</a></div>
      <p class="muted">${table.next ? t("A new table with the same rules and seats is open.") : t("A new table with the same rules and seats.")}</p>`;
    $("again").onclick = playAgain;
  }
  async function playAgain() { // the next table (opened once for everyone); my seat there, if free
    $("again").disabled = true;
    try {
      const t = await SF.api(`/api/tables/${encodeURIComponent(tableId)}/again`, { method: "POST" });
      const mine = me() !== null ? SF.seatAtNext(me(), t) : null; // who starts drawn again: turned
      if (mine !== null && t.seats[mine] && t.seats[mine].free) await sitAt(t.id, mine, name(me()));
      location.href = t.invite;
    } catch (e) { showError(e.message); $("again").disabled = false; }
  }
  async function sitAt(id, seat, who) {
    const r = await SF.api(`/api/tables/${encodeURIComponent(id)}/join`, { method: "POST", headers: SF.profileHeaders(), body: { name: who, seat } });
    localStorage.setItem("sheepfold:token:" + id, r.token);
  }

  function tabTitle(view, table) { // "● Your turn — Shave a Sheep" while it is yours
    const base = `${table.title} — sheepfold`;
    if (me() === null || view.finished) return base;
    if (view.phase === "grab") return `● ${t("Grab the wolf!")} — ${base}`;
    return mover(view) === me() ? `● ${t("Your turn")} — ${base}` : base;
  }

  // -- your turn: the tab's title says it; a notice says it too while the tab is hidden, once
  // the player asked for notices (a button: the browser asks them to allow it)
  const NOTIFY_KEY = "sheepfold:notify";
  let wasMine = null; // whether it was my turn at the last state (null: no state yet)
  const noticesOn = () => "Notification" in window && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
  function renderNotify() {
    const b = $("notify");
    b.hidden = !("Notification" in window) || me() === null || msg.table.finished;
    // the bell drawn (an emoji needs a font a machine may lack: a box), the words beside it
    SF.fill(b, SF.bellIcon(), " " + (noticesOn() ? t("Turn notices on") : t("Tell me when it is my turn")));
    b.setAttribute("aria-pressed", String(noticesOn()));
  }
  $("notify").onclick = async () => {
    if (noticesOn()) localStorage.removeItem(NOTIFY_KEY); // a second click: no more notices
    else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(NOTIFY_KEY, "1");
    else showError(t("Your browser does not allow notices from this page: allow them in its settings for this site."));
    renderNotify();
  };
  function turnNotice(view, table) {
    const mine = me() !== null && !view.finished && (view.phase === "grab" || mover(view) === me());
    if (mine && wasMine === false && document.hidden && noticesOn()) {
      const n = new Notification(`${t("Your turn")} — ${table.title}`, { body: view.phase === "grab" ? t("Grab the wolf!") : t("It is your turn at the table."), tag: "sheepfold-" + tableId });
      n.onclick = () => { window.focus(); n.close(); };
    }
    wasMine = mine;
  }

  // -- render ----------------------------------------------------------------------------
  function render() {
    if (!msg) return;
    const table = msg.table;
    document.title = tabTitle(msg.view, table);
    turnNotice(msg.view, table);
    renderNotify();
    $("title").textContent = table.title + (ruleWords && ruleWords.ruleset ? ` · ${ruleWords.ruleset}` : "") + (table.house ? ` · ${table.house.name}` : "");
    renderJoin();
    if (/^(dolly-crush|shave-a-sheep)$/.test(table.game)) { $("rules-link").href = "/rules/" + table.game; $("rules-link").hidden = false; } // the rules pages (server/learn.py)
    renderHouseRules(table);
    $("leave").hidden = $("copy-seat").hidden = me() === null || table.finished;
    $("status").textContent = ws && ws.readyState === 1 ? (table.spectators ? t("connected · {n} watching", { n: table.spectators }) : t("connected")) : $("status").textContent;
    const live = !replay;
    const view = replay ? replay.frames[replay.i].view : msg.view;
    const shown = (replay ? replay.frames[replay.i].shown : msg.shown) || {};
    const r = rendererOf(shown);
    const [cls, text] = bannerText(view, table, live, r);
    $("banner").className = "banner " + cls;
    $("banner").textContent = replay ? `${t("Replay")} — ${text}` : text;
    clockAt = [live && !view.finished ? table.clock : null, table, performance.now()];
    renderClock();
    $("ended").textContent = !replay && view.finished && msg.ended ? msg.ended : ""; // why it ended
    $("ended").hidden = !$("ended").textContent;
    renderPlayers(view, table, live, r, shown);
    r.draw(view, live, shown);
    heard(msg.events || []);
    renderLog();
    chat.update(table, me());
    renderReplayBox();
    renderEnd(table);
    SF.results.render(table, me()); // the results and the moments (static/results.js)
    $("starts").textContent = table.finished ? "" : SF.whoStarts(table);
    $("starts").hidden = !$("starts").textContent;
    renderVote(table);
    if (live) requestPreview();
  }

  /* the turn clock's line ("Ann: 2 days 3 hours left to move"), counted down between states */
  let clockAt = [null, null, 0];
  function renderClock() {
    const [clock, table, at] = clockAt;
    const seat = clock ? clock.seat : undefined;
    const text = seat === undefined ? "" : SF.clockLeft(clock, seat === me() ? null : SF.playerName(table, seat), at);
    $("clock-line").textContent = text;
    $("clock-line").hidden = !text;
  }
  setInterval(renderClock, 20000);

  $("copy").onclick = async () => {
    try { await navigator.clipboard.writeText($("invite").value); $("copy").textContent = t("Copied!"); } catch (e) { $("invite").select(); }
  };
  $("copy-seat").onclick = async () => {
    const link = location.origin + "/t/" + encodeURIComponent(tableId) + "#seat=" + encodeURIComponent(localStorage.getItem(TOKEN_KEY) || "");
    try { await navigator.clipboard.writeText(link); $("copy-seat").textContent = t("Seat link copied: keep it secret"); } catch (e) { showError(link); }
  };
  $("leave").onclick = () => {
    if (confirm(t("Leave this table?"))) { send({ type: "leave" }); localStorage.removeItem(TOKEN_KEY); }
  };
  connect();
})();
