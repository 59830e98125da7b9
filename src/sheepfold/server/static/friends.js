/* sheepfold — friends (server/friends.py), on the pages that include this script:
   /profile: your friends, requests, invitations and your friends' open tables;
   /players/ID: "Add as friend"; /your-tables: your invitations; / (the lobby): your friends'
   tables; /t/ID: save a free seat for a friend. Friends are two profiles that added each other. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const api = (path, method) => SF.api(path, { method: method || "GET", headers: SF.profileHeaders() });
  const path = location.pathname.split("/");
  const panel = (id, title) => SF.el("section", { class: "panel friends", id }, SF.el("h2", { text: title }));
  const button = (text, onclick, secondary) => SF.el("button", { type: "button", class: secondary ? "secondary" : "", text, onclick });
  const item = (...kids) => SF.el("li", {}, ...kids);
  const nameLink = (p) => SF.el("a", { class: "name", href: p.link, text: p.name });

  /* run(action, then): the action (a request), then `then()`; its error shown in `box` */
  function act(box, action, then) {
    return async () => {
      try { await action(); await then(); } catch (e) { SF.fill(box, SF.el("div", { class: "error", role: "alert", text: e.message })); }
    };
  }

  /* the invitations waiting for you, each with Accept and Decline */
  function invitationItems(list, box, again) {
    return list.map((i) => item(
      SF.el("span", { class: "name", text: t("{name} saved seat {n} for you at {title}", { name: i.from, n: i.seat + 1, title: i.title }) }),
      SF.el("span", { class: "muted", text: i.rules }),
      button(t("Accept"), act(box, async () => { const r = await api(`/api/invitations/${encodeURIComponent(i.id)}/accept`, "POST"); location.href = r.seat_link; }, async () => {})),
      button(t("Decline"), act(box, () => api(`/api/invitations/${encodeURIComponent(i.id)}`, "DELETE"), again), true)));
  }

  /* your friends' open tables: Join where a seat is free for you, else Watch (or Open: yours) */
  function tableItems(list) {
    return list.map((x) => item(
      SF.el("span", { class: "name" }, x.title, x.friends_only ? " · " + t("for friends") : null),
      SF.el("span", { class: "muted", text: t("with {names}", { names: x.friends.join(", ") }) + (x.free ? " — " + (x.free > 1 ? t("{n} free seats", { n: x.free }) : t("1 free seat")) : "") }),
      SF.el("a", { class: "btn" + (x.free ? "" : " secondary"), href: x.link, text: x.yours ? t("Open") : x.free ? t("Join") : t("Watch") })));
  }

  // -- your profile page: everything about your friends ----------------------------------------
  async function mine(box) {
    const err = SF.el("div", { "aria-live": "polite" });
    const again = () => mine(box);
    let f;
    try { f = await api("/api/friends"); } catch (e) { SF.fill(box, box.firstChild, SF.el("div", { class: "error", text: e.message })); return; }
    box.hidden = false;
    const share = `${location.origin}/players/${encodeURIComponent(f.me)}`;
    const remove = (p, label) => button(label, act(err, () => api(`/api/friends/${encodeURIComponent(p.id)}`, "DELETE"), again), true);
    const lists = [];
    const list = (title, items) => { if (items.length) lists.push(SF.el("h3", { text: title }), SF.el("ul", { class: "tables" }, items)); };
    list(t("Invitations to a seat"), invitationItems(f.invitations, err, again));
    list(t("Friend requests"), f.asked_you.map((p) => item(nameLink(p),
      SF.el("span", { class: "muted", text: t("added you as a friend") }),
      button(t("Add as friend"), act(err, () => api(`/api/friends/${encodeURIComponent(p.id)}`, "POST"), again)),
      remove(p, t("No thanks")))));
    list(t("Your friends"), f.friends.map((p) => item(nameLink(p), remove(p, t("Remove friend")))));
    list(t("Waiting for them to add you back"), f.you_asked.map((p) => item(nameLink(p), remove(p, t("Cancel")))));
    list(t("Your friends' tables"), tableItems(f.tables));
    SF.fill(box, box.firstChild, err,
      SF.el("p", { class: "muted", text: t("Send your public page to a friend: they add you there, you add them on theirs, and you are friends. Friends can save a seat for each other and play at tables for friends only.") }),
      SF.el("div", { class: "row" }, SF.el("label", { class: "wide" }, t("Your public page"), " ", SF.el("input", { readonly: true, value: share, id: "friends-share" }))),
      lists.length ? lists : SF.el("p", { class: "muted", text: t("No friends yet.") }));
  }

  // -- someone's public page: "Add as friend" --------------------------------------------------
  async function theirs(box, id) {
    let f;
    try { f = await api("/api/friends"); } catch (e) { return; }
    if (f.me === id) return;
    const err = SF.el("div", { "aria-live": "polite" });
    const again = () => theirs(box, id);
    const has = (l) => l.some((p) => p.id === id);
    const post = (method) => act(err, () => api(`/api/friends/${encodeURIComponent(id)}`, method), again);
    box.hidden = false;
    SF.fill(box, box.firstChild, err, SF.el("div", { class: "row" },
      has(f.friends) ? [SF.el("span", { text: t("You are friends.") }), button(t("Remove friend"), post("DELETE"), true)]
        : has(f.you_asked) ? [SF.el("span", { class: "muted", text: t("Waiting for them to add you back") }), button(t("Cancel"), post("DELETE"), true)]
          : [has(f.asked_you) ? SF.el("span", { text: t("They added you as a friend.") }) : null, button(t("Add as friend"), post("POST"))]));
  }

  // -- a table: save a free seat for a friend --------------------------------------------------
  async function atTable(box, tableId) {
    const err = SF.el("div", { "aria-live": "polite" });
    const again = () => atTable(box, tableId);
    let f, tb;
    try { [f, tb] = await Promise.all([api("/api/friends"), api(`/api/tables/${encodeURIComponent(tableId)}`)]); } catch (e) { SF.fill(box, SF.el("div", { class: "error", text: e.message })); return; }
    if (tb.finished) { SF.fill(box, SF.el("p", { class: "muted", text: t("The game is over.") })); return; }
    const seated = tb.seats.some((s) => s.profile === f.me);
    const free = tb.seats.filter((s) => s.free);
    const saved = f.invited.filter((i) => i.table === tableId).map((i) => item(
      SF.el("span", { class: "name", text: t("Seat {n} is saved for {name}", { n: i.seat + 1, name: i.to }) }),
      button(t("Withdraw"), act(err, () => api(`/api/invitations/${encodeURIComponent(i.id)}`, "DELETE"), again), true)));
    let form = null;
    if (!seated) form = SF.el("p", { class: "muted", text: t("Take a seat with your profile to save a seat for a friend.") });
    else if (!f.friends.length) form = SF.el("p", { class: "muted" }, t("No friends yet.") + " ", SF.el("a", { href: "/profile", text: t("how to add one") }));
    else if (free.length) {
      const seat = SF.el("select", { id: "save-seat-n" }, free.map((s) => SF.el("option", { value: String(s.seat), text: t("Seat {n}", { n: s.seat + 1 }) })));
      const friend = SF.el("select", { id: "save-seat-friend" }, f.friends.map((p) => SF.el("option", { value: p.id, text: p.name })));
      form = SF.el("div", { class: "row" },
        SF.el("label", {}, t("Seat"), " ", seat), SF.el("label", {}, t("Friend"), " ", friend),
        button(t("Save the seat"), act(err, () => SF.api(`/api/tables/${encodeURIComponent(tableId)}/invite`, { method: "POST", headers: SF.profileHeaders(), body: { seat: +seat.value, friend: friend.value } }), again)));
    }
    SF.fill(box, err, form, saved.length ? SF.el("ul", { class: "tables" }, saved) : null);
  }

  if (path[1] === "players" && path[2]) {
    const box = panel("friend-box", t("Friends"));
    document.querySelector("main").append(box);
    if (SF.profileSecret()) { box.hidden = true; theirs(box, decodeURIComponent(path[2])); return; }
    box.append(SF.el("p", { class: "muted", text: t("To add a friend, make your profile first.") }),
      SF.el("a", { class: "btn secondary", href: "/profile", text: t("Make your profile") }));
    return;
  }
  if (!SF.profileSecret()) return; // friends are profiles'
  if (path[1] === "profile") {
    const box = panel("friends-box", t("Friends"));
    box.hidden = true;
    $("me").after(box);
    mine(box);
  } else if (path[1] === "your-tables") {
    const box = panel("invitations-box", t("Invitations to a seat"));
    box.hidden = true;
    document.querySelector("main").append(box);
    api("/api/friends").then((f) => {
      if (!f.invitations.length) return;
      const err = SF.el("div", { "aria-live": "polite" });
      box.hidden = false;
      SF.fill(box, box.firstChild, err, SF.el("ul", { class: "tables" }, invitationItems(f.invitations, err, () => location.reload())));
    }).catch(() => {});
  } else if (path[1] === "t" && path[2]) {
    // asked when opened: who sits and who is free then
    const inner = SF.el("div", {});
    const open = SF.el("details", { id: "save-seat" }, SF.el("summary", { text: t("Save a seat for a friend") }), inner);
    open.ontoggle = () => { if (open.open) atTable(inner, decodeURIComponent(path[2])); };
    $("invite").closest("section").before(SF.el("section", { class: "panel friends" }, open));
  } else if ($("create")) {
    const box = panel("friends-tables", t("Your friends' tables"));
    box.hidden = true;
    $("tables").closest("section").before(box);
    api("/api/friends").then((f) => {
      if (!f.tables.length) return;
      box.hidden = false;
      SF.fill(box, box.firstChild, SF.el("ul", { class: "tables" }, tableItems(f.tables)));
    }).catch(() => {});
  }
})();
