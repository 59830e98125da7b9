/* sheepfold — a table's start and end, told: who starts (the table's info "first": drawn at
   random, or chosen by whoever opened it, or the rules' own first seat) and, when the game is over,
   the results (GET /api/tables/{id}/results: place, name, points, what each seat gathered, the
   rating before and after for rated people) and the moments that decided it. Used by table.js. */
"use strict";
(function () {
  const t = SF.t;
  let asked = null; // the finished table whose results were asked for (once)

  /* "Ben starts (drawn at random)": the seat that starts, by its player's name */
  SF.whoStarts = function (table) {
    const first = table.first;
    if (!first || !table.seats[first.seat]) return "";
    const s = table.seats[first.seat];
    const name = s.name || t("Seat {n}", { n: first.seat + 1 });
    return first.how === "random" ? t("{name} starts (drawn at random)", { name }) : t("{name} starts", { name });
  };

  /* The seat that ``seat`` of a finished table holds at its "Play again" table ``next`` (its
     public info): the same, unless the next table drew who starts and turned its seats */
  SF.seatAtNext = function (seat, next) {
    const turned = (next.first && next.first.turned) || 0;
    return (seat - turned + next.players) % next.players;
  };

  function resultsTable(rows, you) {
    const rated = rows.some((r) => r.rating);
    const head = SF.el("tr", {},
      SF.el("th", { scope: "col", text: t("Place") }),
      SF.el("th", { scope: "col", text: t("Player") }),
      SF.el("th", { scope: "col", class: "num", text: t("Points") }),
      rated ? SF.el("th", { scope: "col", text: t("Rating") }) : null);
    const body = rows.map((r) => SF.el("tr", { class: r.seat === you ? "me" : "" },
      SF.el("td", { text: r.place_words }),
      SF.el("th", { scope: "row", text: r.seat === you ? t("{name} (you)", { name: r.name }) : r.name }),
      SF.el("td", { class: "num", text: String(r.points) }),
      rated ? SF.el("td", { text: r.rating ? `${r.rating.before} → ${r.rating.after}` : "" }) : null));
    return SF.el("table", { class: "results-table" },
      SF.el("caption", { text: t("Results") }),
      SF.el("thead", {}, head),
      SF.el("tbody", {}, ...body));
  }
  /* what each seat took (cards, wool), folded: a long list never pushes the rest away */
  function took(rows) {
    if (!rows.some((r) => r.gathered)) return null;
    return SF.el("details", { class: "took" },
      SF.el("summary", { text: t("What each player took") }),
      SF.el("ul", {}, ...rows.map((r) => SF.el("li", {}, SF.el("b", { text: r.name + ": " }), r.gathered || ""))));
  }

  SF.results = {
    /* the results box (#results): filled once the table's end is committed, hidden before */
    async render(table, you) {
      const box = document.getElementById("results");
      box.hidden = !table.finished;
      if (!table.finished || asked === table.id) return;
      asked = table.id;
      let got;
      try {
        got = await SF.api(`/api/tables/${encodeURIComponent(table.id)}/results`);
      } catch (e) {
        asked = null; // asked again at the next state
        return;
      }
      const moments = got.moments.length
        ? [SF.el("h3", { text: t("The moments that decided it") }),
          SF.el("ul", { class: "moments" }, ...got.moments.map((m) => SF.el("li", { text: m })))]
        : [];
      SF.fill(box, resultsTable(got.rows, you), took(got.rows), ...moments);
    },
  };
})();
