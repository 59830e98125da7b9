/* sheepfold — shared helpers and hand-drawn symbols (every sheep type has its own shape). */
"use strict";
const SF = {};

/* -- languages (server/i18n.py): the page's language is <html lang>, set by the server, and its
   catalog (English text -> this language's) comes with the page as JSON. t(text,
   {name: x}) (a literal first argument) is the text in the language, its {name} parameters filled in; texts are
   found for the catalog by the name t (make i18n). */
SF.lang = document.documentElement.lang || "en";
SF.i18n = (() => {
  const data = document.getElementById("sf-i18n");
  try { return data ? JSON.parse(data.textContent) : {}; } catch (e) { return {}; }
})();
SF.catalog = SF.i18n.messages || {};
SF.t = function (text, params) {
  const template = Object.prototype.hasOwnProperty.call(SF.catalog, text) ? SF.catalog[text] : text;
  return params ? template.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m)) : template;
};
const t = SF.t;
/* The language switch, on every page with a header: a link per language (?lang=xx, which the
   server remembers in a cookie); each language named in its own words. */
SF.LANGUAGES = SF.i18n.languages || { en: "English" };
SF.languageSwitch = function () {
  const top = document.querySelector("header.top");
  if (!top || top.querySelector(".lang-switch") || Object.keys(SF.LANGUAGES).length < 2) return;
  const nav = document.createElement("nav");
  nav.className = "lang-switch";
  nav.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(SF.LANGUAGES)) {
    const url = new URL(location.href);
    url.searchParams.set("lang", code);
    const a = document.createElement("a");
    a.href = url.pathname + url.search + url.hash;
    a.lang = code;
    a.hreflang = code;
    a.textContent = name;
    a.setAttribute("aria-label", name); // a phone shows its code (app.css): its name is still its name
    a.dataset.lang = code;
    if (code === SF.lang) a.setAttribute("aria-current", "true");
    nav.append(a);
  }
  top.append(nav);
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", SF.languageSwitch);
else SF.languageSwitch();

/* A day and a moment in the page's language (its own way of writing dates). */
SF.day = (seconds) => new Date(seconds * 1000).toLocaleDateString(SF.lang);
SF.when = (seconds) => new Date(seconds * 1000).toLocaleString(SF.lang, { dateStyle: "medium", timeStyle: "short" });

SF.esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

SF.api = async function (path, opts) {
  const o = Object.assign({ headers: { "Content-Type": "application/json" } }, opts || {});
  if (o.body && typeof o.body !== "string") o.body = JSON.stringify(o.body);
  const r = await fetch(path, o);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    let msg = data && data.detail;
    if (Array.isArray(msg)) msg = msg.map((d) => (d.loc || []).slice(1).join(".") + ": " + d.msg).join("; ");
    throw new Error(msg || t("the server said {status}", { status: r.status }));
  }
  return data;
};

const SVG = (inner, vb) => `<svg viewBox="${vb || "0 0 40 40"}" aria-hidden="true" fill="currentColor" stroke="currentColor">${inner}</svg>`;

/* The Dolly Crush sheep types: a distinct outline each, plus the word on the card. The five
   printed types come first; rule sets with more types use clover, star and heart; any other
   type shows its initial and its name. */
SF.TYPE_WORDS = { bell: t("Bell"), lamb: t("Lamb"), butterfly: t("Butterfly"), flower: t("Flower"), ram: t("Ram"), clover: t("Clover"), star: t("Star"), heart: t("Heart") };
SF.typeWord = (type) => SF.TYPE_WORDS[type] || String(type).charAt(0).toUpperCase() + String(type).slice(1);
SF.symbol = function (type) {
  switch (type) {
    case "bell":
      return SVG('<path stroke-width="0" d="M20 5c-6.5 0-10 5.5-10 12.5v7L6.5 29h27L30 24.5v-7C30 10.5 26.5 5 20 5z"/><circle stroke-width="0" cx="20" cy="33" r="3.5"/><rect stroke-width="0" x="18" y="2" width="4" height="4" rx="1"/>');
    case "lamb":
      return SVG('<g stroke-width="0"><circle cx="12" cy="20" r="6"/><circle cx="19" cy="15" r="6.5"/><circle cx="26" cy="18" r="6"/><circle cx="16" cy="24" r="6"/><circle cx="24" cy="24" r="6"/><ellipse cx="33" cy="15" rx="4.5" ry="5.5"/><rect x="13" y="27" width="3" height="8" rx="1"/><rect x="23" y="27" width="3" height="8" rx="1"/></g>');
    case "butterfly":
      return SVG('<g stroke-width="0"><path d="M19 19C14 6 3 5 4 13c1 6 8 7 15 6z"/><path d="M21 19C26 6 37 5 36 13c-1 6-8 7-15 6z"/><path d="M19 21C12 21 7 28 11 32c3 3 7-4 8-11z"/><path d="M21 21c7 0 12 7 8 11-3 3-7-4-8-11z"/><rect x="18.5" y="12" width="3" height="20" rx="1.5"/></g><path fill="none" stroke-width="1.6" d="M19 12l-4-6M21 12l4-6"/>');
    case "flower":
      return SVG('<g stroke-width="0"><circle cx="20" cy="9" r="6"/><circle cx="30.5" cy="16.5" r="6"/><circle cx="26.5" cy="29" r="6"/><circle cx="13.5" cy="29" r="6"/><circle cx="9.5" cy="16.5" r="6"/></g><circle cx="20" cy="20" r="5" fill="#f5b700" stroke="#333" stroke-width="1.5"/>');
    case "ram":
      return SVG('<ellipse stroke-width="0" cx="20" cy="24" rx="7" ry="10"/><path fill="none" stroke-width="4" stroke-linecap="round" d="M15 15c-4-6-12-4-11 3 1 5 7 5 7 1M25 15c4-6 12-4 11 3-1 5-7 5-7 1"/>');
    case "clover":
      return SVG('<g stroke-width="0"><circle cx="20" cy="11" r="7"/><circle cx="11" cy="20" r="7"/><circle cx="29" cy="20" r="7"/></g><path fill="none" stroke-width="3" stroke-linecap="round" d="M20 20c0 7 2 12 6 16"/>');
    case "star":
      return SVG('<path stroke-width="0" d="M20 3l5 11 12 1-9 8 3 12-11-6-11 6 3-12-9-8 12-1z"/>');
    case "heart":
      return SVG('<path stroke-width="0" d="M20 35C8 26 3 19 4 12c1-6 9-9 16-2 7-7 15-4 16 2 1 7-4 14-16 23z"/>');
    default:
      return SVG(`<text x="20" y="28" font-size="22" font-weight="bold" text-anchor="middle" stroke-width="0">${SF.esc(String(type || "?").charAt(0).toUpperCase())}</text>`);
  }
};

/* A small bell drawn as an element (the turn notices' button): decoration, its words beside it. */
SF.bellIcon = function () {
  const box = document.createElement("span");
  box.className = "bell-icon";
  box.innerHTML = SF.symbol("bell").replace("<svg", '<svg class="icon-13"');
  return box.firstChild;
};

/* Shave a Sheep's die colours: each one an action with its own icon and word. */
SF.COLOURS = {
  white: { word: t("grow"), icon: SVG('<circle cx="20" cy="22" r="11" fill="#fff" stroke="#333" stroke-width="2.5"/><path stroke-width="4" d="M20 15v14M13 22h14"/>') },
  x2: { word: t("double"), icon: SVG('<text x="20" y="28" font-size="20" font-weight="bold" text-anchor="middle" stroke-width="0">×2</text>') },
  green: { word: t("swap"), icon: SVG('<path fill="none" stroke-width="3.5" stroke-linecap="round" d="M8 14h22M24 8l6 6-6 6M32 27H10M16 21l-6 6 6 6"/>') },
  gray: { word: t("wolf"), icon: SVG('<path stroke-width="0" d="M6 6l9 8h10l9-8-2 14-4 8-8 6-8-6-4-8z"/><circle cx="15" cy="20" r="2" fill="#fff"/><circle cx="25" cy="20" r="2" fill="#fff"/>') },
  pink: { word: t("shear"), icon: SVG('<circle cx="11" cy="29" r="5" fill="none" stroke-width="3"/><circle cx="29" cy="29" r="5" fill="none" stroke-width="3"/><path stroke-width="3.5" stroke-linecap="round" d="M14 25L30 6M26 25L10 6"/>') },
};
/* a die colour's name in words (the die's own colours; another one as it is named) */
SF.COLOUR_WORDS = { white: t("white"), x2: "x2", green: t("green"), gray: t("gray"), pink: t("pink") };
SF.faceHTML = function (face) {
  return face.split("/").map((c) => {
    const k = SF.COLOURS[c] || { word: c, icon: "" };
    const said = SF.COLOUR_WORDS[c] || c;
    return `<span class="face ${SF.esc(c)}" title="${SF.esc(said)}">${k.icon}<span>${SF.esc(said)} · ${SF.esc(k.word)}</span></span>`;
  }).join(" " + t("or") + " ");
};

SF.sheepSVG = function (wool) {
  const puff = wool > 0 ? "#fff" : "#e5e7eb";
  return `<svg class="body" viewBox="0 0 96 72" aria-hidden="true">
    <g fill="${puff}" stroke="#374151" stroke-width="2">
      <circle cx="30" cy="32" r="${12 + wool}"/><circle cx="46" cy="26" r="${12 + wool}"/><circle cx="60" cy="34" r="${11 + wool}"/><circle cx="42" cy="42" r="${12 + wool}"/></g>
    <ellipse cx="76" cy="26" rx="9" ry="11" fill="#374151"/><circle cx="79" cy="23" r="2" fill="#fff"/>
    <rect x="30" y="54" width="5" height="14" rx="2" fill="#374151"/><rect x="54" y="54" width="5" height="14" rx="2" fill="#374151"/></svg>`;
};

SF.logo = function () {
  return `<svg class="logo" viewBox="0 0 40 40" aria-hidden="true"><g fill="#fff" stroke="#374151" stroke-width="1.5"><circle cx="13" cy="20" r="7"/><circle cx="21" cy="15" r="7"/><circle cx="25" cy="23" r="7"/><circle cx="16" cy="25" r="7"/></g><ellipse cx="33" cy="15" rx="4.5" ry="5.5" fill="#374151"/></svg>`;
};

/* A Dolly Crush card's points under the rules in play: `points` is the view's card_points (each
   card code's points); without it, the printed ones (a white card 1, a black card 2). */
SF.PRINTED_POINTS = { white: 1, black: 2 };
SF.cardPoints = (code, points) => (points && code in points ? points[code] : SF.PRINTED_POINTS[code.split("-")[1]]);
/* whether every card scores its printed points (its stars say them) */
SF.printedPoints = (points) => !points || Object.keys(points).every((code) => points[code] === SF.PRINTED_POINTS[code.split("-")[1]]);
SF.pointsWords = (n) => (n === 1 ? t("1 point") : t("{n} points", { n }));
/* a card's mark: ★ white, ★★ black (the printed points); under other points, its own points
   after the stars ("★★ 4") */
SF.cardMark = (code, points) => {
  const stars = code.split("-")[1] === "black" ? "★★" : "★";
  return SF.printedPoints(points) ? stars : `${stars} ${SF.cardPoints(code, points)}`;
};
/* a sheep card in words: its type, its colour, its points under the rules in play ("Lamb, a
   black card, 2 points") */
SF.cardWords = (type, colour, points) => {
  const said = { type: SF.typeWord(type), points: SF.pointsWords(SF.cardPoints(`${type}-${colour}`, points)) };
  return colour === "black" ? t("{type}, a black card, {points}", said) : t("{type}, a white card, {points}", said);
};
SF.cardHTML = function (code, cls, points) {
  if (!code) return `<span class="mini back" title="${t("face down")}">?</span>`;
  const [type, colour] = code.split("-");
  return `<span class="mini ${colour} ${cls || ""}" title="${SF.esc(SF.cardWords(type, colour, points))}">${SF.symbol(type)}<span aria-hidden="true">${SF.cardMark(code, points)}</span></span>`;
};

/* A name of ours in words, for the rare name the server sent no words for (`max_wool`:
   "Max wool"); a bot's level as its title (`expert:time=2`: "Expert"). */
SF.words = function (name) {
  const t = String(name == null ? "" : name).replace(/[-_]+/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
};
/* A rule set's (or a variant's) name as a title, as server/plain_words.py's ruleset_title
   says it, so that the catalog has it (`my-friend-mr-wolf`: "My Friend Mr Wolf"; the small
   words of a title in small letters but for the first). */
SF.SMALL_WORDS = new Set("a an and at by for in of on or the to".split(" "));
SF.title = function (name) {
  const words = SF.words(name).split(/\s+/);
  return words.map((w, i) => (i && SF.SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
};
SF.levelTitle = (spec) => { // the catalog has the levels' titles (server/plain_words.py)
  const title = SF.words(String(spec || "").split(":")[0]);
  return title ? SF.t(title) : t("a bot");
};

SF.playerName = function (table, seat) {
  const s = table.seats[seat];
  return (s && s.name) || t("Seat {n}", { n: seat + 1 });
};

/* An element built from parts: strings become text nodes and `text` sets textContent, so
   whatever a stranger typed (a rule set's name, an author) can never become markup. */
SF.el = function (tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e[k] = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of kids.flat()) if (c != null && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
};
/* Replace a box's content with these nodes. */
SF.fill = function (box, ...kids) {
  box.replaceChildren(...kids.flat().filter((c) => c != null && c !== false));
  return box;
};

/* A file for the user to save: `text` under `filename`. */
SF.download = function (filename, text, type) {
  const a = SF.el("a", { download: filename });
  a.href = URL.createObjectURL(new Blob([text], { type }));
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
};

/* The swap count on each dog card of a Dolly Crush breed under these rules (every option set),
   or null when the rules have no dog cards. */
SF.dogCardsOf = function (rules, breed) {
  if (!rules || !rules.dog_swaps) return null;
  const counts = rules.dog_swaps[breed] || [];
  const n = rules.dogs_per_player || counts.length;
  return counts.length === 1 ? Array(n).fill(counts[0]) : counts;
};

/* The seats of a new table, as the lobby and a gallery rule set's "Try it" choose them: a person
   or a bot each (and its level), who starts, and in a game with dog breeds a breed per seat,
   every seat its own (Dolly Crush ruling 3). els: {seats, first, add, remove} elements;
   opts: {games() (GET /api/games or null), game() (its name), dogCards(breed) (the swap count on
   each dog card, or null), onRender()}. */
SF.seatPicker = function (els, opts) {
  const seats = [{ kind: "human" }, { kind: "bot", bot: "random" }];
  const info = () => { const g = opts.games(); return (g && g[opts.game()]) || null; };
  const breeds = () => (info() && info().breeds) || [];
  const breedTitle = (name) => (breeds().find((b) => b.name === name) || { title: name }).title;
  /* the bot levels offered (GET /api/games: each with a title and how it plays, in words);
     a level the lobby found unable to play these rules: disabled, with why */
  const levels = () => (info() && info().levels) || [{ name: "random", title: t("Random"), about: "" }];
  const unavailable = {}; // level name -> why it cannot play now (opts.levelProblem)
  function botOptions(selected) {
    const preparing = (info() && info().preparing) || {}; // still compiling: say so, it plays later
    const label = (l) => (preparing[l.name] ? t("{level} (getting ready: compiling {what})", { level: l.title, what: preparing[l.name] }) : l.title);
    return levels().map((l) => `<option value="${SF.esc(l.name)}" ${l.name === selected ? "selected" : ""} ${unavailable[l.name] && l.name !== selected ? "disabled" : ""}>${SF.esc(label(l))}${unavailable[l.name] ? " " + t("(not for these rules)") : ""}</option>`).join("");
  }
  function levelAbout(name) { // how the level plays, shown beside the choice (no tooltip: phones have none)
    const l = levels().find((x) => x.name === name);
    return l ? l.about : "";
  }
  function assignBreeds() { // every seat a breed of its own: the first free one
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
    const opts_ = breeds().map((b) => `<option value="${SF.esc(b.name)}" ${b.name === s.breed ? "selected" : ""}>${SF.esc(b.title)}</option>`).join("");
    return `<label>${t("dog")} <select class="breed" aria-label="${t("player {n}'s dog breed", { n: i + 1 })}">${opts_}</select></label>
      <span class="dog-cards muted" data-seat="${i}"></span>`;
  }
  /* each seat's dog cards, as the rules say (null for a game without them) */
  function dogCards() {
    const cards = breeds().length && opts.dogCards ? seats.map((s) => opts.dogCards(s.breed)) : [];
    if (!cards.length || cards.some((c) => !c)) return null;
    els.seats.querySelectorAll(".dog-cards").forEach((el) => { el.textContent = t("dog cards: {swaps} swaps", { swaps: cards[+el.dataset.seat].join(", ") }); });
    return cards;
  }
  function render() {
    els.seats.innerHTML = seats.map((s, i) => `
      <div class="row seat-row" data-seat="${i}">
        <strong>${t("Player {n}", { n: i + 1 })}</strong>
        <select class="kind" aria-label="${t("player {n} is", { n: i + 1 })}">
          <option value="human" ${s.kind === "human" ? "selected" : ""}>${t("a person")}</option>
          <option value="bot" ${s.kind === "bot" ? "selected" : ""}>${t("a bot")}</option>
        </select>
        ${s.kind === "bot" ? `<select class="bot" aria-label="${t("bot level")}">${botOptions(s.bot)}</select><span class="level-about muted">${SF.esc(levelAbout(s.bot))}</span>` : `<span class="muted">${t("takes the seat with the invite link")}</span>`}
        ${breeds().length ? breedHTML(s, i) : ""}
      </div>`).join("");
    els.seats.querySelectorAll(".seat-row").forEach((row) => {
      const i = +row.dataset.seat;
      row.querySelector(".kind").onchange = (e) => { seats[i].kind = e.target.value; if (!seats[i].bot) seats[i].bot = "random"; render(); };
      const b = row.querySelector(".bot");
      if (b) b.onchange = (e) => { seats[i].bot = e.target.value; render(); };
      const br = row.querySelector(".breed");
      if (br) br.onchange = (e) => { pickBreed(i, e.target.value); render(); };
    });
    dogCards();
    const first = els.first.value; // kept while the seats change (at random by default: a fair start)
    els.first.innerHTML = `<option value="random">${t("pick at random")}</option>` + seats.map((_, i) => `<option value="${i}">${t("Player {n}", { n: i + 1 })}</option>`).join("");
    if (first && +first < seats.length) els.first.value = first;
    els.add.disabled = seats.length >= 4;
    els.remove.disabled = seats.length <= 2;
    if (opts.onRender) opts.onRender();
  }
  /* another game: bots it has, breeds of its own */
  function fit() {
    const bots = levels().map((l) => l.name);
    seats.forEach((s) => { if (s.kind === "bot" && bots.indexOf(s.bot) < 0) s.bot = bots[0] || "random"; });
    assignBreeds();
    render();
  }
  els.add.onclick = () => { if (seats.length < 4) { seats.push({ kind: "bot", bot: "random" }); assignBreeds(); render(); } };
  els.remove.onclick = () => { if (seats.length > 2) { seats.pop(); render(); } };
  return {
    seats: () => seats,
    breeds,
    breedTitle,
    dogCards,
    render,
    fit,
    /* a level that cannot play now (why, in words), or null: it can */
    setUnavailable(name, why) {
      if ((unavailable[name] || null) === (why || null)) return;
      if (why) unavailable[name] = why; else delete unavailable[name];
      render();
    },
    /* the seats' part of POST /api/tables */
    body() {
      const out = { seats: seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "human" })) };
      if (breeds().length) out.breeds = seats.map((s) => s.breed);
      const first = els.first.value;
      out.first_player = first === "random" ? "random" : +first;
      return out;
    },
  };
};

/* -- the perfect bot: offered where it can play, its wait said before a table opens ----------- */
SF.PERFECT = "perfect";
SF.usesPerfect = (body) => body.seats.some((s) => s.kind === "bot" && String(s.bot).split(":")[0] === SF.PERFECT);
/* Whether the perfect bot could play a table of these settings (POST /api/tables/ready, every
   seat asked as the perfect bot; nothing started): {ready, wait, message}, or null. */
SF.perfectProbe = async function (body) {
  const probe = Object.assign({}, body, { seats: body.seats.map(() => ({ kind: "bot", bot: SF.PERFECT })) });
  try { return await SF.api("/api/tables/ready", { method: "POST", body: probe }); } catch (e) { return null; }
};
/* Open a table (POST /api/tables) once it can open: the perfect bot's solving started and
   waited for (`say(text)` is told each wait); an Error with the reason when it cannot. */
SF.openTable = async function (body, say) {
  if (SF.usesPerfect(body)) {
    for (let i = 0; ; i++) {
      const r = await SF.api(`/api/tables/ready?start=${i === 0}`, { method: "POST", body }); // started once, then followed
      if (r.ready) break;
      if (r.wait == null || i >= 600) throw new Error(r.message);
      say(t("Getting the perfect bot ready: about {s} s…", { s: r.wait }));
      await new Promise((done) => setTimeout(done, 1000));
    }
  }
  // a table for your friends is your profile's (profiles.js)
  const mine = body.who_may_sit === "friends" ? { headers: SF.profileHeaders() } : {};
  return SF.api("/api/tables", Object.assign({ method: "POST", body }, mine));
};

/* -- the gallery of house rules (gallery.js, ruleset.js, table.js) --------------------------- */
/* A lab figure for people, as the lab prints it (sheepfold.lab.metrics.fmt / fmt_diff): `pct` a
   share (50.2%), `pp` a difference of shares in percentage points, `num` a plain number; in the
   page's language ("50,2%" in Italian: Intl.NumberFormat, the digits of the English). */
SF.labNumber = function (x, kind, diff) {
  if (x == null || Number.isNaN(x)) return "-";
  const share = kind === "pct" || kind === "pp";
  const v = share ? 100 * x : x;
  const digits = share ? 1 : Math.abs(v) >= 1000 ? 0 : Math.abs(v) >= 100 ? 1 : 2;
  const shown = +v.toFixed(digits) || 0; // never "-0.0"
  const sign = (diff || kind === "pp") && shown > 0 ? "+" : "";
  if (share && (diff || kind === "pp")) return t("{number} pp", { number: sign + SF.number(shown, digits) });
  if (share) return SF.number(shown / 100, digits, "percent");
  return sign + SF.number(shown, digits);
};
/* A number with `digits` decimals in the page's language (`style` "percent": a share, 0.502 is
   "50.2%"), without thousands separators, as the lab writes it. */
SF.number = (x, digits, style) => new Intl.NumberFormat(SF.lang, { style: style || "decimal", minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(x);
/* A 95% interval: "[+0.1, +0.3]" ("[+0,1; +0,3]" in Italian, where the comma is the decimal sign) */
SF.labInterval = (lo, hi, kind, diff) => t("[{lo}, {hi}]", { lo: SF.labNumber(lo, kind, diff), hi: SF.labNumber(hi, kind, diff) });
SF.galleryUrl = (game, slug) => `/gallery/${encodeURIComponent(game)}/${encodeURIComponent(slug)}`;
SF.galleryApi = (game, slug, version) => "/api/gallery/" + [game, slug, version].filter((x) => x != null).map((x) => encodeURIComponent(x)).join("/");
/* A rule set's differences from the rulebook, one line each, in words (the server's). */
SF.differencesList = function (lines) {
  if (!lines || !lines.length) return SF.el("p", { class: "muted differences", text: t("The rulebook's rules: nothing changed.") });
  return SF.el("ul", { class: "differences" }, lines.map((d) => SF.el("li", { text: d })));
};
/* "2 of 3 would play it again" */
SF.votesText = (yes, total) => (total ? t("{yes} of {total} would play it again", { yes, total }) : t("no votes yet"));
/* The lab card's status in a line or two: queued (and where in the queue), running (a progress
   bar), done (the verdict and the key figures), failed or refused (why). */
SF.labSummary = function (lab, keyFigures) {
  const box = SF.el("div", { class: "lab lab-" + (lab ? lab.status : "none"), dataset: { status: lab ? lab.status : "none" } });
  if (!lab) return SF.fill(box, SF.el("span", { class: "muted", text: t("Lab: no card") }));
  const pct = Math.round(100 * (lab.progress || 0));
  const note = lab.message ? SF.el("p", { class: "muted lab-message", text: lab.message }) : null;
  switch (lab.status) {
    case "queued":
      return SF.fill(box, SF.el("span", { class: "lab-state", text: lab.position_in_queue != null ? t("Lab: queued, position {n} in the queue", { n: lab.position_in_queue }) : t("Lab: queued") }), note);
    case "running":
      return SF.fill(box, SF.el("span", { class: "lab-state", text: t("Lab: running, {pct}%", { pct }) }),
        SF.el("progress", { max: "100", value: String(pct), "aria-label": t("lab progress") }), note);
    case "done": {
      const figures = (lab.metrics || []).slice(0, keyFigures == null ? 2 : keyFigures).map((m) =>
        SF.el("li", { text: `${m.label}: ${SF.labNumber(m.rulebook, m.kind)} → ${SF.labNumber(m.house, m.kind)} (${SF.labNumber(m.diff, m.kind, true)})` }));
      return SF.fill(box, lab.headline ? SF.el("p", { class: "headline" }, SF.el("b", { text: lab.headline })) : null,
        SF.el("span", { class: "lab-state", text: t("Lab:") + " " }), SF.el(lab.headline ? "span" : "b", { class: "verdict", text: lab.verdict || t("done") }),
        lab.games ? SF.el("span", { class: "muted", text: " " + t("({n} games a side)", { n: lab.games }) }) : null,
        lab.players ? SF.el("span", { class: "muted lab-counts", text: " " + t("Played at {counts} players.", { counts: new Intl.ListFormat(SF.lang, { type: "conjunction" }).format(lab.players.map(String)) }) }) : null,
        figures.length ? SF.el("ul", { class: "key-figures" }, figures) : null,
        note);
    }
    default: // failed, refused
      return SF.fill(box, SF.el("span", { class: "lab-state", text: lab.status === "failed" ? t("Lab: failed") : lab.status === "refused" ? t("Lab: refused") : `${t("Lab:")} ${lab.status}` }), lab.message ? SF.el("span", { class: "lab-message", text: ` — ${lab.message}` }) : null);
  }
};
