/* sheepfold — the rules pages: their illustrations, drawn with the table's own pictures
   (common.js and art.js): the flock and its cards (each sheep type's picture), the dog cards,
   the die and its sides, the sheep and their wool, the wolf. Each figure says what it draws
   in its attributes (data-flock="lamb-white ...", data-faces="white x2 ...", data-sheep="0 3 5"). */
"use strict";
(function () {
  const $$ = (sel) => document.querySelectorAll(sel);
  const list = (el, key) => (el.dataset[key] || "").split(" ").filter(Boolean);
  document.getElementById("logo").innerHTML = SF.logo();

  /* a sheep card, as the table draws it: its points, its picture (art.js), its symbol, its word */
  function card(code, cell) {
    const [type, colour] = code.split("-");
    const stars = colour === "black" ? "★★" : "★";
    const said = SF.cardWords(type, colour);
    const label = cell ? t("{card}, at {cell}", { card: said, cell }) : said;
    return `<div class="cell ${colour}" role="img" data-type="${SF.esc(type)}" aria-label="${SF.esc(label)}">
      <span class="pts" aria-hidden="true">${stars}</span>${SF.art.card(type, colour)}<span class="sym" aria-hidden="true">${SF.symbol(type)}</span><span class="word" aria-hidden="true">${SF.esc(SF.typeWord(type))}</span>${cell ? `<span class="coord" aria-hidden="true">${cell}</span>` : ""}</div>`;
  }
  $$("[data-flock]").forEach((el) => {
    const marked = new Set(list(el, "line").concat(list(el, "swap")));
    const cls = el.dataset.line ? "line" : el.dataset.swap ? "sel" : "";
    el.innerHTML = list(el, "flock").map((code, i) => {
      const cell = String.fromCharCode(97 + Math.floor(i / 5)) + (1 + (i % 5));
      const html = card(code, cell);
      return marked.has(cell) ? html.replace('class="cell ', `class="cell ${cls} `) : html;
    }).join("");
  });
  $$("[data-cards]").forEach((el) => { el.innerHTML = list(el, "cards").map((c) => card(c)).join(""); });
  $$("[data-dogs]").forEach((el) => {
    el.innerHTML = list(el, "dogs").map((n) => {
      const said = n === "1" ? t("a dog card: 1 swap") : t("a dog card: {n} swaps", { n });
      return `<span class="rules-dog" role="img" aria-label="${SF.esc(said)}"><span class="n" aria-hidden="true">${SF.esc(n)}</span><span aria-hidden="true">${n === "1" ? t("swap") : t("swaps")}</span></span>`;
    }).join("");
  });
  /* the die's sides: each a die as the table draws it (art.js), its colours and their actions */
  $$("[data-faces]").forEach((el) => {
    el.innerHTML = list(el, "faces").map((f) => `<span class="die" data-side="${SF.esc(f)}">${SF.art.die(f)}${SF.faceHTML(f)}</span>`).join("");
  });
  $$("[data-face]").forEach((el) => { el.innerHTML = SF.faceHTML(el.dataset.face); });
  const wool = (n) => Array.from({ length: n }, () => "<i></i>").join("");
  const MAX_WOOL = 5; // a sheep's wool in the rulebook's game (the figures show it)
  $$("[data-sheep]").forEach((el) => {
    el.innerHTML = list(el, "sheep").map((n) => {
      const said = n === "1" ? t("a sheep with 1 piece of wool") : t("a sheep with {n} pieces of wool", { n });
      return `<div class="sheep" role="img" aria-label="${SF.esc(said)}">${SF.art.shaveSheep(+n, MAX_WOOL)}
      <div class="wool">${Array.from({ length: MAX_WOOL }, (_, k) => `<i class="${k < +n ? "" : "empty"}"></i>`).join("")}</div></div>`;
    }).join("");
  });
  $$("[data-wool]").forEach((el) => {
    const n = +el.dataset.wool;
    el.innerHTML = wool(n);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", n === 1 ? t("1 piece of wool") : t("{n} pieces of wool", { n }));
  });
  $$("[data-pile]").forEach((el) => { el.innerHTML = wool(+el.dataset.pile); });
  $$("[data-wolf]").forEach((el) => { el.insertAdjacentHTML("afterbegin", SF.COLOURS.gray.icon); });
})();
