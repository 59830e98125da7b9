/* sheepfold — "Your tables": this device's profile's unfinished tables, where it is its turn
   marked (and counted in the tab's title); asked again every 20 s. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();

  async function load() {
    if (!SF.profileSecret()) {
      SF.fill($("yours"), SF.el("li", {}, t("You have no profile on this device yet:") + " ",
        SF.el("a", { href: "/profile", text: t("make one, or open your transfer link") }), "."));
      return;
    }
    try {
      const ts = await SF.api("/api/profiles/me/tables", { headers: SF.profileHeaders() });
      SF.fill($("yours-error"));
      const turns = ts.filter((x) => x.your_turn).length;
      document.title = (turns ? `(${turns}) ` : "") + t("Your tables — sheepfold");
      $("turns").textContent = turns === 1 ? t("It is your turn at 1 table.") : turns ? t("It is your turn at {n} tables.", { n: turns }) : ts.length ? t("Nobody waits for you right now.") : "";
      if (!ts.length) {
        SF.fill($("yours"), SF.el("li", { class: "muted" }, t("No open table.") + " ", SF.el("a", { href: "/", text: t("Start one in the lobby") }), "."));
        return;
      }
      SF.fill($("yours"), ts.map((x) => {
        const who = x.seats.map((s, i) => (i === x.seat ? t("you") : s.held_for ? t("a seat saved for {name}", { name: s.held_for }) : s.free ? t("a free seat") : s.person ? s.name : t("{name} (bot: {level})", { name: s.name, level: SF.levelTitle(s.bot) }))).join(", ");
        return SF.el("li", { class: x.your_turn ? "your-turn" : "" },
          SF.el("span", { class: "name" }, x.title, x.own_pace ? " · " + t("at your own pace") : null),
          x.your_turn ? SF.el("strong", { class: "turn-badge" }, SF.el("span", { "aria-hidden": "true", text: "● " }), t("Your turn")) : SF.el("span", { class: "muted", text: t("waiting for the others") }),
          SF.el("span", { class: "muted", text: `${who} — ${x.rules}` }),
          x.clock && x.clock.seat !== undefined ? SF.el("span", { class: "clock-line", text: SF.clockLeft(x.clock, x.clock.seat === x.seat ? null : x.seats[x.clock.seat].name) }) : null,
          SF.el("a", { class: "btn" + (x.your_turn ? "" : " secondary"), href: x.link, text: x.your_turn ? t("Play") : t("Open") }));
      }));
    } catch (e) {
      SF.fill($("yours-error"), SF.el("div", { class: "error", text: e.message }));
    }
  }
  load();
  setInterval(load, 20000);
})();
