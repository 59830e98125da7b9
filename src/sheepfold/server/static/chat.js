/* sheepfold — a table's chat (server/chat.py): each line shown as text (never as HTML), quick
   reactions for phones, and the host's switch. `send` sends a message on the table's socket. */
"use strict";
SF.tableChat = function (box, send) {
  let on = true;
  let lines = [];
  let reactions = [];
  let you = null;
  let host = null;
  const list = SF.el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-label": t("the table's chat"), tabindex: "0" });
  const input = SF.el("input", { type: "text", id: "chat-text", maxlength: "200", autocomplete: "off", "aria-label": t("your message to the table"), placeholder: t("Say something to the table") });
  const form = SF.el("form", { class: "chat-say", id: "chat-form" }, input, SF.el("button", { type: "submit", id: "chat-send", text: t("Send") }));
  const reacts = SF.el("div", { class: "chat-reacts", id: "chat-reacts", role: "group", "aria-label": t("quick reactions") });
  const toggle = SF.el("input", { type: "checkbox", id: "chat-on", checked: true });
  const hostBox = SF.el("label", { class: "chat-switch", id: "chat-switch" }, toggle, " " + t("Chat on (you are the host: you may turn it off)"));
  const note = SF.el("p", { class: "muted", id: "chat-note" });
  const error = SF.el("div", { id: "chat-error", role: "alert" });
  SF.fill(box, SF.el("h2", { text: t("Table chat") }), list, note, form, reacts, error, hostBox);

  form.onsubmit = (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text, ref: "chat" });
    input.value = "";
  };
  toggle.onchange = () => send({ type: "chat_switch", on: toggle.checked, ref: "chat" });

  /* a reaction as the page shows it: its drawing (art.js; an emoji could be a box where no font
     has it), then its words when `words` (a line of the chat), else alone with its words as
     its name (a button). A reaction with no drawing and no words: its text. */
  function reactionNode(react, withWords) {
    const r = reactions.find((x) => x.react === react);
    const span = SF.el("span", { class: "react", dataset: { react } });
    const drawing = SF.art ? SF.art.reaction(react) : "";
    if (drawing) span.innerHTML = drawing;
    if (!r) { if (!drawing) span.append(react); return span; }
    if (withWords || !drawing) span.append(SF.el("span", { class: "react-words", text: (drawing ? " " : "") + r.words }));
    return span;
  }
  /* a line: who said it, the name and the seat (two people may not share a name, but a name
     could pass for another: the seat is what tells them apart), then what they said */
  function lineNode(l) {
    return SF.el("li", { dataset: { n: String(l.n), seat: String(l.seat) } }, SF.el("b", { text: l.who }), " ",
      SF.el("span", { class: "chat-seat", text: t("(seat {n})", { n: l.seat + 1 }) }), ": ",
      l.react ? reactionNode(l.react, true) : SF.el("span", { class: "said", text: l.text }));
  }
  function draw() {
    const seated = you !== null;
    SF.fill(list, lines.map(lineNode));
    list.hidden = !on || !lines.length;
    list.scrollTop = list.scrollHeight;
    form.hidden = reacts.hidden = !on || !seated;
    hostBox.hidden = !seated || you !== host;
    toggle.checked = on;
    note.textContent = !on ? t("The host turned the chat off.") : !seated ? t("Take a seat to chat; you can read along.") : lines.length ? "" : t("Nothing said yet.");
    note.hidden = !note.textContent;
    if (!reacts.childElementCount && reactions.length) {
      SF.fill(reacts, reactions.map((r) => SF.el("button", { type: "button", class: "secondary react", "aria-label": t("react: {words}", { words: r.words }), title: r.words,
        onclick: () => send({ type: "chat", react: r.react, ref: "chat" }) }, reactionNode(r.react, false))));
    }
  }
  draw();
  return {
    /* the server's messages: one new line, or the chat so far (on arrival, after a switch) */
    onMessage(m) {
      if (m.type === "chat") {
        if (!lines.some((l) => l.n === m.line.n)) lines = lines.concat([m.line]).slice(-50);
      } else {
        on = m.on;
        lines = m.lines;
        reactions = m.reactions || reactions;
      }
      draw();
    },
    /* the table changed: who I am, who the host is (the lowest seat a person holds) */
    update(table, seat) {
      const first = table.seats.find((s) => s.kind === "human" && !s.free);
      const h = first ? first.seat : null;
      if (seat === you && h === host) return;
      you = seat;
      host = h;
      draw();
    },
    error(text) {
      SF.fill(error, SF.el("div", { class: "error", text }));
      setTimeout(() => { if (error.textContent === text) SF.fill(error); }, 6000);
    },
  };
};
