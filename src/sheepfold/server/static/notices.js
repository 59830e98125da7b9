/* sheepfold — the profile page's "Play over days" section (server/api_notices.py): e-mail
   notices (an address, confirmed by a link mailed to it; "your turn", "game over") and
   vacation (the turn clocks wait, no e-mail comes). Only on one's own profile page. */
"use strict";
(function () {
  const t = SF.t;
  const $ = (id) => document.getElementById(id);
  if (location.pathname !== "/profile" || !SF.profileSecret() || !$("me")) return;

  const check = (id, words) => SF.el("label", {}, SF.el("input", { type: "checkbox", id }), " " + words);
  const box = SF.el("section", { class: "panel", id: "notices", hidden: true, "aria-labelledby": "notices-title" },
    SF.el("h2", { id: "notices-title", text: t("Play over days") }),
    SF.el("p", { class: "muted", text: t("Get an e-mail when it is your turn at a table you are not looking at, or when a game you play ends. The e-mails never tell your cards or hidden points, and each one has a link to stop them.") }),
    SF.el("div", { class: "row" },
      SF.el("label", { class: "wide" }, t("E-mail address") + " ", SF.el("input", { type: "email", id: "notice-email", maxlength: "254", autocomplete: "email", placeholder: "name@example.org" })),
      SF.el("span", { class: "muted", id: "notice-confirmed" })),
    SF.el("div", { class: "row" },
      check("notice-turn", t("e-mail me when it is my turn")),
      check("notice-over", t("e-mail me when a game ends"))),
    SF.el("div", { class: "row" },
      check("notice-vacation", t("on vacation: my turn clocks wait, and no e-mail comes"))),
    SF.el("div", { class: "row" },
      SF.el("button", { type: "button", id: "notice-save", text: t("Save") }),
      SF.el("span", { class: "muted", id: "notice-said", role: "status" })));
  $("me").after(box);

  function show(s) {
    $("notice-email").value = s.email || "";
    $("notice-turn").checked = s.your_turn;
    $("notice-over").checked = s.game_over;
    $("notice-vacation").checked = s.vacation;
    $("notice-confirmed").textContent = !s.email ? "" : s.confirmed ? t("confirmed") : t("not confirmed yet: open the link we sent to it");
    box.hidden = false;
  }
  async function load() {
    try { show(await SF.api("/api/profiles/me/notices", { headers: SF.profileHeaders() })); } catch (e) { /* no profile here: nothing to show */ }
  }
  $("notice-save").onclick = async () => {
    const body = {
      email: $("notice-email").value.trim() || null,
      your_turn: $("notice-turn").checked,
      game_over: $("notice-over").checked,
      vacation: $("notice-vacation").checked,
    };
    try {
      const s = await SF.api("/api/profiles/me/notices", { method: "PUT", headers: SF.profileHeaders(), body });
      show(s);
      $("notice-said").textContent = !s.can_send && s.email ? t("Saved, but this server sends no e-mail.") : s.confirm_sent ? t("Saved: open the link we sent to {email} to confirm it.", { email: s.email }) : t("Saved.");
    } catch (e) {
      $("notice-said").textContent = e.message;
    }
  };
  load();
})();
