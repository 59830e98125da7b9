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
/* One finished game of a profile's history, as a list item. */
/* a place in words: "1st", "2nd", "3rd", "4th" */
SF.place = (n) => (n === 1 ? t("1st") : n === 2 ? t("2nd") : n === 3 ? t("3rd") : t("{n}th", { n }));
/* a seat's result among the places of its table: won, tied for first, 2nd of 3, tied for 2nd of 3 */
SF.resultWords = function (place, places) {
  const shared = places.filter((p) => p === place).length > 1;
  if (place === 1) return shared ? t("tied for first") : t("won");
  const of = { place: SF.place(place), n: places.length };
  return shared ? t("tied for {place} of {n}", of) : t("{place} of {n}", of);
};
SF.historyItem = function (e) {
  const places = e.seats.map((s) => s.place);
  const seats = e.seats.flatMap((s, i) => {
    const how = { place: SF.place(s.place), score: s.score };
    const said = s.person
      ? (s.score === 1 ? t("({place}, 1 point)", how) : t("({place}, {score} points)", how))
      : (s.score === 1 ? t("(bot, {place}, 1 point)", how) : t("(bot, {place}, {score} points)", how));
    return [
      i ? ", " : "",
      s.profile ? SF.el("a", { href: `/players/${encodeURIComponent(s.profile)}`, text: s.name }) : s.name,
      " " + said,
    ];
  });
  // the server's words on the rating (why it is not rated, or how), in the page's language
  const rating = e.rated
    ? t("rating {before} → {after}", { before: e.rating_before, after: e.rating_after }) +
      (e.rating_note ? ` (${e.rating_note})` : "")
    : e.rating_note || t("not rated (a game is rated when two people or more with a profile play it)");
  const result = e.place != null && places.every((p) => p != null) ? SF.resultWords(e.place, places) : e.result;
  return SF.el("li", { class: "game" },
    SF.el("span", { class: "name" }, `${e.title}: ${result}`),
    SF.el("span", { class: "muted", text: SF.when(e.finished) }),
    SF.el("span", { class: "rules", text: e.rules }),
    SF.el("span", { class: "seats" }, seats),
    SF.el("span", { class: "muted", text: rating }),
    SF.el("span", {},
      SF.el("a", { class: "btn secondary", href: e.replay, text: t("Replay") }), " ",
      SF.el("a", { class: "btn secondary", href: e.record, download: `${e.table}.json`, text: t("Record file") })));
};
/* a profile's rating in each game: the number (from 1000), its level in words (the server's) */
SF.ratingRows = (ratings) => ratings.map((r) => SF.el("li", {},
  SF.el("span", { class: "name" }, SF.el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}`, text: r.title })),
  SF.el("span", { text: t("rating {rating}", { rating: r.rating }) }),
  SF.el("span", { class: "level", text: r.level }),
  SF.el("span", { class: "muted", text: r.games === 1 ? t("1 rated game") : t("{n} rated games", { n: r.games }) })));
