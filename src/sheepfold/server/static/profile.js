/* sheepfold — a profile's page: /profile (this device's: make it, rename it, the transfer link)
   or /players/ID (anyone's: name, ratings, games). A transfer link (/profile#secret=...) is kept
   on this device and taken out of the address at once. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  $("logo").innerHTML = SF.logo();
  const linked = new URLSearchParams(location.hash.slice(1)).get("secret");
  if (linked) {
    SF.keepProfile(linked);
    history.replaceState(null, "", location.pathname + location.search);
  }
  const parts = location.pathname.split("/");
  const publicId = parts[1] === "players" ? decodeURIComponent(parts[2] || "") : null;

  function showError(text) { SF.fill($("profile-error"), text ? SF.el("div", { class: "error", text }) : null); }

  function render(p, mine) {
    document.title = `${p.name} — sheepfold`;
    $("title").textContent = mine ? t("Your profile") : p.name;
    $("make").hidden = true;
    $("ratings-box").hidden = $("history-box").hidden = false;
    SF.fill($("ratings"), p.ratings.length ? SF.ratingRows(p.ratings)
      : SF.el("li", { class: "muted", text: t("No rating yet: a game counts once two people with a profile play it to the end.") }));
    // the games finished of those played with another person (the server's words)
    $("reliability").textContent = p.reliability.words || "";
    SF.fill($("history"), p.history.length ? p.history.map(SF.historyItem)
      : SF.el("li", { class: "muted", text: t("No finished game yet.") }));
    if (!mine) return;
    $("me").hidden = false;
    $("me-name").textContent = p.name;
    $("rename").value = p.name;
    $("transfer").value = SF.transferLink(SF.profileSecret());
    $("public-link").href = `/players/${encodeURIComponent(p.id)}`;
    localStorage.setItem(SF.PROFILE_NAME_KEY, p.name);
  }

  async function load() {
    showError("");
    if (publicId !== null) {
      try { render(await SF.api(`/api/profiles/${encodeURIComponent(publicId)}`), false); }
      catch (e) { showError(e.message); }
      return;
    }
    if (!SF.profileSecret()) { $("me").hidden = true; $("make").hidden = false; return; }
    try { render(await SF.api("/api/profiles/me", { headers: SF.profileHeaders() }), true); }
    catch (e) { showError(e.message); $("make").hidden = false; }
  }

  $("make-btn").onclick = async () => {
    const name = $("make-name").value.trim();
    if (!name) { showError(t("type your name first")); $("make-name").focus(); return; }
    try {
      const p = await SF.api("/api/profiles", { method: "POST", body: { name } });
      SF.keepProfile(p.secret, p.name);
      await load();
    } catch (e) { showError(e.message); }
  };
  $("rename-btn").onclick = async () => {
    try {
      render(await SF.api("/api/profiles/me", { method: "PATCH", headers: SF.profileHeaders(), body: { name: $("rename").value.trim() } }), true);
      showError("");
    } catch (e) { showError(e.message); }
  };
  $("copy").onclick = async () => {
    $("transfer").select();
    try { await navigator.clipboard.writeText($("transfer").value); $("copied").textContent = t("copied"); }
    catch (e) { $("copied").textContent = t("selected: copy it with your device's copy command"); }
  };
  $("forget").onclick = () => {
    if (!confirm(t("Forget your profile on this device? Keep its transfer link to get it back."))) return;
    SF.forgetProfile();
    $("me").hidden = $("ratings-box").hidden = $("history-box").hidden = true;
    load();
  };
  load();
})();
