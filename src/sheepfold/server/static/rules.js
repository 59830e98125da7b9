/* sheepfold — the lobby's rule editor: one form control per option of the game's rules model
   (GET /api/rules/GAME says which: its kind, bounds, choices, description), every edit checked
   by the server (POST /api/rules/GAME/check), its messages shown next to the option they name.
   The page knows no rule of its own. */
"use strict";
SF.rulesEditor = function (box, onChange) {
  let spec = null; // GET /api/rules/GAME
  let base = {}; // the chosen rule set, every option: the edits are what differs from it
  let values = {}; // the options as edited
  let local = {}; // options whose text cannot be read at all (JSON): name -> message
  let result = null; // the server's answer for `values`
  let checking = 0; // the number of the check on its way (0: none)
  let timer = null;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const id = (name) => "rule-" + name.replace(/[^A-Za-z0-9_-]/g, "_");
  const field = (name) => box.querySelector(`[data-field="${CSS.escape(name)}"]`);

  // -- one control per kind ----------------------------------------------------------------
  function bounds(ctl) {
    if (ctl.min != null && ctl.max != null) return ` (${ctl.min} to ${ctl.max})`;
    if (ctl.min != null) return ` (at least ${ctl.min})`;
    return ctl.max != null ? ` (at most ${ctl.max})` : "";
  }
  function listText(v) { return Array.isArray(v) ? v.join(", ") : ""; }
  function controlHTML(ctl, cid, v, placeholder) {
    const ph = placeholder ? ` placeholder="${SF.esc(placeholder)}"` : "";
    switch (ctl.kind) {
      case "integer": case "number":
        return `<input type="number" id="${cid}" step="${ctl.kind === "integer" ? 1 : "any"}"${ctl.min != null ? ` min="${ctl.min}"` : ""}${ctl.max != null ? ` max="${ctl.max}"` : ""} value="${v == null ? "" : SF.esc(v)}"${ph}>`;
      case "boolean":
        return `<input type="checkbox" id="${cid}" ${v ? "checked" : ""}>`;
      case "choice":
        return `<select id="${cid}">${ctl.nullable ? `<option value="">(unset)</option>` : ""}${ctl.choices.map((c, i) => `<option value="${i}" ${same(c, v) ? "selected" : ""}>${SF.esc(c)}</option>`).join("")}</select>`;
      case "text":
        return `<input type="text" id="${cid}" value="${SF.esc(v == null ? "" : v)}"${ctl.max_length ? ` maxlength="${ctl.max_length}"` : ""}${ph}>`;
      case "list":
        if (ctl.item.kind === "choice") {
          return `<span id="${cid}" class="rule-choices">${ctl.item.choices.map((c, i) => `<label><input type="checkbox" value="${i}" ${(v || []).some((x) => same(x, c)) ? "checked" : ""}> ${SF.esc(c)}</label>`).join("")}</span>`;
        }
        return `<input type="text" class="rule-list" id="${cid}" value="${SF.esc(listText(v))}"${ph || ` placeholder="values separated by commas"`}>`;
      case "map":
        return `<span id="${cid}" class="rule-map">${Object.keys(v || {}).map((k, i) => `<label data-key="${SF.esc(k)}">${SF.esc(k)} ${controlHTML(ctl.value, `${cid}--${i}`, v[k])}</label>`).join("")}</span>`;
      default:
        return `<textarea id="${cid}" rows="2" spellcheck="false">${SF.esc(v == null ? "" : JSON.stringify(v))}</textarea>`;
    }
  }
  function item(ctl, text) { // one item of a list, as typed: a number where one is expected
    const t = text.trim();
    return (ctl.kind === "integer" || ctl.kind === "number") && t !== "" && !isNaN(+t) ? +t : t;
  }
  function read(ctl, cid) { // the value a control holds; throws the message for unreadable JSON
    const el = box.querySelector("#" + CSS.escape(cid));
    switch (ctl.kind) {
      case "integer": case "number":
        return el.value === "" ? (ctl.nullable ? null : "") : +el.value;
      case "boolean":
        return el.checked;
      case "choice":
        return el.value === "" ? null : ctl.choices[+el.value];
      case "text":
        return el.value === "" && ctl.nullable ? null : el.value;
      case "list":
        if (ctl.item.kind === "choice") {
          const picked = [...el.querySelectorAll("input:checked")].map((c) => ctl.item.choices[+c.value]);
          return picked.length || !ctl.nullable ? picked : null;
        }
        if (el.value.trim() === "") return ctl.nullable ? null : [];
        return el.value.split(",").map((t) => item(ctl.item, t));
      case "map": {
        const out = {};
        el.querySelectorAll(":scope > label").forEach((l, i) => { out[l.dataset.key] = read(ctl.value, `${cid}--${i}`); });
        return out;
      }
      default:
        if (el.value.trim() === "") return null;
        try { return JSON.parse(el.value); } catch (e) { throw new Error("not valid JSON: " + e.message); }
    }
  }

  // -- the form --------------------------------------------------------------------------
  function unsetText(name) { // what an option left unset amounts to (the server's words)
    const u = ((result && result.ok && result.unset) || spec.unset || {})[name];
    return u ? u : null;
  }
  function render() {
    box.innerHTML = spec.fields.map((f) => {
      const u = unsetText(f.name);
      const example = u ? (Array.isArray(u[1]) ? listText(u[1]) : String(u[1] == null ? "" : u[1])) : "";
      const ph = values[f.name] == null ? example : "";
      const help = f.description + bounds(f) + (u && f.nullable ? ` — unset: ${u[0]} ${example}` : "");
      return `<div class="rule-field" data-field="${SF.esc(f.name)}">
        <label for="${id(f.name)}"><code>${SF.esc(f.name)}</code></label>
        ${controlHTML(f, id(f.name), values[f.name], ph)}
        <span class="help muted">${SF.esc(help)}</span>
        <div class="field-error" role="alert"></div></div>`;
    }).join("") + `<div class="field-error" id="rules-general" role="alert"></div>`;
    box.oninput = box.onchange = (e) => { if (e.target.closest("[data-field]")) edited(); };
    showErrors();
  }
  function edited() {
    const before = JSON.stringify([values, local]);
    local = {};
    for (const f of spec.fields) {
      try { values[f.name] = read(f, id(f.name)); } catch (e) { local[f.name] = e.message; }
    }
    if (JSON.stringify([values, local]) !== before) schedule();
  }
  function schedule() {
    result = null;
    checking = (checking || 0) + 1;
    const mine = checking;
    changed();
    clearTimeout(timer);
    timer = setTimeout(() => send(mine, JSON.stringify(values), "application/json"), 250);
  }
  async function send(mine, body, type) {
    let r;
    try {
      r = await SF.api(`/api/rules/${encodeURIComponent(spec.game)}/check`, { method: "POST", body, headers: { "Content-Type": type } });
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
  function showErrors() {
    box.querySelectorAll(".field-error").forEach((el) => { el.innerHTML = ""; });
    const put = (name, text) => {
      const el = (name && field(name) && field(name).querySelector(".field-error")) || box.querySelector("#rules-general");
      el.insertAdjacentHTML("beforeend", `<div class="error">${SF.esc(text)}</div>`);
    };
    for (const [name, text] of Object.entries(local)) put(name, text);
    if (!result || result.ok) return;
    for (const e of result.errors) {
      const known = spec.fields.some((f) => f.name === e.field);
      const where = known ? e.where.slice(e.field.length + 1) : e.where; // below the option
      put(known ? e.field : "", where ? `${where}: ${e.message}` : e.message);
    }
  }
  function changed() { if (onChange) onChange(); }

  return {
    /* the game's options (GET /api/rules/GAME) */
    setSpec(s) { spec = s; },
    spec() { return spec; },
    values() { return Object.assign({}, values); },
    /* start from a rule set (every option; the rulebook's when none): no edits yet */
    load(rules, edits) {
      base = Object.assign({}, spec.rulebook, rules || {});
      values = Object.assign({}, base, edits || {});
      local = {};
      result = null;
      render();
      schedule();
    },
    /* the options that differ from the chosen rule set */
    overrides() {
      const out = {};
      for (const k of Object.keys(values)) if (!same(values[k], base[k])) out[k] = values[k];
      return out;
    },
    checking() { return checking !== 0; },
    valid() { return !!(result && result.ok) && !Object.keys(local).length; },
    toml() { return result && result.ok ? result.toml : null; },
    /* a rule-set file's text (.toml or .json), read by the server: its options in the form,
       on top of the rulebook, checked as any edit; a text that is no rule set at all is said */
    async upload(name, text) {
      const type = /\.json$/i.test(name) ? "application/json" : "application/toml";
      let r;
      try {
        r = await SF.api(`/api/rules/${encodeURIComponent(spec.game)}/check`, { method: "POST", body: text, headers: { "Content-Type": type } });
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
