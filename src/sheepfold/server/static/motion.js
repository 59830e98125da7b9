/* sheepfold — what changed, shown moving: between the view the page showed last and the next
   one, a Dolly Crush swap slides the two cards, taken cards fly to the taker's pile and the
   refill drops in; in Shave a Sheep the die rolls, wool pieces move between the middle, the
   sheep and the safe piles, and the wolf walks.

   The views a table sends wait in a queue and are shown one after another (three bots' turns
   play in order, each after the one before it ended), at a speed the player picks (remembered).
   Motion is decoration, never a gate: Skip, a click on the board or a key shows the newest view
   at once; a queue that falls far behind catches up at once; `prefers-reduced-motion: reduce`
   shows every view at once, nothing moves. Optional sounds (off unless turned on, remembered)
   are synthesised with WebAudio: no files.

   Hook (table.js): `SF.motion.show(message, apply)` instead of `apply(message)`; `apply` draws
   the message's view at once. Motion moves clones of the old cards (FLIP: positions from
   bounding boxes) with the Web Animations API; every animation it starts has an id "sf-…".
   Tests read `window.SF_MOTION` (one record per view shown: seq, the seat that moved, the kinds
   of motion, start and end). */
"use strict";
SF.motion = (function () {
  const SPEED_KEY = "sheepfold:motion-speed";
  const SOUND_KEY = "sheepfold:sound";
  const SPEEDS = { slow: 1.8, normal: 1, fast: 0.5 }; // a factor on every duration
  const SPEED_WORDS = { slow: t("Slow"), normal: t("Normal"), fast: t("Fast") };
  const MS = { gap: 250, swap: 450, fly: 600, drop: 380, stagger: 70, wool: 520, wolf: 1000, roll: 650 };
  const BEHIND = 40; // views waiting: beyond this many the queue catches up at once
  const MAX_BRICKS = 12; // wool pieces drawn flying in one move
  const $ = (id) => document.getElementById(id);
  const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  let speed = SPEEDS[localStorage.getItem(SPEED_KEY)] ? localStorage.getItem(SPEED_KEY) : "normal";
  const queue = []; // [message, apply] waiting
  let playing = []; // the animations of the view being shown
  let clones = []; // elements of the motion layer
  let timers = []; // sounds scheduled
  let generation = 0;
  let last = null; // the last message shown
  let lastEntry = 0; // the log's last entry seen (its n)
  let lastSeat = null; // the seat whose move was shown last
  const records = (window.SF_MOTION = []);
  let layer = null, skipButton = null;

  // -- the controls: speed and sound in the header, Skip while something moves ---------------
  function tools() {
    if (layer) return;
    layer = SF.el("div", { class: "motion-layer", "aria-hidden": "true" });
    skipButton = SF.el("button", { type: "button", class: "skip-motion", id: "skip-motion", hidden: true, text: t("Skip »"), onclick: skip });
    document.body.append(layer, skipButton);
    const select = SF.el("select", { id: "motion-speed", onchange: (e) => { speed = e.target.value; localStorage.setItem(SPEED_KEY, speed); } },
      Object.keys(SPEEDS).map((k) => SF.el("option", { value: k, selected: k === speed, text: SPEED_WORDS[k] })));
    const sound = SF.el("button", { type: "button", class: "secondary small", id: "sound-toggle", onclick: () => setSound(!soundOn()) });
    const box = SF.el("span", { class: "motion-tools" }, SF.el("label", {}, t("Speed"), select), sound);
    const header = document.querySelector("header.top");
    if (header) header.insertBefore(box, $("status"));
    drawSound();
    // a click on the board or the players, or a key (not while typing): the newest view at once
    document.addEventListener("click", (e) => { if (busy() && e.target.closest && e.target.closest("#board, #players, .motion-layer")) skip(); }, true);
    document.addEventListener("keydown", (e) => { if (busy() && !(e.target.closest && e.target.closest("input, textarea, select"))) skip(); }, true);
  }
  const busy = () => playing.length > 0;

  // -- the queue -----------------------------------------------------------------------------
  function show(m, apply) {
    tools();
    window.SF_HEARD_SEQ = m.seq; // the newest view this page was told (tests read it)
    queue.push([m, apply]);
    // a race (the wolf howls: first to grab it) is shown the moment it opens, as is a queue
    // too far behind
    if (queue.length > BEHIND || (m.view && m.view.phase === "grab")) skip();
    else pump();
  }
  function pump() {
    while (!busy() && queue.length) {
      const [m, apply] = queue.shift();
      const anims = step(m, apply, !reduced() && canMove(m));
      if (anims.length) {
        playing = anims;
        skipButton.hidden = false;
        const g = generation;
        Promise.all(anims.map((a) => a.finished.catch(() => null))).then(() => { if (g === generation) ended(); });
      }
    }
  }
  function ended() {
    generation += 1;
    const r = records[records.length - 1];
    if (r && r.end === null) r.end = performance.now();
    playing = [];
    clean();
    skipButton.hidden = true;
    pump();
  }
  /* Skip: every animation at its end, every waiting view shown, in order */
  function skip() {
    generation += 1;
    for (const a of playing) { try { a.finish(); } catch (e) { a.cancel(); } }
    const r = records[records.length - 1];
    if (r && r.end === null) { r.end = performance.now(); r.skipped = true; }
    playing = [];
    clean();
    while (queue.length) { const [m, apply] = queue.shift(); step(m, apply, false); }
    if (skipButton) skipButton.hidden = true;
  }
  function clean() {
    for (const c of clones) c.remove();
    clones = [];
    for (const t of timers) clearTimeout(t);
    timers = [];
  }
  const canMove = (m) => last !== null && !$("replay-pos") && last.view && m.view && last.view.game === m.view.game;

  /* one view: drawn at once, then what changed moving (the animations, none when `move` is off) */
  function step(m, apply, move) {
    const before = move ? snapshot() : null;
    const prev = last;
    const fresh = (m.events || []).filter((e) => e.n > lastEntry);
    if (fresh.length) lastEntry = fresh[fresh.length - 1].n;
    apply(m);
    last = m;
    yourTurn(prev, m);
    const acted = fresh.filter((e) => e.seat !== null && e.seat !== undefined);
    const seat = acted.length ? acted[acted.length - 1].seat : null; // whose move this view shows
    const record = { seq: m.seq, seat, kinds: [], start: performance.now(), end: null };
    records.push(record);
    if (records.length > 500) records.splice(0, records.length - 500);
    const other = seat !== null && lastSeat !== null && seat !== lastSeat; // another player's turn
    if (seat !== null) lastSeat = seat;
    if (!move) { record.end = record.start; return []; }
    const plan = { t: other ? MS.gap * SPEEDS[speed] : 0, anims: [], kinds: record.kinds };
    if (m.view.game === "dolly-crush") dolly(plan, prev, m, before, fresh);
    else if (m.view.game === "shave-a-sheep") shave(plan, prev.view, m.view, fresh);
    if (!plan.anims.length) record.end = record.start;
    return plan.anims;
  }

  // -- helpers: boxes, clones, animations ----------------------------------------------------
  const box = (el) => el && el.getBoundingClientRect();
  const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
  function snapshot() { // the cards as the page shows them now: cell -> {el, code, rect}
    const cells = new Map();
    document.querySelectorAll("#flock .cell").forEach((el) => cells.set(el.dataset.cell, { el, code: el.dataset.code || null, rect: box(el) }));
    return { cells };
  }
  function cloneAt(node, rect) { // a copy of a card, over the page where `rect` is
    const c = node.cloneNode(true);
    c.removeAttribute("id");
    c.removeAttribute("tabindex");
    c.classList.remove("sel", "target", "line", "taken", "moved");
    c.classList.add("flying");
    Object.assign(c.style, { left: rect.left + "px", top: rect.top + "px", width: rect.width + "px", height: rect.height + "px" });
    layer.append(c);
    clones.push(c);
    return c;
  }
  function piece(cls, html, at) { // a small piece (a wool brick, the wolf) centred on `at`
    const p = SF.el("span", { class: "piece " + cls });
    p.innerHTML = html;
    Object.assign(p.style, { left: at.x + "px", top: at.y + "px" });
    layer.append(p);
    clones.push(p);
    return p;
  }
  function play(plan, el, id, frames, ms, delay, fill) {
    const k = SPEEDS[speed];
    const a = el.animate(frames, { duration: ms * k, delay: delay * k + plan.t, easing: "ease-in-out", fill: fill || "backwards" });
    a.id = id;
    plan.anims.push(a);
    return a;
  }
  const shift = (from, to) => `translate(${to.left - from.left}px, ${to.top - from.top}px)`;

  // -- Dolly Crush -----------------------------------------------------------------------------
  function dolly(plan, prev, m, before, fresh) {
    const now = snapshot().cells;
    if (!before.cells.size || !now.size) return;
    const old = new Map([...before.cells].map(([c, s]) => [c, s.code]));
    const swaps = fresh.map((e) => /^swap ([a-z]\d+)-([a-z]\d+)$/.exec(e.move || "")).filter(Boolean).map((x) => [x[1], x[2]]);
    const diff = (a) => [...now.keys()].filter((c) => (a.get(c) || null) !== now.get(c).code);
    const swapped = new Map(old);
    for (const [a, b] of swaps) { const t = swapped.get(a); swapped.set(a, swapped.get(b)); swapped.set(b, t); }
    // the page may already show the swaps (its own turn, planned card by card): then none slides
    const slides = swaps.length && diff(swapped).length <= diff(old).length ? swaps : [];
    const after = slides.length ? swapped : old;
    const changed = new Set(diff(after));
    const piles = (v) => v.collected.map((p) => p.length);
    const grew = piles(m.view).map((n, i) => n - (piles(prev.view)[i] || 0));
    const taker = grew.findIndex((n) => n > 0);
    let t = 0;
    // the swaps slide, one after another
    const visual = new Map([...before.cells].map(([c, s]) => [c, s.el]));
    const landed = new Map(); // cell -> when its swap's card lands there
    for (const [a, b] of slides) {
      if (!before.cells.has(a) || !before.cells.has(b)) continue;
      const ra = before.cells.get(a).rect, rb = before.cells.get(b).rect;
      const ca = cloneAt(visual.get(a), ra), cb = cloneAt(visual.get(b), rb);
      play(plan, ca, "sf-swap", [{ transform: "none", opacity: 1 }, { transform: shift(ra, rb) + " scale(1.06)", opacity: 1, offset: 0.5 }, { transform: shift(ra, rb), opacity: 1 }], MS.swap, t);
      play(plan, cb, "sf-swap", [{ transform: "none", opacity: 1 }, { transform: shift(rb, ra) + " scale(.94)", opacity: 1, offset: 0.5 }, { transform: shift(rb, ra), opacity: 1 }], MS.swap, t);
      const va = visual.get(a); visual.set(a, visual.get(b)); visual.set(b, va);
      t += MS.swap;
      landed.set(a, t); landed.set(b, t);
    }
    if (slides.length) plan.kinds.push("swap");
    const swapEnd = t;
    // taken cards fly to the taker's pile (or fade, when nobody took them)
    const pile = taker >= 0 ? box(document.querySelector(`#players .player[data-seat="${taker}"]`)) : null;
    let k = 0;
    for (const c of changed) {
      const was = after.get(c);
      if (!was || !before.cells.has(c)) continue;
      const r = before.cells.get(c).rect;
      const el = cloneAt(visual.get(c), r);
      const hidden = landed.has(c); // a card that slid here shows from when it lands
      const to = pile ? centre(pile) : centre(r);
      const fly = `translate(${to.x - centre(r).x}px, ${to.y - centre(r).y}px) scale(.3)`;
      play(plan, el, pile ? "sf-take" : "sf-leave", [{ transform: "none", opacity: hidden ? 0 : 1 }, { transform: "scale(1.1)", opacity: 1, offset: 0.15 }, { transform: fly, opacity: 0.2 }], MS.fly, swapEnd + k * MS.stagger);
      k += 1;
    }
    if (k) plan.kinds.push(pile ? "take" : "leave");
    const flown = k ? swapEnd + MS.fly + (k - 1) * MS.stagger : swapEnd;
    // the cards now on the board: the slid ones show as they land, the new ones drop in
    let j = 0;
    for (const [c, s] of now) {
      if (changed.has(c) && s.code) {
        play(plan, s.el, "sf-drop", [{ transform: "translateY(-70%) scale(.8)", opacity: 0 }, { transform: "none", opacity: 1 }], MS.drop, flown + j * MS.stagger);
        j += 1;
      } else if (changed.has(c) || landed.has(c)) {
        play(plan, s.el, "sf-hold", [{ opacity: 0 }, { opacity: 1 }], 40, changed.has(c) ? flown : landed.get(c));
      }
    }
    if (j) plan.kinds.push("refill");
    if (slides.length) sound("swap", plan, 0);
    if (k && pile) sound("take", plan, swapEnd);
  }

  // -- Shave a Sheep ---------------------------------------------------------------------------
  function shave(plan, a, b, fresh) {
    let t = 0;
    const die = $("die");
    if (die && b.roll && (a.roll !== b.roll || (a.phase === "roll" && b.phase !== "roll"))) {
      play(plan, die, "sf-roll", [{ transform: "translateY(-40px) rotate(-300deg) scale(.6)", opacity: 0.3 }, { transform: "translateY(6px) rotate(20deg) scale(1.05)", offset: 0.7 }, { transform: "none", opacity: 1 }], MS.roll, 0);
      plan.kinds.push("roll");
      t += MS.roll;
    }
    // the wolf walks: from where it stood to where it stands, or from the middle to the sheep
    // it bites (the log's move "wolf seat N")
    const bite = fresh.map((e) => /^wolf seat (\d+)/.exec(e.move || "")).filter(Boolean).map((x) => +x[1]);
    const stands = (w) => typeof w === "number" && w >= 0;
    const walk = a.wolf !== b.wolf && stands(b.wolf) ? [a.wolf, b.wolf] : bite.length ? [-1, bite[bite.length - 1]] : null;
    if (walk) {
      const at = (w) => (stands(w) ? document.querySelector(`#players .player[data-seat="${w}"] ${w === b.wolf ? ".wolfmark" : ".sheep"}`) : $("middle"));
      const s = box(at(walk[0])), d = box(at(walk[1]));
      if (s && d) {
        const p = centre(s), q = centre(d);
        const wolf = piece("wolf-piece", SF.COLOURS.gray.icon, p);
        const frames = [];
        for (let i = 0; i <= 6; i++) {
          const f = i / 6;
          frames.push({ transform: `translate(calc(${(q.x - p.x) * f}px - 50%), calc(${(q.y - p.y) * f - (i % 2 ? 10 : 0)}px - 50%)) rotate(${i % 2 ? 8 : -8}deg)`, opacity: 1 });
        }
        play(plan, wolf, "sf-wolf", frames, MS.wolf, t);
        plan.kinds.push("wolf");
        sound("wolf", plan, t);
        t += MS.wolf;
      }
    }
    // wool: from where it left to where it arrived
    const place = (kind, i) => kind === "middle" ? $("middle") : document.querySelector(`#players .player[data-seat="${i}"] ${kind === "sheep" ? ".wool" : ".pile"}`);
    const from = [], to = [];
    const add = (d, kind, i) => { for (let n = 0; n < Math.abs(d); n++) (d < 0 ? from : to).push({ kind, i }); };
    add(b.middle - a.middle, "middle", -1);
    b.sheep.forEach((n, i) => add(n - (a.sheep[i] || 0), "sheep", i));
    b.piles.forEach((n, i) => add(n - (a.piles[i] || 0), "pile", i));
    const moves = [];
    for (const src of from) { // a sheep's wool goes to its own pile first
      let k = to.findIndex((d) => src.kind === "sheep" && d.kind === "pile" && d.i === src.i);
      if (k < 0) k = to.findIndex((d) => !(d.kind === src.kind && d.i === src.i));
      moves.push([src, k >= 0 ? to.splice(k, 1)[0] : null]);
    }
    for (const dst of to) moves.push([{ kind: "middle", i: -1 }, dst]); // from nowhere: the middle's
    let n = 0;
    for (const [src, dst] of moves.slice(0, MAX_BRICKS)) {
      const s = box(place(src.kind, src.i)), d = dst ? box(place(dst.kind, dst.i)) : null;
      if (!s) continue;
      const p = centre(s), q = d ? centre(d) : { x: p.x, y: p.y - 60 };
      const brick = piece("brick", "<i></i>", p);
      const dx = q.x - p.x, dy = q.y - p.y;
      play(plan, brick, "sf-wool", [{ transform: "translate(-50%, -50%)", opacity: 0 }, { transform: "translate(-50%, -50%)", opacity: 1, offset: 0.06 }, { transform: `translate(calc(${dx / 2}px - 50%), calc(${dy / 2 - 50}px - 50%)) rotate(180deg)`, opacity: 1, offset: 0.5 }, { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) rotate(360deg)`, opacity: d ? 1 : 0 }], MS.wool, t + n * MS.stagger);
      n += 1;
    }
    if (n) { plan.kinds.push("wool"); sound("wool", plan, t); }
  }

  // -- sounds: short, synthesised, off unless the player turns them on ------------------------
  let audio = null;
  const soundOn = () => localStorage.getItem(SOUND_KEY) === "1";
  function setSound(on) {
    if (on) localStorage.setItem(SOUND_KEY, "1"); else localStorage.removeItem(SOUND_KEY);
    drawSound();
    if (on) beep("turn");
  }
  function drawSound() {
    const b = $("sound-toggle");
    if (!b) return;
    b.textContent = soundOn() ? t("♪ Sound on") : t("♪ Sound off");
    b.setAttribute("aria-pressed", String(soundOn()));
  }
  const TUNES = { // [frequency Hz, start s, length s, wave]
    swap: [[520, 0, 0.09, "triangle"], [660, 0.1, 0.09, "triangle"]],
    take: [[523, 0, 0.1, "square"], [659, 0.1, 0.1, "square"], [784, 0.2, 0.16, "square"]],
    wool: [[880, 0, 0.07, "sine"], [990, 0.06, 0.07, "sine"]],
    wolf: [[220, 0, 0.5, "sawtooth", 440]],
    turn: [[660, 0, 0.14, "sine"], [880, 0.15, 0.22, "sine"]],
  };
  function beep(name) {
    if (!soundOn()) return;
    (window.SF_SOUNDS = window.SF_SOUNDS || []).push(name); // tests read it
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      for (const [f, at, len, wave, glide] of TUNES[name]) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.type = wave;
        o.frequency.setValueAtTime(f, now + at);
        if (glide) o.frequency.linearRampToValueAtTime(glide, now + at + len);
        g.gain.setValueAtTime(0.0001, now + at);
        g.gain.exponentialRampToValueAtTime(0.12, now + at + 0.01);
        g.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
        o.connect(g).connect(audio.destination);
        o.start(now + at);
        o.stop(now + at + len + 0.02);
      }
    } catch (e) { /* no sound to be had: the game plays on */ }
  }
  function sound(name, plan, delay) {
    if (!soundOn()) return;
    timers.push(setTimeout(() => beep(name), delay * SPEEDS[speed] + plan.t));
  }
  function yourTurn(prev, m) { // the turn came to this seat
    const mine = (x) => x && x.you !== null && x.view && !x.view.finished && (x.view.to_move === x.you || (x.view.to_move === "chance" && x.view.turn === x.you && x.view.phase === "roll"));
    if (prev && mine(m) && !mine(prev)) beep("turn");
  }

  return { show, skip, busy, idle: () => !busy() && !queue.length };
})();
