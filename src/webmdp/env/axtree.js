// Builds the accessibility observation: interactive elements get stable ids
// (data-webmdp-eid) and bounding boxes; visible text is kept for reading.
() => {
  const out = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const interactive = "a, button, input, select, textarea, summary, [data-action], [role=button], [role=link]";
  let next = 1;
  // The element's box if it is visible, else null. checkVisibility with these options already
  // rules out display:none, visibility:hidden and opacity 0 (its own or an ancestor's), so
  // computed styles are read only where it is missing.
  function visibleBox(el) {
    if (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return null;
    const closed = el.closest("details:not([open])");
    if (closed && !el.closest("summary")) return null;
    if (!el.checkVisibility) {
      const s = getComputedStyle(el);
      if (s.visibility === "hidden" || s.display === "none" || Number(s.opacity) === 0) return null;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r : null;
  }
  function roleOf(el) {
    const r = el.getAttribute("role");
    if (r) return r;
    const t = el.tagName;
    if (t === "A") return "link";
    if (t === "BUTTON") return "button";
    if (t === "SELECT") return "combobox";
    if (t === "SUMMARY") return "button";
    if (t === "TEXTAREA") return "textbox";
    if (t === "INPUT") {
      const ty = (el.type || "text").toLowerCase();
      if (ty === "checkbox") return "checkbox";
      if (ty === "radio") return "radio";
      if (ty === "submit" || ty === "button") return "button";
      return "textbox";
    }
    if (/^H[1-6]$/.test(t)) return "heading";
    if (t === "IMG") return "img";
    return el.hasAttribute("data-action") ? "button" : "text";
  }
  function nameOf(el) {
    const aria = el.getAttribute("aria-label");
    if (aria) return aria.trim();
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") {
      if (el.labels && el.labels.length) return el.labels[0].innerText.trim();
      return (el.getAttribute("placeholder") || el.name || "").trim();
    }
    return (el.innerText || el.value || el.getAttribute("title") || "").replace(/\s+/g, " ").trim();
  }
  // Walks one root in document order, except that below an interactive element (other than a
  // form) nothing is kept: its subtree is skipped whole. ``noise`` names the noise element
  // (webmdp.env.noise) the root is, and marks its nodes.
  function walk(root, noise) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    function after(skipChildren) {
      if (!skipChildren) return walker.nextNode();
      for (;;) {
        const sib = walker.nextSibling();
        if (sib) return sib;
        if (!walker.parentNode()) return null;
      }
    }
    let el = walker.currentNode;
    while (el) {
      const r = visibleBox(el);
      let skip = false;
      if (r && el.matches(interactive)) {
        el.setAttribute("data-webmdp-eid", String(next));
        const form = el.closest("form[data-action]");
        const field = el.tagName === "INPUT" || el.tagName === "TEXTAREA";
        const node = {
          id: next, role: roleOf(el), tag: el.tagName.toLowerCase(), name: nameOf(el).slice(0, 160),
          value: field ? el.value : null,
          x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height,
          in_viewport: r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw,
          action: el.getAttribute("data-action") || (form && el.name ? form.getAttribute("data-action") : null),
          params: el.getAttribute("data-params"),
          field: field ? (el.dataset.param || el.name || null) : null,
        };
        if (form && el.matches("button:not([type]), button[type=submit], input[type=submit]"))
          node.submits = form.getAttribute("data-action");  // how a form of text areas is sent
        if (el.tagName === "SUMMARY" && el.parentElement) {
          const d = el.parentElement;
          node.expanded = d.open;
          node.menu = [...new Set([...d.querySelectorAll("[data-action]")].map(x => x.dataset.action))];
        }
        if (noise) {
          node.noise = noise;
          if (el.hasAttribute("data-noise-close")) node.dismisses = true;
        }
        out.push(node);
        next += 1;
        skip = el.tagName !== "FORM";
      } else if (r && noise && el === root) {  // the noise element itself: its box and label
        out.push({ id: null, role: roleOf(el), name: (el.getAttribute("aria-label") || "").trim(),
                   noise, modal: el.getAttribute("aria-modal") === "true",
                   x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height,
                   in_viewport: r.bottom > 0 && r.top < vh });
      } else if (r) {
        let text = "";
        for (const n of el.childNodes) if (n.nodeType === 3) text += n.textContent;
        text = text.replace(/\s+/g, " ").trim();
        if (text) {
          const node = { id: null, role: roleOf(el), name: text.slice(0, 300), x: r.left + r.width / 2,
                         y: r.top + r.height / 2, w: r.width, h: r.height,
                         in_viewport: r.bottom > 0 && r.top < vh };
          if (noise) node.noise = noise;
          out.push(node);
        }
      }
      el = after(skip);
    }
  }
  walk(document.getElementById("app") || document.body, null);
  // Noise (outside #app, only when the env injects it): an agent sees and can close it.
  for (const root of document.querySelectorAll("body > [data-webmdp-noise]:not([aria-hidden=true])"))
    walk(root, root.getAttribute("data-webmdp-noise"));
  return out;
}
