/* sheepfold — learn to play: a first game against a gentle bot, with a coach.
   /learn/GAME: a name, then a lesson table (POST /api/learn/GAME) and its page.
   /learn/GAME/ID: the table page (table.js draws and plays it) with the coach beside it. The
   coach reads what the page was told (window.SF_LAST) and what it shows, asks the server what
   to play (POST /api/tables/ID/hint: a bot's choice on this seat's own view), frames the one
   thing to click (.coach-target) and says why; after each change it says what happened. It
   computes no rule itself: the server's hint and views say everything. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent); // learn, GAME, ID?
  const game = parts[1];
  const TITLES = { "dolly-crush": "Dolly Crush", "shave-a-sheep": "Shave a Sheep" };
  const ABOUT = {
    "dolly-crush": t("Swap two sheep side by side in the flock to line up three or more of one type, and take them home. The most points wins."),
    "shave-a-sheep": t("Roll the die, grow wool on your sheep and shear it into your safe pile before the wolf or a swap takes it. The biggest pile wins."),
  };
  $("logo").innerHTML = SF.logo();
  if ($("rules-link")) $("rules-link").href = "/rules/" + encodeURIComponent(game);
  if (parts.length < 3) startPage(); else coach(parts[2]);

  // -- the start: a name, then the lesson's table --------------------------------------------
  function startPage() {
    const title = TITLES[game] || game;
    document.title = `${t("Learn to play {game}", { game: title })} — sheepfold`;
    $("title").textContent = t("Learn to play {game}", { game: title });
    $("lesson-title").textContent = t("Your first game of {game}", { game: title });
    $("lesson-about").textContent = ABOUT[game] || "";
    document.querySelectorAll("#lesson-choice a").forEach((a) => {
      if (a.dataset.game === game) { a.setAttribute("aria-current", "page"); a.classList.remove("secondary"); }
    });
    $("lesson-name").value = localStorage.getItem("sheepfold:name") || "";
    const seed = new URLSearchParams(location.search).get("seed"); // a test server's (--dev-seeds) only
    $("lesson-start").onclick = async () => {
      const name = $("lesson-name").value.trim();
      if (!name) { SF.fill($("lesson-error"), SF.el("div", { class: "error", text: t("type your name first") })); $("lesson-name").focus(); return; }
      $("lesson-start").disabled = true;
      try {
        const body = { name };
        if (seed !== null) body.seed = +seed;
        const r = await SF.api(`/api/learn/${encodeURIComponent(game)}`, { method: "POST", body });
        localStorage.setItem("sheepfold:token:" + r.table, r.token);
        localStorage.setItem("sheepfold:name", name);
        location.href = r.url;
      } catch (e) {
        SF.fill($("lesson-error"), SF.el("div", { class: "error", text: e.message }));
        $("lesson-start").disabled = false;
      }
    };
  }

  // -- the lesson: the coach beside the table --------------------------------------------------
  function coach(tableId) {
    const token = localStorage.getItem("sheepfold:token:" + tableId);
    const hints = {}; // seq -> {actions, gain} | "asking" | "failed"
    let seen = null; // the last state described
    let happened = []; // what happened since the learner's last move, oldest first
    let target = null;
    let scheduled = false;

    const msg = () => window.SF_LAST;
    const who = (m, seat) => (seat === m.you ? t("You") : SF.playerName(m.table, seat));
    const mine = (m, seat) => seat === m.you; // a sentence of mine: "You took", else "Leo took"
    const count = (n, one, many) => (n === 1 ? one : many); // "1 swap", "3 swaps": both in words

    const tries = {}; // seq -> answers that came too early (the server was still at the position before)
    function ask(m) { // the coach's moves for this position (once per position)
      if (hints[m.seq] || !token) return;
      hints[m.seq] = "asking";
      SF.api(`/api/tables/${encodeURIComponent(tableId)}/hint`, { method: "POST", body: { token } }).then(
        (r) => { if (r.seq === m.seq && r.actions.length) hints[m.seq] = r; else again(m.seq); update(); },
        () => { again(m.seq); update(); }); // busy, or too many questions at once: in a moment
    }
    function again(seq) { // asked again in a moment, five times at most
      if ((tries[seq] = (tries[seq] || 0) + 1) > 5) { hints[seq] = "failed"; return; }
      delete hints[seq];
      setTimeout(later, 400 * tries[seq]);
    }
    const planOf = (m) => (hints[m.seq] && hints[m.seq].actions) || null;
    const LOST = { text: t("Your coach has no suggestion this time: play the move you like."), why: "", el: null };

    /* the step: {text, why, el} (el: the one thing to click, or null) */
    function step(m) {
      const v = m.view;
      if (m.you === null) return { text: t("This lesson's seat is on another device or was given up."), why: t("Start a new lesson from the lobby's “Learn to play” link."), el: null };
      if (v.finished) return endStep(m);
      return (game === "shave-a-sheep" ? shaveStep : dollyStep)(m);
    }

    function endStep(m) {
      const v = m.view;
      const scores = m.table.seats.map((s, i) => `${who(m, i)}: ${v.scores[i]}`).join(", ");
      const won = v.winners.indexOf(m.you) >= 0;
      const tie = v.winners.length > 1;
      const text = tie ? t("A tie! {scores}.", { scores }) : won ? t("You won your first game! {scores}.", { scores }) : t("{name} won this time. {scores}.", { name: who(m, v.winners[0]), scores });
      const why = game === "shave-a-sheep"
        ? t("The game ended when the last piece of wool left the middle; then everyone sheared their sheep one last time, and the biggest safe pile won.")
        : t("The game ended when every dog card was played (or the deck ran out): white sheep count 1 point, black sheep 2, and the most points won.");
      return { text, why, el: null, done: true };
    }

    // Dolly Crush: a dog card, its swaps, Done
    function dollyStep(m) {
      const v = m.view;
      if (v.to_move !== m.you) return { text: t("{name} is playing: watch the flock.", { name: who(m, v.to_move) }), why: t("Sheep in a line of three or more of one type go to the player who made the line; the gaps are filled from the deck."), el: null };
      ask(m);
      const plan = planOf(m);
      if (hints[m.seq] === "failed") return LOST;
      if (!plan) return { text: t("Your turn. Your coach is thinking…"), why: "", el: null };
      const dogs = plan.filter((a) => /^dog /.test(a)).map((a) => +a.split(" ")[1]);
      const swaps = plan.filter((a) => /^swap [a-z]\d+-[a-z]\d+$/.test(a)).map((a) => a.slice(5).split("-"));
      const gain = hints[m.seq].gain;
      const cards = document.querySelectorAll("#controls .dogcard");
      if (cards.length && dogs.length) {
        const d = dogs[0], n = v.dog_swaps[m.you][d], held = v.dogs_left[m.you].length;
        return {
          text: count(n, t("Your turn. Pick the dog card with 1 swap."), t("Your turn. Pick the dog card with {n} swaps.", { n })),
          why: t("A dog card says how many swaps you must make this turn, no more and no fewer.") + " " +
            count(held, t("Each card is played once: the 1 card you still hold is your last turn."), t("Each card is played once: the {n} cards you still hold are your {n} turns left.", { n: held })) + " " +
            (gain ? count(gain, t("With this one you can take sheep worth 1 point now."), t("With this one you can take sheep worth {n} points now.", { n: gain })) : t("No card can take sheep this turn: the smallest one wastes the least.")),
          el: $("dog-" + d),
        };
      }
      const left = $("swaps-left");
      const heading = left && left.parentElement ? left.parentElement.textContent : "";
      const need = /(\d+)\D*$/.exec(heading); // "Swaps left: 1 of 2": the card's swaps, last
      const live = v.phase === "swap"; // a turn started elsewhere: each swap is played at once
      if (!live && (!left || !need)) return { text: t("Your turn."), why: "", el: null };
      if (!live && +need[1] !== swaps.length) return { text: t("That is not the dog card your coach suggested. Press Undo to pick again."), why: t("The suggested card is the one that takes the most sheep."), el: $("undo") };
      const made = live ? 0 : swaps.length - +left.textContent;
      const flat = [].concat(...v.flock);
      const cells = grid(v);
      for (const [a, b] of swaps.slice(0, made)) { const x = cells.indexOf(a), y = cells.indexOf(b); const t = flat[x]; flat[x] = flat[y]; flat[y] = t; }
      const shown = cells.map((c) => { const el = document.querySelector(`#flock [data-cell="${c}"]`); return el ? el.dataset.code || null : null; });
      if (shown.some((code, i) => code !== flat[i])) return { text: t("That swap is not the one your coach suggested. Press Undo to take it back."), why: t("Then follow the framed cards again."), el: $("undo") };
      if (made >= swaps.length) {
        return {
          text: t("All swaps made. Press “Done” to end your turn."),
          why: gain ? t("Every line of three or more sheep of one type, across or down and whatever their colour, is yours: the dashed cards go to your pile.") : t("No line this time, but a dog card's swaps must all be made."),
          el: $("confirm"),
        };
      }
      const [a, b] = swaps[made];
      const sel = document.querySelector("#flock .cell.sel");
      const word = (c) => { const el = document.querySelector(`#flock [data-cell="${c}"]`); const code = el && el.dataset.code; return code ? SF.typeWord(code.split("-")[0]) : t("sheep"); };
      const which = swaps.length > 1 ? " " + t("(swap {i} of {n})", { i: made + 1, n: swaps.length }) : "";
      if (sel && sel.dataset.cell !== a && sel.dataset.cell !== b) return { text: t("Tap the framed card at {cell} again to put it down.", { cell: sel.dataset.cell }), why: "", el: sel };
      if (sel) {
        const other = sel.dataset.cell === a ? b : a;
        return { text: t("Now tap the {sheep} at {cell}, next to it{which}.", { sheep: word(other), cell: other, which }), why: t("The two cards change places."), el: document.querySelector(`#flock [data-cell="${other}"]`) };
      }
      return {
        text: t("Tap the {sheep} at {cell}{which}.", { sheep: word(a), cell: a, which }),
        why: made + 1 === swaps.length && gain ? t("This swap lines up three or more sheep of one type.") : t("You may swap any two cards side by side, across or up and down; a card may move more than once."),
        el: document.querySelector(`#flock [data-cell="${a}"]`),
      };
    }
    function grid(v) {
      const out = [];
      for (let r = 0; r < v.flock.length; r++) for (let c = 1; c <= v.flock[r].length; c++) out.push(String.fromCharCode(97 + r) + c);
      return out;
    }

    // Shave a Sheep: roll, then one of the colours rolled
    const WHY = {
      grow: t("Wool on your sheep is not safe yet, but it is on its way to your pile."),
      double: t("Two pieces at once: the fastest way to a full sheep."),
      shear: t("Shearing moves the wool from your sheep to your safe pile: nothing can take it from there."),
      swap: t("Swapping sheep gives you the other sheep and its wool, and them yours."),
      wolf: t("The wolf takes every piece of wool off that sheep and puts it back in the middle."),
      pass: t("Nothing you rolled helps you now."),
    };
    /* a side of the die in words: "gray (wolf) or pink (shear)" */
    const rolledWords = (face) => face.split("/").map((c) => (SF.COLOURS[c] ? `${c === "x2" ? "×2" : SF.COLOUR_WORDS[c] || c} (${SF.COLOURS[c].word})` : c)).join(" " + t("or") + " ");
    function shaveStep(m) {
      const v = m.view;
      if (v.phase === "roll" && v.turn === m.you) {
        return { text: t("Your turn. Roll the die."), why: t("Each side of the die shows one or two colours; after the roll you do one of them."), el: $("roll") };
      }
      if (v.to_move !== m.you) {
        const turn = v.to_move === "chance" ? v.turn : v.to_move;
        return { text: t("{name} is playing.", { name: who(m, turn) }), why: t("Watch the wool move between the middle, the sheep and the safe piles."), el: null };
      }
      ask(m);
      const plan = planOf(m);
      if (hints[m.seq] === "failed") return LOST;
      if (!plan) return { text: t("Your coach is thinking…"), why: "", el: null };
      const action = plan[0];
      const el = document.querySelector(`#controls .act[data-action="${CSS.escape(action)}"]`);
      const rolled = v.roll ? rolledWords(v.roll) : "";
      // the button's words, not its icon's (the ×2 icon's text would read "×2Double")
      const label = el ? Array.from(el.childNodes).filter((n) => n.nodeName.toLowerCase() !== "svg").map((n) => n.textContent).join("").trim() : action;
      return {
        text: (rolled ? t("You rolled {face}.", { face: rolled }) + " " : "") + t("Press “{button}”.", { button: label }),
        why: WHY[action.split(" ")[0]] || t("This is what your coach would play here."),
        el,
      };
    }

    // -- what just happened: the change from the last state described ------------------------
    function describe(prev, m) {
      const out = [];
      const a = prev.view, b = m.view;
      if (game === "dolly-crush") {
        b.collected.forEach((pile, i) => {
          if (a.dogs_left[i].length > b.dogs_left[i].length) {
            const d = a.dogs_left[i].find((x) => b.dogs_left[i].indexOf(x) < 0);
            const n = b.dog_swaps[i][d];
            out.push(mine(m, i) ? count(n, t("You played a dog card with 1 swap."), t("You played a dog card with {n} swaps.", { n }))
              : count(n, t("{name} played a dog card with 1 swap.", { name: who(m, i) }), t("{name} played a dog card with {n} swaps.", { name: who(m, i), n })));
          }
          const got = pile.slice(a.collected[i].length);
          if (got.length) {
            const black = got.filter((c) => /-black$/.test(c)).length;
            const pts = got.length + black;
            const what = (black ? t("{n} black sheep worth 2, ", { n: black }) : "") + count(pts, t("1 point in all"), t("{n} points in all", { n: pts }));
            out.push(mine(m, i) ? t("You took {n} sheep ({what}).", { n: got.length, what }) : t("{name} took {n} sheep ({what}).", { name: who(m, i), n: got.length, what }));
          } else if (a.to_move === i && b.to_move !== i) { // the seat's turn ended
            out.push(mine(m, i) ? t("You made no line: no sheep taken.") : t("{name} made no line: no sheep taken.", { name: who(m, i) }));
          }
        });
        if (b.deck_size < a.deck_size) out.push(count(b.deck_size, t("The gaps were filled from the deck (1 card left)."), t("The gaps were filled from the deck ({n} cards left).", { n: b.deck_size })));
        return out;
      }
      const roller = a.turn;
      if (b.roll && b.roll !== a.roll) out.push(mine(m, b.turn) ? t("You rolled {face}.", { face: rolledWords(b.roll) }) : t("{name} rolled {face}.", { name: who(m, b.turn), face: rolledWords(b.roll) }));
      const swapped = b.sheep.length === 2 && a.sheep[0] !== a.sheep[1] && b.sheep[0] === a.sheep[1] && b.sheep[1] === a.sheep[0] && a.middle === b.middle;
      if (swapped) out.push(t("{a} and {b} swapped sheep.", { a: who(m, 0), b: who(m, 1) }));
      else b.sheep.forEach((n, i) => {
        const toPile = b.piles[i] - a.piles[i];
        const full = a.sheep[i] === a.max_wool && i === roller && a.phase === "roll" ? " " + t("(a full sheep is sheared before its owner rolls)") : "";
        const name = who(m, i), grew = n - a.sheep[i], lost = a.sheep[i] - n;
        if (toPile > 0) out.push(mine(m, i) ? count(toPile, t("You sheared 1 piece of wool into the safe pile{full}.", { full }), t("You sheared {n} pieces of wool into the safe pile{full}.", { n: toPile, full }))
          : count(toPile, t("{name} sheared 1 piece of wool into the safe pile{full}.", { name, full }), t("{name} sheared {n} pieces of wool into the safe pile{full}.", { name, n: toPile, full })));
        else if (grew > 0) out.push(mine(m, i) ? count(grew, t("You took 1 piece of wool from the middle onto the sheep."), t("You took {n} pieces of wool from the middle onto the sheep.", { n: grew }))
          : count(grew, t("{name} took 1 piece of wool from the middle onto the sheep.", { name }), t("{name} took {n} pieces of wool from the middle onto the sheep.", { name, n: grew })));
        else if (lost > 0) out.push(mine(m, i) ? count(lost, t("The wolf took 1 piece of wool off your sheep, back to the middle."), t("The wolf took {n} pieces of wool off your sheep, back to the middle.", { n: lost }))
          : count(lost, t("The wolf took 1 piece of wool off {name}'s sheep, back to the middle.", { name }), t("The wolf took {n} pieces of wool off {name}'s sheep, back to the middle.", { name, n: lost })));
      });
      if (b.finished && !a.finished) out.push(t("The last piece of wool left the middle: everyone sheared one last time."));
      return out;
    }

    function mark(el) {
      if (target === el) return;
      if (target) target.classList.remove("coach-target");
      target = el;
      if (el) {
        el.classList.add("coach-target");
        const r = el.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) el.scrollIntoView({ block: "center" });
      }
    }

    function update() {
      scheduled = false;
      const m = msg();
      if (!m) return;
      if (!seen || seen.seq !== m.seq) {
        if (seen && m.you !== null && seen.view.to_move === m.you && m.view.to_move !== m.you && game === "dolly-crush") happened = [];
        if (seen && m.you !== null && game === "shave-a-sheep" && seen.view.phase === "roll" && seen.view.turn === m.you) happened = [];
        if (seen) happened = happened.concat(describe(seen, m)).slice(-12);
        seen = m;
      }
      const s = step(m);
      const stepBox = $("coach-step");
      SF.fill(stepBox,
        SF.el("p", { class: "coach-do", id: "coach-do", text: s.text }),
        s.why ? SF.el("p", { class: "coach-why", text: s.why }) : null,
        s.done ? SF.el("p", { class: "row" },
          SF.el("a", { class: "btn", href: "/", id: "coach-lobby", text: t("Play a real table") }),
          SF.el("a", { class: "btn secondary", href: "/rules/" + encodeURIComponent(game), text: t("Read the rules") })) : null);
      stepBox.dataset.done = s.done ? "1" : "";
      SF.fill($("coach-happened"), happened.length ? [SF.el("h3", { text: t("What just happened") }), SF.el("ul", { id: "coach-log", tabindex: "0", "aria-label": t("what just happened") }, happened.map((t) => SF.el("li", { text: t })))] : []);
      mark(s.el && document.body.contains(s.el) ? s.el : null);
    }
    function later() { if (!scheduled) { scheduled = true; requestAnimationFrame(update); } }

    const coachBox = $("coach");
    new MutationObserver((records) => {
      if (records.some((r) => !coachBox.contains(r.target))) later();
    }).observe(document.querySelector("main"), { childList: true, subtree: true, characterData: true });
    document.addEventListener("click", later, true);
    later();
  }
})();
