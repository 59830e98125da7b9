/* sheepfold — this device's player profile: its secret (kept in localStorage, sent only in the
   X-Sheepfold-Profile header or a table's hello) and its name; the transfer link. */
"use strict";
SF.PROFILE_KEY = "sheepfold:profile";
SF.PROFILE_NAME_KEY = "sheepfold:profile-name";
SF.profileSecret = () => localStorage.getItem(SF.PROFILE_KEY);
/* The headers of an API request made as this device's profile (none: the plain ones). */
SF.profileHeaders = function () {
  const h = { "Content-Type": "application/json" };
  const secret = SF.profileSecret();
  if (secret) h["X-Sheepfold-Profile"] = secret;
  return h;
};
SF.keepProfile = function (secret, name) {
  localStorage.setItem(SF.PROFILE_KEY, secret);
  if (name) localStorage.setItem(SF.PROFILE_NAME_KEY, name);
};
SF.forgetProfile = function () {
  localStorage.removeItem(SF.PROFILE_KEY);
  localStorage.removeItem(SF.PROFILE_NAME_KEY);
};
/* The link that moves the profile to another device: the secret in the fragment (never sent
   to a server by a browser). */
SF.transferLink = (secret) => `${location.origin}/profile#secret=${encodeURIComponent(secret)}`;
SF.when = (seconds) => new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
/* One finished game of a profile's history, as a list item. */
SF.historyItem = function (e) {
  const place = (n) => ({ 1: "1st", 2: "2nd", 3: "3rd" }[n] || n + "th");
  const seats = e.seats.flatMap((s, i) => [
    i ? ", " : "",
    s.profile ? SF.el("a", { href: `/players/${encodeURIComponent(s.profile)}`, text: s.name }) : s.name,
    ` (${s.person ? "" : "bot, "}${place(s.place)}, ${s.score} points)`,
  ]);
  const rating = e.rated
    ? `rating ${e.rating_before} → ${e.rating_after}`
    : "not rated (a game is rated when two people or more with a profile play it)";
  return SF.el("li", { class: "game" },
    SF.el("span", { class: "name" }, `${e.title}: ${e.result}`),
    SF.el("span", { class: "muted", text: SF.when(e.finished) }),
    SF.el("span", { class: "rules", text: e.rules }),
    SF.el("span", { class: "seats" }, seats),
    SF.el("span", { class: "muted", text: rating }),
    SF.el("span", {},
      SF.el("a", { class: "btn secondary", href: e.replay, text: "Replay" }), " ",
      SF.el("a", { class: "btn secondary", href: e.record, download: `${e.table}.json`, text: "Record file" })));
};
SF.ratingRows = (ratings) => ratings.map((r) => SF.el("li", {},
  SF.el("span", { class: "name" }, SF.el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}`, text: r.title })),
  SF.el("span", { text: `rating ${r.rating}` }),
  SF.el("span", { class: "muted", text: `${r.games} rated game${r.games === 1 ? "" : "s"}` })));
