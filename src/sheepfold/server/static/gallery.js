/* sheepfold — the gallery of published house rules: one game at a time, searched, filtered by
   what a rule set changes, sorted; each entry with its differences from the rulebook, how often
   it was played and liked, and its lab card. Everything a stranger typed is shown as text. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();
  const params = new URLSearchParams(location.search);
  let games = {};
  let game = params.get("game") || "";
  const changes = new Set((params.get("changes") || "").split(",").filter(Boolean));
  let categories = [];
  let timer = null;
  let asked = 0; // the number of the latest list asked for: older answers are dropped
  $("q").value = params.get("q") || "";
  if (params.get("sort")) $("sort").value = params.get("sort");

  function remember() { // the address says what is shown: a link shares it
    const p = new URLSearchParams({ game });
    if ($("q").value.trim()) p.set("q", $("q").value.trim());
    if (changes.size) p.set("changes", [...changes].join(","));
    if ($("sort").value !== "newest") p.set("sort", $("sort").value);
    history.replaceState(null, "", "/gallery?" + p.toString());
  }

  function renderTabs() {
    SF.fill($("game-tabs"), Object.keys(games).map((g) => SF.el("button", {
      type: "button", "aria-pressed": String(g === game), dataset: { game: g }, text: games[g].title || g,
      onclick: () => { game = g; changes.clear(); renderTabs(); load(); },
    })));
  }
  /* the categories of the games' options (the gallery's filters), in words; another one by
     its name */
  const CATEGORY_WORDS = {
    area: t("the playing area"), lines: t("lines"), deck: t("the deck"), scoring: t("scoring"), dogs: t("dogs"),
    end: t("the end"), die: t("the die"), shearing: t("shearing"), variants: t("variants"), wolf: t("the wolf"),
    wool: t("wool"), other: t("other"),
  };
  function renderChips() {
    SF.fill($("chips"), categories.map((c) => SF.el("button", {
      type: "button", class: "chip", "aria-pressed": String(changes.has(c)), dataset: { category: c }, text: CATEGORY_WORDS[c] || SF.words(c),
      onclick: () => { if (changes.has(c)) changes.delete(c); else changes.add(c); renderChips(); load(); },
    })));
  }

  function entryItem(e) {
    const url = SF.galleryUrl(e.game, e.slug);
    return SF.el("li", { class: "entry panel", dataset: { slug: e.slug } },
      SF.el("h2", {}, SF.el("a", { class: "entry-name", href: url, text: e.name }),
        SF.el("span", { class: "muted entry-meta", text: ` ${t("v{version} · by", { version: e.version })} ` }), SF.el("span", { class: "author", text: e.author })),
      e.description ? SF.el("p", { class: "description", text: e.description }) : null,
      SF.differencesList(e.differences),
      SF.el("p", { class: "counts" },
        SF.el("span", { class: "played", text: t("played {played}, finished {finished}", { played: e.played, finished: e.finished }) }), " · ",
        SF.el("span", { class: "votes", text: SF.votesText(e.votes_yes, e.votes_total) })),
      SF.labSummary(e.lab),
      SF.el("a", { class: "btn secondary", href: url, text: t("Open: lab card, versions, try it") }));
  }

  async function load() {
    clearTimeout(timer);
    remember();
    if (!game) return;
    const mine = ++asked;
    const p = new URLSearchParams({ sort: $("sort").value, limit: "50" });
    if ($("q").value.trim()) p.set("q", $("q").value.trim());
    if (changes.size) p.set("changes", [...changes].join(","));
    let r;
    try {
      r = await SF.api(`/api/gallery/${encodeURIComponent(game)}?${p}`);
    } catch (e) {
      if (mine !== asked) return;
      SF.fill($("gallery-error"), SF.el("div", { class: "error", text: e.message }));
      return;
    }
    if (mine !== asked) return;
    SF.fill($("gallery-error"));
    categories = r.categories || [];
    renderChips();
    const n = r.entries.length;
    $("count").textContent = !n ? "" : n === 1 ? t("1 rule set") : t("{n} rule sets", { n });
    SF.fill($("entries"), r.entries.length ? r.entries.map(entryItem)
      : [SF.el("li", { class: "muted", text: t("No rule set matches yet. Make one in the lobby's rule editor and publish it!") })]);
    // lab cards on their way: look again in a while
    if (r.entries.some((e) => e.lab && (e.lab.status === "queued" || e.lab.status === "running"))) timer = setTimeout(load, 3000);
  }

  let typing = null;
  $("q").oninput = () => { clearTimeout(typing); typing = setTimeout(load, 250); };
  $("sort").onchange = load;

  (async () => {
    try { games = await SF.api("/api/games"); } catch (e) { games = {}; }
    if (!games[game]) game = Object.keys(games)[0] || "";
    renderTabs();
    load();
  })();
})();
