/* sheepfold — a table's turn clock in words (server/clock.py): "Ann: 2 days 3 hours left to
   move", "away since <time>", on a table's page and in "Your tables". */
"use strict";
(function () {
  const t = SF.t;
  /* seconds as a person says them: the two largest units ("2 days 3 hours", "5 minutes") */
  SF.duration = function (seconds) {
    const s = Math.max(0, Math.round(seconds));
    if (s < 60) return t("less than a minute");
    const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600), minutes = Math.floor((s % 3600) / 60);
    const parts = [];
    if (days) parts.push(days === 1 ? t("1 day") : t("{n} days", { n: days }));
    if (hours) parts.push(hours === 1 ? t("1 hour") : t("{n} hours", { n: hours }));
    if (minutes && !days) parts.push(minutes === 1 ? t("1 minute") : t("{n} minutes", { n: minutes }));
    return parts.join(" ");
  };
  /* the clock of the turn (the table's info "clock"), read at ``at`` (performance.now() ms; it
     runs on since, at the server's speed): "{name}: ... left to move" (name null: yours), or "" */
  SF.clockLeft = function (clock, name, at) {
    if (!clock || clock.left === undefined || clock.left === null) return "";
    const gone = at === undefined ? 0 : ((performance.now() - at) / 1000) * (clock.scale || 1);
    const time = SF.duration(clock.left - gone);
    return name === null ? t("{time} left for your move", { time }) : t("{name}: {time} left to move", { name, time });
  };
  /* when an away seat went away (epoch seconds), in the page's language: its weekday and
     time within the last six days, else its date */
  SF.awaySince = function (when) {
    const lately = Date.now() - when * 1000 < 6 * 86400 * 1000;
    const how = lately ? { weekday: "long", hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" };
    return new Date(when * 1000).toLocaleString(SF.lang, how);
  };
})();
