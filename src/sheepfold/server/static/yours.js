/* sheepfold — "Your tables": this device's profile's unfinished tables, where it is its turn
   marked (and counted in the tab's title); asked again every 20 s. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();

  async function load() {
    if (!SF.profileSecret()) {
      SF.fill($("yours"), SF.el("li", {}, "You have no profile on this device yet: ",
        SF.el("a", { href: "/profile", text: "make one, or open your transfer link" }), "."));
      return;
    }
    try {
      const ts = await SF.api("/api/profiles/me/tables", { headers: SF.profileHeaders() });
      SF.fill($("yours-error"));
      const turns = ts.filter((t) => t.your_turn).length;
      document.title = (turns ? `(${turns}) ` : "") + "Your tables — sheepfold";
      $("turns").textContent = turns ? `It is your turn at ${turns} table${turns > 1 ? "s" : ""}.` : ts.length ? "Nobody waits for you right now." : "";
      if (!ts.length) {
        SF.fill($("yours"), SF.el("li", { class: "muted" }, "No open table. ", SF.el("a", { href: "/", text: "Start one in the lobby" }), "."));
        return;
      }
      SF.fill($("yours"), ts.map((t) => {
        const who = t.seats.map((s, i) => (i === t.seat ? "you" : s.free ? "a free seat" : s.name + (s.person ? "" : " (bot)"))).join(", ");
        return SF.el("li", { class: t.your_turn ? "your-turn" : "" },
          SF.el("span", { class: "name" }, t.title, t.own_pace ? " · at your own pace" : null),
          t.your_turn ? SF.el("strong", { class: "turn-badge", text: "● Your turn" }) : SF.el("span", { class: "muted", text: "waiting for the others" }),
          SF.el("span", { class: "muted", text: `${who} — ${t.rules}` }),
          SF.el("a", { class: "btn" + (t.your_turn ? "" : " secondary"), href: t.link, text: t.your_turn ? "Play" : "Open" }));
      }));
    } catch (e) {
      SF.fill($("yours-error"), SF.el("div", { class: "error", text: e.message }));
    }
  }
  load();
  setInterval(load, 20000);
})();
