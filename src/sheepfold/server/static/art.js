/* sheepfold — the table's illustrations, drawn in code (no image files): a friendly sheep per
   Dolly Crush sheep type, each with its own feature and colour (a black sheep is black with light
   outlines), a generated sheep for any other type (house rules), the Shave a Sheep sheep.
   The pictures are decoration: the type's symbol and word stay on every card (never colour or
   picture alone), and every picture is aria-hidden (its card says it in words). No style
   attributes (the Content-Security-Policy allows none): presentation attributes only. */
"use strict";
SF.art = (function () {
  const svg = (inner, cls) => `<svg class="${cls}" viewBox="0 0 100 84" aria-hidden="true" focusable="false">${inner}</svg>`;

  // the two colours of the flock: wool, outline, face
  const COATS = {
    white: { wool: "#fffdf5", line: "#3f4a3c", face: "#3b3f46", faceLine: "#3b3f46", eye: "#fff" },
    black: { wool: "#353a42", line: "#e5e7eb", face: "#15171a", faceLine: "#e5e7eb", eye: "#f8fafc" },
  };

  function body(c, tint) { // wool puffs, legs, head with ears and eyes
    const wool = tint || c.wool;
    const puffs = [[26, 42, 13], [38, 31, 14], [54, 30, 14], [66, 40, 13], [34, 52, 13], [50, 53, 13], [62, 51, 12], [46, 41, 15]];
    return `<g fill="${c.face}" stroke="${c.faceLine}" stroke-width="1.5">
        <rect x="30" y="58" width="6" height="18" rx="3"/><rect x="42" y="60" width="6" height="17" rx="3"/>
        <rect x="54" y="60" width="6" height="17" rx="3"/><rect x="64" y="57" width="6" height="18" rx="3"/></g>
      <g fill="${wool}" stroke="${c.line}" stroke-width="2">${puffs.map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}"/>`).join("")}</g>
      <g fill="${c.face}" stroke="${c.faceLine}" stroke-width="1.5">
        <ellipse cx="71" cy="27" rx="6" ry="3.5" transform="rotate(-25 71 27)"/><ellipse cx="91" cy="27" rx="6" ry="3.5" transform="rotate(25 91 27)"/>
        <ellipse cx="81" cy="36" rx="10" ry="12.5"/></g>
      <g fill="${wool}" stroke="${c.line}" stroke-width="1.5"><circle cx="76" cy="24" r="4.5"/><circle cx="82" cy="22" r="5"/><circle cx="87" cy="25" r="4"/></g>
      <circle cx="77" cy="35" r="2.6" fill="${c.eye}"/><circle cx="85.5" cy="35" r="2.6" fill="${c.eye}"/>
      <circle cx="77.6" cy="35.6" r="1.2" fill="#111"/><circle cx="86" cy="35.6" r="1.2" fill="#111"/>
      <path d="M78 43q3 2.5 6 0" fill="none" stroke="${c.eye}" stroke-width="1.5" stroke-linecap="round"/>`;
  }

  /* each type's own feature, drawn over the sheep */
  const FEATURES = {
    bell: (c) => `<path d="M72 46q9 6 18 0" fill="none" stroke="#b91c1c" stroke-width="3"/>
      <path d="M81 48c-4 0-6 3-6 7v3l-2 3h16l-2-3v-3c0-4-2-7-6-7z" fill="#f5b700" stroke="${c.line === "#e5e7eb" ? "#fde68a" : "#7c5a00"}" stroke-width="1.5"/><circle cx="81" cy="63" r="2" fill="#7c5a00"/>`,
    lamb: (c) => `<path d="M80 17l-5-5 1 7zM84 17l5-5-1 7z" fill="#f472b6" stroke="${c.line}" stroke-width="1"/><circle cx="82" cy="17" r="2.2" fill="#f472b6"/>
      <circle cx="74" cy="40" r="2.4" fill="#f9a8d4"/><circle cx="88" cy="40" r="2.4" fill="#f9a8d4"/>`,
    butterfly: (c) => `<g stroke="${c.line === "#e5e7eb" ? "#f5d0fe" : "#581c87"}" stroke-width="1.2"><path d="M44 16c-8-10-18-6-14 2 2 4 9 4 14-2z" fill="#a855f7"/><path d="M44 16c8-10 18-6 14 2-2 4-9 4-14-2z" fill="#c084fc"/>
      <path d="M44 17c-6 2-10 8-6 10 3 1 5-4 6-10zM44 17c6 2 10 8 6 10-3 1-5-4-6-10z" fill="#e879f9"/></g><path d="M44 13v8" stroke="#1f2937" stroke-width="2" stroke-linecap="round"/>`,
    flower: (c) => `<g fill="#fb923c" stroke="${c.line === "#e5e7eb" ? "#fed7aa" : "#9a3412"}" stroke-width="1"><circle cx="88" cy="14" r="4"/><circle cx="94" cy="19" r="4"/><circle cx="91" cy="25" r="4"/><circle cx="84" cy="25" r="4"/><circle cx="82" cy="18" r="4"/></g>
      <circle cx="88" cy="20" r="3" fill="#facc15" stroke="#92400e" stroke-width="1"/>`,
    ram: (c) => `<path d="M73 27c-9-6-16 2-11 8 3 4 8 1 6-3M89 27c9-6 16 2 11 8-3 4-8 1-6-3" fill="none" stroke="#a16207" stroke-width="5" stroke-linecap="round"/>
      <path d="M73 27c-9-6-16 2-11 8M89 27c9-6 16 2 11 8" fill="none" stroke="${c.line === "#e5e7eb" ? "#fde68a" : "#713f12"}" stroke-width="1.2"/>`,
    clover: (c) => `<g fill="#22c55e" stroke="${c.line === "#e5e7eb" ? "#bbf7d0" : "#14532d"}" stroke-width="1"><circle cx="90" cy="43" r="3.6"/><circle cx="95" cy="47" r="3.6"/><circle cx="90" cy="51" r="3.6"/></g>
      <path d="M90 47l-7-2" stroke="#15803d" stroke-width="2" stroke-linecap="round"/>`,
    star: (c) => `<path d="M50 4l3.5 7.5 8 .8-6 5.4 1.8 8-7.3-4.2-7.3 4.2 1.8-8-6-5.4 8-.8z" fill="#facc15" stroke="${c.line === "#e5e7eb" ? "#fef08a" : "#854d0e"}" stroke-width="1.4"/>`,
    heart: (c) => `<path d="M46 50c-8-6-11-10-10-14 1-4 6-5 10-1 4-4 9-3 10 1 1 4-2 8-10 14z" fill="#ef4444" stroke="${c.line === "#e5e7eb" ? "#fecaca" : "#7f1d1d"}" stroke-width="1.4"/>`,
  };

  function hash(text) { // a small stable number from a name (FNV-1a)
    let h = 2166136261;
    for (const ch of String(text)) { h ^= ch.codePointAt(0); h = Math.imul(h, 16777619) >>> 0; }
    return h;
  }
  /* a type no drawing knows (a house rule's): a tinted coat and a hat of its own, from its name */
  function generated(type, c, colour) {
    const h = hash(type);
    const hue = h % 360;
    const tint = colour === "black" ? `hsl(${hue}, 25%, 26%)` : `hsl(${hue}, 70%, 92%)`;
    const hat = `hsl(${(hue + 150) % 360}, 65%, 42%)`;
    const kind = (h >>> 9) % 3;
    const line = c.line;
    const extra = kind === 0
      ? `<path d="M74 22l8-16 8 16z" fill="${hat}" stroke="${line}" stroke-width="1.4"/><circle cx="82" cy="6" r="2.5" fill="#facc15"/>`
      : kind === 1
        ? `<path d="M72 45q9 7 19 0l1 4q-10 7-21 0z" fill="${hat}" stroke="${line}" stroke-width="1.2"/><path d="M76 49l-3 9 5-1z" fill="${hat}"/>`
        : `<rect x="72" y="31" width="19" height="7" rx="3" fill="${hat}" stroke="${line}" stroke-width="1.2"/>`;
    return { tint, extra };
  }

  /* a Dolly Crush card's picture and its symbol (the word comes with the card) */
  function card(type, colour) {
    const c = COATS[colour] || COATS.white;
    const own = FEATURES[type];
    const g = own ? null : generated(type, c, colour);
    const picture = svg(body(c, g && g.tint) + (own ? own(c) : g.extra), "art");
    return picture;
  }

  /* Shave a Sheep's sheep: the more wool, the fluffier (0 wool: shorn, pink skin) */
  function shaveSheep(wool, max) {
    const c = COATS.white;
    const shorn = { wool: "#fcdce3", line: c.line, face: c.face, faceLine: c.faceLine, eye: c.eye };
    const k = max ? Math.min(1, wool / max) : 0;
    const scale = (f) => (m, r) => `r="${(+r * f).toFixed(1)}"`; // the wool puffs' size
    const puffs = wool > 0 ? body(c).replace(/r="(1[0-9])"/g, scale(0.82 + 0.32 * k)) : body(shorn).replace(/r="(1[0-9])"/g, scale(0.72));
    return svg(puffs, "body");
  }

  /* a LEGO-like die: a rounded cube with studs, its face's colour (the face's word beside it) */
  const FACE_FILL = { white: "#ffffff", x2: "#fde68a", green: "#86efac", gray: "#9ca3af", pink: "#f9a8d4" };
  function die(face) {
    const first = String(face || "").split("/")[0];
    const fill = FACE_FILL[first] || "#e5e7eb";
    const studs = [[14, 9], [26, 9]].map(([x, y]) => `<ellipse cx="${x}" cy="${y + 3}" rx="4.5" ry="2" fill="#00000033"/><rect x="${x - 4.5}" y="${y - 2}" width="9" height="5" rx="1.5" fill="${fill}" stroke="#1f2937" stroke-width="1.3"/><ellipse cx="${x}" cy="${y - 2}" rx="4.5" ry="1.8" fill="${fill}" stroke="#1f2937" stroke-width="1.3"/>`).join("");
    return `<svg class="lego-die" viewBox="0 0 40 40" aria-hidden="true" focusable="false"><rect x="3" y="10" width="34" height="27" rx="6" fill="${fill}" stroke="#1f2937" stroke-width="2"/>
      <rect x="6" y="13" width="28" height="4" rx="2" fill="#ffffff66"/>${studs}</svg>`;
  }

  /* the chat's quick reactions (server/chat.py REACTIONS), drawn: an emoji needs a font that a
     machine may not have (Debian's Chromium shows a box), a drawing always shows. Each is
     decoration beside its words. A reaction with no drawing: "" (its words show alone). */
  const FACE = '<circle cx="20" cy="20" r="16" fill="#facc15" stroke="#92400e" stroke-width="1.8"/>';
  const REACTIONS = {
    "\u{1F44D}": `<path d="M9 19h6v15H9z" fill="#60a5fa" stroke="#1e3a8a" stroke-width="1.5"/>
      <path d="M15 19l6-12c3 0 4 2 3.5 5L23 17h8c2 0 3.5 2 3 4l-2.5 10c-.5 2-2 3-4 3H15z" fill="#fcd9b6" stroke="#7c2d12" stroke-width="1.6" stroke-linejoin="round"/>
      <path d="M24 23h9M24 28h8" stroke="#7c2d12" stroke-width="1.3" fill="none"/>`,
    "\u{1F602}": `${FACE}<path d="M11 16q3-3 6 0M23 16q3-3 6 0" fill="none" stroke="#3f2a05" stroke-width="2" stroke-linecap="round"/>
      <path d="M10 22h20q-1 10-10 10t-10-10z" fill="#7f1d1d"/><path d="M12 23h16q-.5 3-1.5 4H13.5q-1-1-1.5-4z" fill="#fff"/>
      <path d="M6 18q-3 5 0 8q3-3 0-8zM34 18q3 5 0 8q-3-3 0-8z" fill="#60a5fa" stroke="#1e3a8a" stroke-width="1"/>`,
    "\u{1F62E}": `${FACE}<circle cx="14" cy="16" r="2.4" fill="#3f2a05"/><circle cx="26" cy="16" r="2.4" fill="#3f2a05"/>
      <ellipse cx="20" cy="27" rx="4" ry="5" fill="#7f1d1d"/>`,
    "\u{1F44F}": `<path d="M8 14l3-1 9 10-2 9-7-2-5-9z" fill="#fcd9b6" stroke="#7c2d12" stroke-width="1.5" stroke-linejoin="round"/>
      <path d="M21 10l4 0 5 12-3 10-8-1-1-11z" fill="#fde7d2" stroke="#7c2d12" stroke-width="1.5" stroke-linejoin="round"/>
      <path d="M11 6l1 4M17 4l-.5 4M27 4l-2 4M33 9l-3 3" stroke="#b45309" stroke-width="1.8" stroke-linecap="round"/>`,
    "\u{1F411}": `<g fill="#fffdf5" stroke="#3f4a3c" stroke-width="1.5"><circle cx="13" cy="21" r="7"/><circle cx="21" cy="16" r="7"/><circle cx="25" cy="24" r="7"/><circle cx="16" cy="26" r="7"/></g>
      <rect x="13" y="30" width="3" height="7" rx="1" fill="#3b3f46"/><rect x="22" y="30" width="3" height="7" rx="1" fill="#3b3f46"/>
      <ellipse cx="33" cy="16" rx="4.5" ry="5.5" fill="#3b3f46"/><circle cx="34.5" cy="15" r="1.2" fill="#fff"/>`,
    "\u{1F622}": `${FACE}<circle cx="14" cy="16" r="2.4" fill="#3f2a05"/><circle cx="26" cy="16" r="2.4" fill="#3f2a05"/>
      <path d="M13 29q7-6 14 0" fill="none" stroke="#3f2a05" stroke-width="2.2" stroke-linecap="round"/>
      <path d="M26 20q-3 5 0 7q3-2 0-7z" fill="#60a5fa" stroke="#1e3a8a" stroke-width="1"/>`,
  };
  function reaction(react) {
    const inner = REACTIONS[react];
    return inner ? `<svg class="react-art" viewBox="0 0 40 40" aria-hidden="true" focusable="false">${inner}</svg>` : "";
  }

  return { card, shaveSheep, die, hash, reaction };
})();
