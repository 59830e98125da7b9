/* sheepfold — the rules pages: their illustrations, drawn with the table's own pictures
   (common.js): the flock and its cards, the dog cards, the die's sides, the sheep, the wool,
   the wolf. Each figure says what it draws in its attributes (data-flock="lamb-white ...",
   data-faces="white x2 ...", data-sheep="0 3 5"). */
"use strict";
(function () {
  const $$ = (sel) => document.querySelectorAll(sel);
  const list = (el, key) => (el.dataset[key] || "").split(" ").filter(Boolean);
  document.getElementById("logo").innerHTML = SF.logo();

  function card(code, cell) { // a sheep card, as the table draws it: the symbol, its word, its points
    const [type, colour] = code.split("-");
    const stars = colour === "black" ? "★★" : "★";
    return `<div class="cell ${colour}" role="img" aria-label="${SF.esc(`${colour} ${SF.typeWord(type)}, ${colour === "black" ? 2 : 1} point${colour === "black" ? "s" : ""}`)}${cell ? ` at ${cell}` : ""}">
      <span class="pts">${stars}</span>${SF.symbol(type)}<span class="word">${SF.esc(SF.typeWord(type))}</span>${cell ? `<span class="coord">${cell}</span>` : ""}</div>`;
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
    el.innerHTML = list(el, "dogs").map((n) => `<span class="rules-dog" role="img" aria-label="a dog card: ${n} swap${n === "1" ? "" : "s"}"><span class="n">${SF.esc(n)}</span>swap${n === "1" ? "" : "s"}</span>`).join("");
  });
  $$("[data-faces]").forEach((el) => {
    el.innerHTML = list(el, "faces").map((f) => `<span class="die">${SF.faceHTML(f)}</span>`).join("");
  });
  $$("[data-face]").forEach((el) => { el.innerHTML = SF.faceHTML(el.dataset.face); });
  const wool = (n) => Array.from({ length: n }, () => "<i></i>").join("");
  $$("[data-sheep]").forEach((el) => {
    el.innerHTML = list(el, "sheep").map((n) => `<div class="sheep" role="img" aria-label="a sheep with ${n} piece${n === "1" ? "" : "s"} of wool">${SF.sheepSVG(+n)}
      <div class="wool">${Array.from({ length: 5 }, (_, k) => `<i class="${k < +n ? "" : "empty"}"></i>`).join("")}</div></div>`).join("");
  });
  $$("[data-wool]").forEach((el) => { el.innerHTML = wool(+el.dataset.wool); el.setAttribute("role", "img"); el.setAttribute("aria-label", `${el.dataset.wool} pieces of wool`); });
  $$("[data-pile]").forEach((el) => { el.innerHTML = wool(+el.dataset.pile); });
  $$("[data-wolf]").forEach((el) => { el.insertAdjacentHTML("afterbegin", SF.COLOURS.gray.icon); });
})();
