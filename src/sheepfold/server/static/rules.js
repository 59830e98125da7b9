/* sheepfold — the lobby's rule editor, built from the game's rules model alone (GET
   /api/rules/GAME: a tree of controls made from its JSON schema). An object is a group of
   fields, a map (a rule set's own verbs) has "add"/"remove" by name, a list (effects, triggers,
   die faces, a board's rows) has rows to add, remove and reorder, and each leaf is a control of
   its kind. Every edit is checked by the server (POST /api/rules/GAME/check); each message is
   shown next to the control its path names (verbs.steal.effects.0.from). The page knows no rule
   and no part of any game: a model's new parts appear by themselves. */
"use strict";
SF.rulesEditor = function (box, onChange) {
  let spec = null; // GET /api/rules/GAME
  let base = {}; // the chosen rule set, every option: the edits are what differs from it
  let values = {}; // the options as edited
  let local = {}; // problems found here, by path: a JSON text that cannot be read, a name taken
  let result = null; // the server's answer for `values`
  let checking = 0; // the number of the check on its way (0: none)
  let timer = null;
  let uid = 0;
  const nodes = new Map(); // a node's id -> { ctl, path }
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const copy = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
  const dotted = (path) => path.join(".");
  const vowel = (noun) => /^[aeiou]/i.test(noun); // English says "an effect", "a verb"
  const addOne = (noun) => (vowel(noun) ? t("+ add an {noun}", { noun }) : t("+ add a {noun}", { noun }));
  const field = (where) => box.querySelector(`[data-field="${CSS.escape(where)}"]`);

  // -- values at a path ------------------------------------------------------------------------
  function get(path) {
    let v = values;
    for (const k of path) { if (v == null) return undefined; v = v[k]; }
    return v;
  }
  /* set the value at `path`; an object's field equal to its default (or unset) is left out,
     as the rule files leave it out, except at the top, where every option is kept */
  function put(path, v, info) {
    let parent = values;
    path.slice(0, -1).forEach((k, i) => { // a part drawn from its default is made when edited
      if (parent[k] == null || typeof parent[k] !== "object") parent[k] = typeof path[i + 1] === "number" ? [] : {};
      parent = parent[k];
    });
    const key = path[path.length - 1];
    let drop = false;
    if (info && path.length > 1 && !Array.isArray(parent) && !info.required) {
      if (v === undefined) drop = true;
      else if ("default" in info) drop = same(v, info.default);
      else drop = v === null;
    }
    if (drop) delete parent[key]; else parent[key] = v;
  }
  /* a value canonical for comparing: nested fields equal to their defaults left out */
  function canon(ctl, v) {
    if (v == null) return v;
    if (ctl.kind === "object" && typeof v === "object" && !Array.isArray(v)) {
      const out = {};
      for (const f of ctl.fields) {
        if (!(f.name in v)) continue;
        const c = canon(f, v[f.name]);
        if (!f.required && (("default" in f && same(c, canon(f, f.default))) || (c === null && !("default" in f)))) continue;
        out[f.name] = c;
      }
      return out;
    }
    if (ctl.kind === "list" && Array.isArray(v)) return v.map((x) => canon(ctl.item, x));
    if (ctl.kind === "map" && typeof v === "object") {
      const out = {};
      for (const k of Object.keys(v)) out[k] = canon(ctl.value, v[k]);
      return out;
    }
    return v;
  }
  /* a new value of a control: an object with its required fields, an empty list or map */
  function fresh(ctl) {
    switch (ctl.kind) {
      case "object": {
        const out = {};
        for (const f of ctl.fields) if (f.required) out[f.name] = "default" in f ? copy(f.default) : fresh(f);
        return out;
      }
      case "list": return [];
      case "map": return {};
      case "choice": return ctl.choices[0];
      case "boolean": return false;
      case "integer": case "number": return ctl.min != null ? ctl.min : 0;
      default: return ctl.kind === "text" ? "" : null;
    }
  }

  // -- drawing -----------------------------------------------------------------------------
  function bounds(ctl) {
    if (ctl.min != null && ctl.max != null) return " " + t("({min} to {max})", { min: ctl.min, max: ctl.max });
    if (ctl.min != null) return " " + t("(at least {n})", { n: ctl.min });
    return ctl.max != null ? " " + t("(at most {n})", { n: ctl.max }) : "";
  }
  /* a key of an option or a part in words: its label, as the server says it (GET
     /api/rules: `names`); a name of the player's own (a verb's) as it is */
  function named(k) { return (spec && spec.names && spec.names[k]) || SF.words(k); }
  /* the words of a control's choice `i` (the server's), else the choice as it is */
  function chosen(ctl, i) { return ctl.words && ctl.words[i] != null ? ctl.words[i] : ctl.choices[i]; }
  function shown(v) { // a value in a line of help
    if (Array.isArray(v)) return v.map(shown).join(", ");
    if (v !== null && typeof v === "object") return Object.keys(v).map((k) => `${SF.words(k).toLowerCase()}: ${shown(v[k])}`).join("; ");
    return v == null ? "" : String(v);
  }
  function register(ctl, path) {
    const id = "rule-" + (++uid);
    nodes.set(id, { ctl, path });
    return id;
  }
  function button(act, id, text, extra) {
    return `<button type="button" class="secondary small" data-act="${act}" data-node="${id}"${extra || ""}>${SF.esc(text)}</button>`;
  }
  function leafHTML(ctl, path, v, placeholder) {
    const id = register(ctl, path);
    const ph = placeholder ? ` placeholder="${SF.esc(placeholder)}"` : "";
    const inner = path.length > 1 ? ` aria-label="${SF.esc(path.slice(1).map((k) => (typeof k === "number" ? t("number {n}", { n: k + 1 }) : named(k))).join(", "))}"` : ""; // a row's or an entry's control: no label of its own
    const at = `id="${id}" data-leaf="${id}"${inner}`;
    switch (ctl.kind) {
      case "integer": case "number":
        return `<input type="number" ${at} step="${ctl.kind === "integer" ? 1 : "any"}"${ctl.min != null ? ` min="${ctl.min}"` : ""}${ctl.max != null ? ` max="${ctl.max}"` : ""} value="${v == null ? "" : SF.esc(v)}"${ph}>`;
      case "boolean":
        return `<input type="checkbox" ${at} ${v ? "checked" : ""}>`;
      case "choice":
        return `<select ${at}>${ctl.nullable ? `<option value="">${t("(unset)")}</option>` : ""}${ctl.choices.map((c, i) => `<option value="${i}" ${same(c, v) ? "selected" : ""}>${SF.esc(chosen(ctl, i))}</option>`).join("")}</select>`;
      case "text": {
        const list = ctl.suggestions && ctl.suggestions.length ? `${id}-words` : "";
        const words = list ? `<datalist id="${list}">${ctl.suggestions.map((w) => `<option value="${SF.esc(w)}">`).join("")}</datalist>` : "";
        return `<input type="text" ${at} value="${SF.esc(v == null ? "" : v)}"${ctl.max_length ? ` maxlength="${ctl.max_length}"` : ""}${list ? ` list="${list}"` : ""}${ph}>${words}`;
      }
      case "choices": // a list of choices: a box to tick for each
        return `<span ${at} class="rule-choices">${ctl.item.choices.map((c, i) => `<label><input type="checkbox" value="${i}" ${(v || []).some((x) => same(x, c)) ? "checked" : ""}> ${SF.esc(SF.words(chosen(ctl.item, i)))}</label>`).join("")}</span>`;
      default:
        return `<textarea ${at} rows="2" spellcheck="false">${SF.esc(v == null ? "" : JSON.stringify(v))}</textarea>`;
    }
  }
  /* one value at `path`: its control, with the entries of a list, a map or an object inside */
  function valueHTML(ctl, path, v, placeholder) {
    const id = register(ctl, path);
    if (ctl.kind === "list" && ctl.item.kind === "choice") return leafHTML(Object.assign({}, ctl, { kind: "choices" }), path, v);
    if (ctl.kind === "object") {
      if (v == null && ctl.nullable) return "";
      if (v == null) v = ctl.default != null ? ctl.default : {}; // drawn from its default
      return `<div class="rule-object">${ctl.fields.map((f) => fieldHTML(f, [...path, f.name], v[f.name])).join("")}</div>`;
    }
    if (ctl.kind === "list") {
      const items = Array.isArray(v) ? v : [];
      const full = ctl.max_items != null && items.length >= ctl.max_items;
      const rows = items.map((x, i) => {
        const here = [...path, i];
        const rid = register(ctl, here);
        return `<li class="rule-row" data-field="${SF.esc(dotted(here))}">
          <div class="rule-row-body">${valueHTML(ctl.item, here, x)}</div>
          <span class="rule-row-tools">${button("up", rid, "↑", ` aria-label="${SF.esc(t("move this {noun} up", { noun: ctl.noun }))}"${i === 0 ? " disabled" : ""}`)}${button("down", rid, "↓", ` aria-label="${SF.esc(t("move this {noun} down", { noun: ctl.noun }))}"${i === items.length - 1 ? " disabled" : ""}`)}${button("remove", rid, "✕ " + t("remove"), ` aria-label="${SF.esc(t("remove this {noun}", { noun: ctl.noun }))}"`)}</span>
          <div class="field-error" role="alert"></div></li>`;
      }).join("");
      return `<ol class="rule-list">${rows}</ol>${button("add", id, addOne(ctl.noun), full ? " disabled" : "")}${full ? ` <span class="muted">${t("(at most {n})", { n: ctl.max_items })}</span>` : ""}`;
    }
    if (ctl.kind === "map") {
      const keys = v && typeof v === "object" ? Object.keys(v) : [];
      const entries = keys.map((k) => {
        const here = [...path, k];
        const eid = register(ctl, here);
        return `<div class="rule-entry" data-field="${SF.esc(dotted(here))}">
          <div class="rule-entry-head"><strong>${SF.esc(SF.words(k))}</strong> ${button("remove", eid, "✕ " + t("remove"), ` aria-label="${SF.esc(t("remove {name}", { name: SF.words(k) }))}"`)}</div>
          <div class="field-error" role="alert"></div>
          ${valueHTML(ctl.value, here, v[k])}</div>`;
      }).join("");
      return `${entries}<div class="rule-add"><input type="text" class="rule-key" data-key="${id}" maxlength="64" aria-label="${SF.esc(t("the new {noun}'s name", { noun: ctl.noun }))}" placeholder="${SF.esc(t("a name for the new {noun}", { noun: ctl.noun }))}">
        ${button("add", id, addOne(ctl.noun))}</div>`;
    }
    return leafHTML(ctl, path, v, placeholder);
  }
  function unsetOf(path) { // what a top-level option left unset amounts to (the server's words)
    if (path.length !== 1) return null;
    return ((result && result.ok && result.unset) || spec.unset || {})[path[0]] || null;
  }
  /* a field of an object (or an option): its label, its value's control, its help and messages */
  function fieldHTML(f, path, v) {
    const id = register(f, path);
    const u = unsetOf(path);
    const example = u ? shown(u[1]) : "";
    const structured = f.kind === "object" || f.kind === "map" || (f.kind === "list" && f.item.kind !== "choice");
    const unset = v == null && f.nullable;
    if (v === undefined && "default" in f) v = f.default; // a field left out: its default
    const help = [(f.description || f.about || "") + (structured ? "" : bounds(f))];
    if (u && f.nullable) help.push(t("unset: {meaning} {example}", { meaning: u[0], example }).trim());
    let tools = "";
    if (f.kind === "object" && f.nullable) {
      tools = unset ? button("set", id, t("+ add {part}", { part: f.label.toLowerCase() })) : button("unset", id, t("✕ remove {part}", { part: f.label.toLowerCase() }));
    }
    if (unset && u && structured && u[1] != null && typeof u[1] === "object") {
      tools += " " + button("example", id, t("start from the example"));
    }
    const body = valueHTML(f, path, v, unset && !structured ? example : "");
    const tag = structured ? "fieldset" : "div";
    const title = structured
      ? `<legend>${SF.esc(f.label)}</legend>`
      : `<label for="">${SF.esc(f.label)}</label>`;
    return `<${tag} class="rule-field rule-${f.kind}" data-field="${SF.esc(dotted(path))}">
      ${title}
      ${body}
      ${tools ? `<span class="rule-tools">${tools}</span>` : ""}
      <span class="help muted">${SF.esc(help.filter(Boolean).join(" — "))}</span>
      <div class="field-error" role="alert"></div></${tag}>`;
  }
  function render() {
    nodes.clear();
    box.innerHTML = spec.fields.map((f) => fieldHTML(f, [f.name], values[f.name])).join("") +
      `<div class="field-error" id="rules-general" role="alert"></div>`;
    // a leaf's label points at its control (drawn after the label's text)
    box.querySelectorAll("div.rule-field > label[for]").forEach((l) => {
      const el = l.parentElement.querySelector(":scope > [data-leaf]");
      if (el) l.htmlFor = el.id; else l.removeAttribute("for");
    });
    showErrors();
  }

  // -- editing -----------------------------------------------------------------------------
  function readLeaf(el) { // the value a leaf control holds; throws the message for bad JSON
    const { ctl } = nodes.get(el.dataset.leaf);
    switch (ctl.kind) {
      case "integer": case "number":
        return el.value === "" ? (ctl.nullable ? null : "") : +el.value;
      case "boolean":
        return el.checked;
      case "choice":
        return el.value === "" ? null : ctl.choices[+el.value];
      case "text":
        if (el.value === "" && ctl.nullable) return null;
        return ctl.numbers && /^\s*-?\d+\s*$/.test(el.value) ? +el.value : el.value;
      case "choices": {
        const picked = [...el.querySelectorAll("input:checked")].map((c) => ctl.item.choices[+c.value]);
        return picked.length || !ctl.nullable ? picked : null;
      }
      default:
        if (el.value.trim() === "") return null;
        try { return JSON.parse(el.value); } catch (e) { throw new Error(t("not valid JSON: {why}", { why: e.message })); }
    }
  }
  function leafEdited(el) {
    const n = nodes.get(el.dataset.leaf);
    const where = dotted(n.path);
    delete local[where];
    let v;
    try { v = readLeaf(el); } catch (e) { local[where] = e.message; schedule(); return; }
    const before = JSON.stringify(values);
    put(n.path, v, n.ctl);
    if (JSON.stringify(values) !== before) schedule(); else showErrors();
  }
  /* a change of shape: an entry added, removed or moved, a part set or unset */
  function act(kind, n, btn) {
    const { ctl, path } = n;
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1];
    if (kind === "add" && ctl.kind === "list") {
      const list = Array.isArray(get(path)) ? get(path) : [];
      put(path, [...list, fresh(ctl.item)], ctl);
    } else if (kind === "add" && ctl.kind === "map") {
      const input = box.querySelector(`[data-key="${btn.dataset.node}"]`);
      const name = input.value.trim();
      const where = dotted(path);
      const map = get(path) && typeof get(path) === "object" ? get(path) : {};
      if (!name) { local[where] = t("give the new {noun} a name", { noun: ctl.noun }); showErrors(); return; }
      if (name in map) { local[where] = t("there is already one named {name}", { name }); showErrors(); return; }
      delete local[where];
      put(path, Object.assign({}, map, { [name]: fresh(ctl.value) }), ctl);
    } else if (kind === "remove") {
      const owner = get(parentPath); // ctl: the list's or the map's
      if (Array.isArray(owner)) owner.splice(key, 1); else delete owner[key];
      if (ctl.nullable && !Object.keys(owner).length) put(parentPath, null, ctl); // unset again
    } else if (kind === "up" || kind === "down") {
      const list = get(parentPath);
      const j = kind === "up" ? key - 1 : key + 1;
      [list[key], list[j]] = [list[j], list[key]];
    } else if (kind === "set") {
      put(path, fresh(ctl), ctl);
    } else if (kind === "unset") {
      put(path, null, ctl);
    } else if (kind === "example") {
      const u = unsetOf(path);
      if (u) put(path, copy(u[1]), ctl);
    }
    // messages of the entries below a changed list or map would name the wrong entries now
    for (const where of Object.keys(local)) if (where.startsWith(dotted(parentPath) + ".")) delete local[where];
    render();
    schedule();
  }
  box.addEventListener("input", (e) => { if (e.target.dataset.leaf || e.target.closest("[data-leaf]")) leafEdited(e.target.closest("[data-leaf]")); });
  box.addEventListener("change", (e) => { if (e.target.closest("[data-leaf]")) leafEdited(e.target.closest("[data-leaf]")); });
  box.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-act]");
    if (!b || b.disabled) return;
    const n = nodes.get(b.dataset.node);
    if (n) act(b.dataset.act, n, b);
  });
  box.addEventListener("keydown", (e) => { // Enter in a new entry's name adds it
    if (e.key !== "Enter" || !e.target.dataset.key) return;
    e.preventDefault();
    const b = box.querySelector(`button[data-act="add"][data-node="${e.target.dataset.key}"]`);
    if (b) b.click();
  });

  // -- checking ----------------------------------------------------------------------------
  function schedule() {
    result = null;
    checking = (checking || 0) + 1;
    const mine = checking;
    changed();
    clearTimeout(timer);
    timer = setTimeout(() => {
      const body = JSON.stringify(values);
      const limits = spec.limits || {};
      if (limits.max_bytes && new TextEncoder().encode(body).length > limits.max_bytes) {
        // the rule files' cap, said here as the server would say it (nothing is sent)
        if (mine !== checking) return;
        checking = 0;
        result = { ok: false, errors: [{ field: "", where: "", message: limits.too_big }] };
        showErrors();
        changed();
        return;
      }
      send(mine, body, "application/json");
    }, 250);
  }
  async function send(mine, body, type) {
    let r;
    try {
      r = await SF.api(`/api/rules/${encodeURIComponent(spec.game)}/check?file=1`, { method: "POST", body, headers: { "Content-Type": type } });
    } catch (e) {
      r = { ok: false, errors: [{ field: "", where: "", message: e.message }] };
    }
    if (mine !== checking) return null; // an answer to older edits
    checking = 0;
    result = r;
    showErrors();
    changed();
    return r;
  }
  /* each message next to the control its path names; a path with no control of its own (an
     entry removed since, a part drawn as one text) goes to the nearest control above it */
  function showErrors() {
    box.querySelectorAll(".field-error").forEach((el) => { el.innerHTML = ""; });
    const say = (where, text) => {
      const parts = where ? where.split(".") : [];
      let el = null;
      let rest = [];
      while (parts.length && !(el = field(parts.join(".")))) rest.unshift(parts.pop());
      const target = (el && el.querySelector(":scope > .field-error")) || box.querySelector("#rules-general");
      const what = rest.length ? `${rest.join(".")}: ${text}` : text;
      target.insertAdjacentHTML("beforeend", `<div class="error">${SF.esc(what)}</div>`);
    };
    for (const [where, text] of Object.entries(local)) say(where, text);
    if (!result || result.ok) return;
    for (const e of result.errors) say(e.where, e.message);
  }
  function changed() { if (onChange) onChange(); }

  return {
    /* the game's options (GET /api/rules/GAME) */
    setSpec(s) { spec = s; },
    spec() { return spec; },
    values() { return Object.assign({}, values); },
    /* start from a rule set (every option; the rulebook's when none): no edits yet */
    load(rules, edits) {
      base = copy(Object.assign({}, spec.rulebook, rules || {}));
      values = copy(Object.assign({}, base, edits || {}));
      local = {};
      result = null;
      render();
      schedule();
    },
    /* the options that differ from the chosen rule set */
    overrides() {
      const out = {};
      for (const f of spec.fields) {
        const k = f.name;
        if (k in values && !same(canon(f, values[k]), canon(f, base[k]))) out[k] = values[k];
      }
      return out;
    },
    checking() { return checking !== 0; },
    valid() { return !!(result && result.ok) && !Object.keys(local).length; },
    toml() { return result && result.ok ? result.toml : null; },
    /* a rule-set file's text (.toml or .json), read by the server as a rule file (on the rule set
       its "from" names, else the game's default rules), every option in the form, checked as any edit; a text that is no rule set at all is said */
    async upload(name, text) {
      const type = /\.json$/i.test(name) ? "application/json" : "application/toml";
      let r;
      try {
        r = await SF.api(`/api/rules/${encodeURIComponent(spec.game)}/check?file=1`, { method: "POST", body: text, headers: { "Content-Type": type } });
      } catch (e) {
        r = { ok: false, input: null, detail: e.message };
      }
      const loaded = r.ok ? r.rules : r.input;
      if (loaded) this.load(spec.rulebook, loaded);
      else box.querySelector("#rules-general").innerHTML = `<div class="error">${SF.esc(name + ": " + r.detail)}</div>`;
      return !!loaded;
    },
  };
};
