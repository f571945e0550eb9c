// Real-web noise (webmdp.env.noise): a cookie banner, a promotional modal, a newsletter
// slide-in and a slow decorative image, appended to <body> outside #app. The same text runs on
// every page of every episode; the env says what to show through sync() in the round trip that
// observes. Noise never carries data-action, so no click on it reaches the MDP.
(() => {
  if (window.__webmdpNoise) return;
  const shown = new Map(), dismissed = new Set(), timers = new Map();
  let hits = [];
  const CSS = `
.webmdp-noise { position: fixed; z-index: 2147483000; font: 15px/1.4 system-ui, sans-serif;
  box-sizing: border-box; color: #111; }
.webmdp-noise button { font: inherit; cursor: pointer; border-radius: 6px; padding: 8px 16px;
  border: 1px solid #888; background: #fff; color: #111; }
.webmdp-noise-banner { left: 0; right: 0; bottom: 0; height: 84px; padding: 0 32px;
  display: flex; align-items: center; gap: 16px; background: #1f2937; color: #f9fafb; }
.webmdp-noise-banner p { margin: 0; max-width: 640px; }
.webmdp-noise-banner .primary { background: #2563eb; color: #fff; border-color: #2563eb; }
.webmdp-noise-modal { inset: 0; background: rgba(0, 0, 0, 0.45); z-index: 2147483100;
  display: flex; align-items: center; justify-content: center; }
.webmdp-noise-modal .box { position: relative; width: 440px; padding: 32px; background: #fff;
  border-radius: 12px; box-shadow: 0 12px 40px rgba(0, 0, 0, 0.3); text-align: center; }
.webmdp-noise-modal .x, .webmdp-noise-slide .x { position: absolute; top: 6px; right: 6px;
  padding: 2px 10px; border: none; font-size: 22px; background: transparent; }
.webmdp-noise-modal h2 { margin: 0 0 8px; font-size: 22px; }
.webmdp-noise-slide { right: 16px; bottom: 100px; width: 320px; padding: 20px 36px 20px 20px;
  background: #fefce8; border: 1px solid #ca8a04; border-radius: 10px;
  box-shadow: 0 6px 24px rgba(0, 0, 0, 0.2); }
.webmdp-noise-slide p { margin: 0; }
.webmdp-noise-image { left: 16px; bottom: 100px; width: 96px; height: 64px;
  pointer-events: none; background: #eee; border-radius: 6px; overflow: hidden; }
.webmdp-noise-image img { width: 100%; height: 100%; display: block; }`;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  }
  function closer(label, cls, aria) {
    const b = el("button", { type: "button", "data-noise-close": "" , class: cls || "" }, label);
    if (aria) b.setAttribute("aria-label", aria);
    return b;
  }
  const BUILD = {
    "cookie-banner": () => {
      const root = el("div", { role: "dialog", "aria-label": "Cookie consent",
                               class: "webmdp-noise webmdp-noise-banner" });
      root.append(el("p", {}, "We use cookies to improve your experience and to show you " +
                               "relevant offers. You can change your choice at any time."),
                  closer("Accept all", "primary"), closer("Reject"));
      return root;
    },
    "promo-modal": () => {
      const root = el("div", { role: "dialog", "aria-modal": "true", "aria-label": "Special offer",
                               class: "webmdp-noise webmdp-noise-modal" });
      const box = el("div", { class: "box" });
      box.append(closer("\u00d7", "x", "Close"), el("h2", {}, "Get 10% off today"),
                 el("p", {}, "Join our members' club for exclusive deals."),
                 closer("No thanks"));
      root.append(box);
      return root;
    },
    "newsletter": () => {
      const root = el("div", { role: "dialog", "aria-label": "Newsletter",
                               class: "webmdp-noise webmdp-noise-slide" });
      root.append(closer("\u00d7", "x", "Close newsletter"),
                  el("p", {}, "Stay in the loop: get our weekly newsletter."));
      return root;
    },
    "slow-image": () => {
      const root = el("div", { "aria-hidden": "true", class: "webmdp-noise webmdp-noise-image" });
      root.append(el("img", { alt: "", src: "/__webmdp_noise/promo.png" }));
      return root;
    },
  };

  function app() { return document.getElementById("app"); }
  function show(name) {
    if (shown.has(name) || dismissed.has(name) || !BUILD[name] || !document.body) return;
    if (!document.getElementById("webmdp-noise-css")) {
      const style = el("style", { id: "webmdp-noise-css" });
      style.textContent = CSS;
      document.head.append(style);
    }
    const root = BUILD[name]();
    root.setAttribute("data-webmdp-noise", name);
    document.body.append(root);
    shown.set(name, root);
    if (name === "promo-modal" && app()) app().inert = true;  // it blocks the page until closed
  }
  function dismiss(name) {
    const root = shown.get(name);
    if (!root) return;
    root.remove();
    shown.delete(name);
    dismissed.add(name);
    if (name === "promo-modal" && app()) app().inert = false;
  }

  document.addEventListener("click", (ev) => {
    const root = ev.target instanceof Element && ev.target.closest("[data-webmdp-noise]");
    if (!root) return;
    const name = root.getAttribute("data-webmdp-noise");
    hits.push(name);
    if (ev.target.closest("[data-noise-close]")) dismiss(name);
  }, true);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && shown.has("promo-modal")) {
      hits.push("promo-modal");
      dismiss("promo-modal");
    }
  }, true);

  window.__webmdpNoise = {
    // show: names due now; at: names due at a wall-clock time (epoch ms; the page's clock)
    sync(cfg) {
      for (const name of cfg.show || []) show(name);
      for (const [name, at] of Object.entries(cfg.at || {})) {
        if (shown.has(name) || dismissed.has(name) || timers.has(name)) continue;
        timers.set(name, setTimeout(() => show(name), Math.max(0, at - Date.now())));
      }
    },
    // what happened since the last report: input that landed on noise, what is shown
    report() {
      const out = { hits, shown: [...shown.keys()], dismissed: [...dismissed] };
      hits = [];
      return out;
    },
  };
})();
