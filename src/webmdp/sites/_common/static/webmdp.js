// webmdp dispatch script: every bound element posts its semantic action to the session's
// dispatch endpoint; the server applies the MDP transition and returns the re-rendered view.
(function () {
  "use strict";
  const body = document.body;
  const base = body.dataset.base;
  const state = (window.__webmdp = { pending: 0, version: Number(body.dataset.version), errors: 0 });
  let queue = Promise.resolve();

  function params(el) {
    try { return JSON.parse(el.dataset.params || "{}"); } catch (e) { return {}; }
  }

  function toast(msg) {
    const t = document.getElementById("toast");
    if (!t) return;
    t.textContent = msg;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.hidden = true; }, 2500);
  }

  // A cross-site page changes site: the new site's stylesheet replaces the old one, and the
  // page counts as pending until it has loaded (a driver must not measure an unstyled page).
  function swapStylesheet(sheet) {
    const css = document.getElementById("site-css");
    if (!css || !sheet || css.dataset.sheet === sheet) return;
    state.pending += 1;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.dataset.sheet = sheet;
    link.href = "/static/" + sheet + ".css";
    const done = function () {
      css.remove();
      link.id = "site-css";
      window.dispatchEvent(new Event("resize"));  // widgets that measure themselves (a map)
      state.pending -= 1;
    };
    link.onload = done;
    link.onerror = done;
    css.id = "";
    css.after(link);
  }

  function apply(data, quiet) {
    if (typeof data.version === "number") { state.version = data.version; body.dataset.version = data.version; }
    if (data.error) { state.errors += 1; toast(data.error); }
    if (!quiet && typeof data.html === "string") {
      document.getElementById("app").innerHTML = data.html;
      body.dataset.surface = data.surface;
      swapStylesheet(data.stylesheet);
      if (data.title) document.title = data.title;
      if (data.url && data.url !== location.pathname) history.pushState({ v: state.version }, "", data.url);
      window.scrollTo(0, 0);
    }
  }

  function dispatch(action, p, quiet) {
    state.pending += 1;
    queue = queue.then(function () {
      return fetch(base + "/dispatch", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: action, params: p }),
      }).then(function (r) { return r.json(); })
        .then(function (data) { apply(data, quiet); })
        .catch(function (err) { state.errors += 1; toast("Network error: " + err); })
        .finally(function () { state.pending -= 1; });
    });
  }
  window.__webmdp.dispatch = dispatch;

  function formParams(form) {
    const p = params(form);
    for (const el of form.querySelectorAll("input[name], select[name], textarea[name]")) {
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) continue;
      let v = el.value;
      if (v === "") continue;
      if (el.dataset.type === "float") v = parseFloat(v);
      else if (el.dataset.type === "int") v = parseInt(v, 10);
      if (typeof v === "number" && isNaN(v)) continue;
      p[el.name] = v;
    }
    return p;
  }

  document.addEventListener("click", function (ev) {
    const el = ev.target.closest("[data-action]");
    if (!el || el.tagName === "FORM" || el.matches("input, select, textarea")) return;
    ev.preventDefault();
    dispatch(el.dataset.action, params(el), el.hasAttribute("data-quiet"));
  });

  document.addEventListener("submit", function (ev) {
    const form = ev.target.closest("form[data-action]");
    if (!form) return;
    ev.preventDefault();
    dispatch(form.dataset.action, formParams(form), form.hasAttribute("data-quiet"));
  });

  document.addEventListener("change", function (ev) {
    const el = ev.target;
    if (!el.matches("input[data-action], select[data-action], textarea[data-action]")) return;
    const p = params(el);
    p[el.dataset.param || el.name] = el.value;
    dispatch(el.dataset.action, p, el.hasAttribute("data-quiet"));
  });

  // Back / forward: ask the server for the site's semantic back action (if any) and re-render
  // from the MDP state, so page and MDP never disagree.
  window.addEventListener("popstate", function () {
    state.pending += 1;
    queue = queue.then(function () {
      return fetch(base + "/back", { method: "POST" })
        .then(function (r) { return r.json(); })
        .then(function (data) { data.url = null; apply(data, false); })
        .finally(function () { state.pending -= 1; });
    });
  });
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) location.reload(); });
})();
