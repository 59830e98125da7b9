/* sheepfold — one published rule set (/gallery/GAME/SLUG, ?v=N for an older version): what it
   changes, its lab card (followed while the lab works on it), its versions, a table to try it,
   and its rule file. Everything a stranger typed is shown as text. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();
  const [game, slug] = location.pathname.split("/").slice(2, 4).map(decodeURIComponent);
  const asked = new URLSearchParams(location.search).get("v");
  let games = null;
  let entry = null; // GET /api/gallery/GAME/SLUG/VERSION: the version shown, with its rules
  let poll = null;
  const POLL_MS = 2000; // the lab card, while the lab works on it
  const picker = SF.seatPicker(
    { seats: $("seats"), first: $("first"), add: $("add-seat"), remove: $("remove-seat") },
    { games: () => games, game: () => game, dogCards: (breed) => SF.dogCardsOf(entry && entry.rules, breed), onRender: checkPerfect },
  );
  // the perfect bot: offered only where it can play these rules, its wait said before the click
  let perfectKey = null;
  let perfectNow = null;
  const tryBody = () => Object.assign({ game, gallery: { slug, version: entry.version } }, picker.body());
  async function checkPerfect() {
    if (!entry || !games || !games[game] || !(games[game].levels || []).some((l) => l.name === SF.PERFECT)) return;
    const body = tryBody();
    const key = JSON.stringify([entry.version, body.seats.length]);
    if (key !== perfectKey) {
      perfectKey = key;
      perfectNow = await SF.perfectProbe(body);
      if (key !== perfectKey) return;
      picker.setUnavailable(SF.PERFECT, perfectNow && !perfectNow.ready && perfectNow.wait == null ? perfectNow.message : null);
    }
    const shown = perfectNow && SF.usesPerfect(tryBody()) && !perfectNow.ready;
    $("perfect-note").textContent = shown ? perfectNow.message : "";
    $("perfect-note").className = shown ? "warning" : "";
  }
  function fail(where, text) { SF.fill($(where), SF.el("div", { class: "error", text })); }

  // -- what it is ---------------------------------------------------------------------------
  function renderAbout(e) {
    document.title = t("{name} — sheepfold house rules", { name: e.name });
    $("title").textContent = e.name;
    $("back").href = "/gallery?game=" + encodeURIComponent(game);
    SF.fill($("about"),
      SF.el("h2", {}, SF.el("span", { class: "entry-name", text: e.name }), SF.el("span", { class: "muted", text: ` ${t("version {v} · by", { v: e.version })} ` }), SF.el("span", { class: "author", text: e.author })),
      SF.el("p", { class: "muted", text: t("{game} · published {date}", { game: (games && games[game] && games[game].title) || game, date: SF.day(e.created) }) }),
      e.description ? SF.el("p", { class: "description", text: e.description }) : null,
      SF.el("h3", { text: t("What it changes") }),
      SF.el("p", { class: "base muted", text: t("Made from {base}: the changes and the lab card are against it.", { base: e.base || t("the rulebook") }) }),
      SF.differencesList(e.differences),
      SF.el("p", { class: "counts" },
        SF.el("span", { class: "played", text: t("played {played}, finished {finished}", { played: e.played, finished: e.finished }) }), " · ",
        SF.el("span", { class: "votes", text: SF.votesText(e.votes_yes, e.votes_total) })));
  }
  function renderVersions(list, shown) {
    SF.fill($("versions"), list.slice().sort((a, b) => b.version - a.version).map((v) => SF.el("li", { value: String(v.version), class: v.version === shown ? "current" : "" },
      v.version === shown ? SF.el("b", { text: t("version {version} (shown)", { version: v.version }) }) : SF.el("a", { href: `?v=${v.version}`, text: t("version {version}", { version: v.version }) }),
      SF.el("span", { class: "muted", text: ` · ${SF.day(v.created)}` }),
      v.description ? SF.el("span", { text: ` — ${v.description}` }) : null)));
  }

  // -- the lab card -------------------------------------------------------------------------
  const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  function metricsTable(metrics, against) {
    const heads = [t("What"), capital(against), t("These rules"), t("Difference"), t("95% interval"), "p"];
    const head = SF.el("tr", {}, heads.map((h) => SF.el("th", { scope: "col", text: h })));
    // each figure carries its column's head: a phone shows a metric's figures one under another
    const cell = (n, text) => SF.el("td", { dataset: { head: heads[n] }, text });
    const rows = metrics.map((m) => SF.el("tr", { dataset: { metric: m.key } },
      SF.el("th", { scope: "row", text: m.label }),
      cell(1, SF.labNumber(m.rulebook, m.kind)),
      cell(2, SF.labNumber(m.house, m.kind)),
      cell(3, SF.labNumber(m.diff, m.kind, true)),
      cell(4, SF.labInterval(m.lo, m.hi, m.kind, true)),
      cell(5, m.p == null ? "-" : m.p < 0.001 ? "< " + SF.number(0.001, 3) : SF.number(m.p, 3))));
    return SF.el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("the lab's figures") }, SF.el("table", { class: "metrics" }, SF.el("thead", {}, head), SF.el("tbody", {}, rows)));
  }
  const EXACT = { first_player_advantage: t("the first player's edge under perfect play"), perfect_edge_over_greedy: t("perfect play's edge over the greedy bot") };
  function renderLab(lab) {
    const box = $("lab");
    const parts = [SF.labSummary(lab, 0)];
    const against = (lab && lab.base) || entry.base || t("the rulebook"); // the base, in words
    if (lab && lab.status === "done") {
      // each player count the card played (a card of before: one, its figures at the top)
      const counts = lab.by_players && lab.by_players.length ? lab.by_players : [lab];
      for (const part of counts) {
        if (counts.length > 1) {
          parts.push(SF.el("h3", { class: "lab-players", dataset: { players: String(part.players) }, text: t("{n} players", { n: part.players }) }),
            SF.el("p", { class: "verdict", text: part.verdict || "" }),
            SF.el("p", { class: "muted", text: t("({n} games a side)", { n: part.games }) }));
        }
        if (part.metrics && part.metrics.length) parts.push(metricsTable(part.metrics, against));
        if (part.exact) {
          parts.push(SF.el("h4", { text: t("Exact figures (solved)") }), SF.el("ul", { class: "exact" }, Object.keys(part.exact).filter((k) => part.exact[k] != null).map((k) =>
            SF.el("li", { text: `${EXACT[k] || k}: ${typeof part.exact[k] === "number" ? SF.labNumber(part.exact[k], "pp") : part.exact[k]}` }))));
        }
      }
      if (lab.metrics && lab.metrics.length) {
        parts.push(SF.el("p", { class: "muted", text: t("Both rule sets are played by the same bots on the same dice and deals (common random numbers); the interval holds the true difference 95 times out of 100.") }));
      }
      if (lab.plot) parts.push(SF.el("img", { class: "lab-plot", src: `${lab.plot}?lang=${encodeURIComponent(SF.lang)}`, alt: t("the lab's plot: these rules against {base}", { base: against }) }));
    }
    SF.fill(box, parts);
  }
  async function follow() { // the card again until the lab is done with it
    clearTimeout(poll);
    try {
      const e = await SF.api(SF.galleryApi(game, slug, entry.version));
      entry = Object.assign(entry, e);
      renderLab(entry.lab);
      renderAbout(entry);
    } catch (err) { fail("page-error", err.message); }
    watch();
  }
  function watch() {
    const s = entry.lab && entry.lab.status;
    if (s === "queued" || s === "running") poll = setTimeout(follow, POLL_MS);
  }

  // -- try it, download it ------------------------------------------------------------------
  $("try-btn").onclick = async () => {
    SF.fill($("try-error"));
    $("try-btn").disabled = true;
    try {
      const opened = await SF.openTable(tryBody(), (text) => { $("try-btn").textContent = text; });
      location.href = opened.invite;
    } catch (e) {
      fail("try-error", e.message);
      $("try-btn").textContent = t("Try it: open a table");
      $("try-btn").disabled = false;
    }
  };
  $("download").onclick = () => {
    SF.download(`${slug}-v${entry.version}.json`, JSON.stringify(entry.rules, null, 2) + "\n", "application/json");
  };

  (async () => {
    $("try-btn").disabled = $("download").disabled = true;
    try { games = await SF.api("/api/games"); } catch (e) { games = null; }
    let latest;
    try {
      latest = await SF.api(SF.galleryApi(game, slug));
      const v = asked && /^\d+$/.test(asked) ? +asked : latest.version;
      entry = await SF.api(SF.galleryApi(game, slug, v));
    } catch (e) {
      SF.fill($("about"), SF.el("div", { class: "error", text: e.message }), SF.el("a", { href: "/gallery", text: t("Back to the gallery") }));
      return;
    }
    renderAbout(entry);
    renderVersions(latest.versions || [], entry.version);
    renderLab(entry.lab);
    picker.fit();
    $("try-btn").disabled = $("download").disabled = false;
    watch();
  })();
})();
