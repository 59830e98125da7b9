/* sheepfold — a game's leaderboard (/leaderboard/GAME): its rated people, best first. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();
  const path = location.pathname.split("/");
  let game = path.length > 2 ? decodeURIComponent(path[2]) : null; // /leaderboard: the first game

  async function load() {
    try {
      const games = await SF.api("/api/games");
      if (game === null) game = Object.keys(games)[0];
      SF.fill($("game-tabs"), Object.keys(games).map((g) => SF.el("a", {
        class: "btn" + (g === game ? "" : " secondary"), href: `/leaderboard/${encodeURIComponent(g)}`,
        "aria-current": g === game ? "page" : null, text: games[g].title || g,
      })));
    } catch (e) { if (game === null) game = "dolly-crush"; /* the tabs are a convenience */ }
    try {
      const b = await SF.api(`/api/leaderboard/${encodeURIComponent(game)}`);
      const heading = t("{game} leaderboard", { game: b.title });
      document.title = `${heading} — sheepfold`;
      $("title").textContent = heading;
      $("board-caption").textContent = heading;
      $("empty").hidden = b.rows.length > 0;
      $("board").hidden = !b.rows.length;
      SF.fill($("rows"), b.rows.map((r) => SF.el("tr", {},
        SF.el("td", { text: String(r.place) }),
        SF.el("td", {}, SF.el("a", { href: `/players/${encodeURIComponent(r.id)}`, text: r.name }),
          SF.el("div", { class: "muted level", text: r.level })), // its level in words (the server's)
        SF.el("td", { text: String(r.rating) }),
        SF.el("td", { text: String(r.games) }))));
    } catch (e) {
      $("board").hidden = true;
      SF.fill($("board-error"), SF.el("div", { class: "error", text: e.message }));
    }
  }
  load();
})();
