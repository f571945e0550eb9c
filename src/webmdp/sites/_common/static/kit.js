// Toolkit widgets that change only what is typed in a form (never the MDP): date pickers,
// range sliders, steppers and choice buttons. The bound form's submit sends the values.
// Then page-state widgets (never the MDP either): the photo carousel and its preview.
(function () {
  "use strict";
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
                  "September", "October", "November", "December"];
  function pad(n) { return String(n).padStart(2, "0"); }
  function iso(y, m, d) { return y + "-" + pad(m + 1) + "-" + pad(d); }
  function parse(v) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v || "");
    return m ? { y: +m[1], m: +m[2] - 1 } : null;
  }
  function close(root) { const p = root.querySelector(".kit-datepicker"); if (p) p.remove(); }
  function draw(root, input, y, m) {
    close(root);
    const box = document.createElement("div");
    box.className = "kit-datepicker";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Choose a date");
    const head = document.createElement("div");
    head.className = "kit-dp-head";
    head.innerHTML = '<button type="button" class="kit-dp-nav" data-dp="-1" aria-label="Previous month">&lsaquo;</button>' +
      "<span>" + MONTHS[m] + " " + y + '</span><button type="button" class="kit-dp-nav" data-dp="1" aria-label="Next month">&rsaquo;</button>';
    box.appendChild(head);
    const grid = document.createElement("div");
    grid.className = "kit-dp-grid";
    for (const d of ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]) {
      const c = document.createElement("span"); c.className = "kit-dp-dow"; c.textContent = d; grid.appendChild(c);
    }
    const first = new Date(Date.UTC(y, m, 1)).getUTCDay();
    const days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    for (let i = 0; i < first; i++) grid.appendChild(document.createElement("span"));
    for (let d = 1; d <= days; d++) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "kit-dp-day"; b.textContent = d; b.dataset.date = iso(y, m, d);
      b.setAttribute("aria-label", MONTHS[m] + " " + d + ", " + y);
      if (input.value === b.dataset.date) b.classList.add("is-on");
      grid.appendChild(b);
    }
    box.appendChild(grid);
    box.dataset.y = y; box.dataset.m = m;
    root.appendChild(box);
  }
  document.addEventListener("click", function (ev) {
    const opener = ev.target.closest("[data-datepicker-open]");
    if (opener) {
      const root = opener.closest("[data-datepicker]");
      const input = document.getElementById(opener.dataset.datepickerOpen);
      if (root.querySelector(".kit-datepicker")) { close(root); return; }
      const at = parse(input.value) || parse(input.dataset.min) || { y: new Date().getFullYear(), m: new Date().getMonth() };
      draw(root, input, at.y, at.m);
      return;
    }
    const nav = ev.target.closest("[data-dp]");
    if (nav) {
      const box = nav.closest(".kit-datepicker"), root = box.parentElement;
      const input = root.querySelector("input.kit-date-input");
      let y = +box.dataset.y, m = +box.dataset.m + +nav.dataset.dp;
      if (m < 0) { m = 11; y -= 1; } else if (m > 11) { m = 0; y += 1; }
      draw(root, input, y, m);
      return;
    }
    const day = ev.target.closest(".kit-dp-day");
    if (day) {
      const root = day.closest("[data-datepicker]");
      const input = root.querySelector("input.kit-date-input");
      input.value = day.dataset.date;
      close(root);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    const step = ev.target.closest("[data-step]");
    if (step) {
      const input = document.getElementById(step.dataset.for);
      const lo = Number(input.min || -Infinity), hi = Number(input.max || Infinity);
      input.value = Math.min(hi, Math.max(lo, (Number(input.value) || 0) + Number(step.dataset.step)));
      return;
    }
    const choice = ev.target.closest(".kit-choice");
    if (choice) {
      const set = choice.closest("[data-choice]");
      document.getElementById(set.dataset.choice).value = choice.dataset.value;
      for (const b of set.querySelectorAll(".kit-choice")) {
        const on = b === choice; b.classList.toggle("is-on", on); b.setAttribute("aria-pressed", on ? "true" : "false");
      }
      return;
    }
    for (const open of document.querySelectorAll(".kit-datepicker")) {
      if (!open.parentElement.contains(ev.target)) open.remove();
    }
  });
  document.addEventListener("input", function (ev) {
    const el = ev.target;
    if (el.matches("input[type=range][data-sync]")) {
      const target = document.getElementById(el.dataset.sync);
      if (target) target.value = el.value;
    }
  });
})();

// kit.carousel: arrows and dots show one slide ("n of N"); "Enlarge" opens the slide shown in
// a preview (a dialog over the page) with zoom 100-300%, paging and Close / Escape.
(function () {
  "use strict";
  const ZOOMS = [100, 150, 200, 300];
  function slides(c) { return Array.from(c.querySelectorAll(":scope > .kit-carousel-slide")); }
  function current(c) { return Math.max(0, slides(c).findIndex(function (s) { return !s.hidden; })); }
  function show(c, i) {
    const all = slides(c), n = all.length, k = ((i % n) + n) % n;
    all.forEach(function (s, j) { s.hidden = j !== k; });
    c.querySelectorAll(".kit-carousel-dot").forEach(function (d, j) { d.classList.toggle("is-on", j === k); });
    const pos = c.querySelector("[data-carousel-pos]");
    if (pos) pos.textContent = (k + 1) + " of " + n;
    return k;
  }
  let preview = null;
  function closePreview() { if (preview) { preview.box.remove(); preview = null; } }
  function alive() { if (preview && !preview.box.isConnected) preview = null; return preview; }
  function drawPreview() {
    const c = preview.carousel, k = current(c), n = slides(c).length, z = ZOOMS[preview.z];
    const art = slides(c)[k].cloneNode(true);
    art.hidden = false;
    for (const el of [art, ...art.querySelectorAll("[id],[data-action],[data-testid]")]) {
      el.removeAttribute("id"); el.removeAttribute("data-action"); el.removeAttribute("data-testid");
    }
    art.className = "kit-preview-img";
    art.style.transform = "scale(" + (z / 100) + ")";
    preview.stage.replaceChildren(art);
    preview.label.textContent = "Photo " + (k + 1) + " of " + n + ", zoom " + z + "%";
  }
  function openPreview(c) {
    closePreview();
    const box = document.createElement("div");
    box.className = "kit-preview";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Photo preview");
    box.innerHTML = '<div class="kit-preview-stage"></div><div class="kit-preview-bar">' +
      '<button type="button" data-preview="prev" aria-label="Previous photo">&lsaquo;</button>' +
      '<button type="button" data-preview="out" aria-label="Zoom out">&minus;</button>' +
      '<span class="kit-preview-label"></span>' +
      '<button type="button" data-preview="in" aria-label="Zoom in">+</button>' +
      '<button type="button" data-preview="next" aria-label="Next photo">&rsaquo;</button>' +
      '<button type="button" data-preview="close" aria-label="Close preview">&#x2715;</button></div>';
    (c.closest("#app") || document.body).appendChild(box);  // a re-render drops it
    preview = { box: box, carousel: c, z: 0, stage: box.querySelector(".kit-preview-stage"),
                label: box.querySelector(".kit-preview-label") };
    drawPreview();
  }
  document.addEventListener("click", function (ev) {
    const ctl = ev.target.closest("[data-preview]");
    if (ctl && alive()) {
      const what = ctl.dataset.preview, c = preview.carousel;
      if (what === "close") { closePreview(); return; }
      if (what === "in") preview.z = Math.min(ZOOMS.length - 1, preview.z + 1);
      if (what === "out") preview.z = Math.max(0, preview.z - 1);
      if (what === "prev" || what === "next") show(c, current(c) + (what === "next" ? 1 : -1));
      drawPreview();
      return;
    }
    const c = ev.target.closest("[data-carousel]");
    if (!c) return;
    const go = ev.target.closest("[data-carousel-go]"), to = ev.target.closest("[data-carousel-to]");
    if (go) show(c, current(c) + Number(go.dataset.carouselGo));
    else if (to) show(c, Number(to.dataset.carouselTo));
    else if (ev.target.closest("[data-preview-open]")) openPreview(c);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && alive()) closePreview();
  });
})();

// kit.pager's "Go to page": Enter or "Go" clicks the pager's link to that page (its GoToPage
// binding); a page with no link (the current one, or out of range) marks the field invalid.
(function () {
  "use strict";
  function jump(box) {
    const input = box.querySelector("input"), n = parseInt(input.value, 10);
    const link = Array.from(box.closest(".kit-pager").querySelectorAll('[data-action="GoToPage"]'))
      .find(function (a) { try { return JSON.parse(a.dataset.params).page === n; } catch (e) { return false; } });
    input.setAttribute("aria-invalid", link ? "false" : "true");
    if (link) link.click();
  }
  document.addEventListener("keydown", function (ev) {
    const box = ev.key === "Enter" && ev.target.closest && ev.target.closest("[data-page-jump]");
    if (box) { ev.preventDefault(); jump(box); }
  });
  document.addEventListener("click", function (ev) {
    const btn = ev.target.closest("[data-page-jump] button");
    if (btn) jump(btn.closest("[data-page-jump]"));
  });
})();

// kit.series_chart: a legend entry shows or hides its series; a point shows its label (series,
// x, value) in the chart's tooltip on hover or focus. kit.views: a button shows its panel, and
// the choice is re-applied after the page re-renders (page state, never the MDP).
(function () {
  "use strict";
  function tip(pt, on) {
    const fig = pt.closest("[data-chart]"), box = fig && fig.querySelector(".kit-chart-tip");
    if (!box) return;
    if (!on) { box.hidden = true; return; }
    const f = fig.getBoundingClientRect(), p = pt.getBoundingClientRect();
    box.textContent = pt.getAttribute("aria-label");
    box.hidden = false;
    box.style.left = Math.round(p.left - f.left + p.width / 2) + "px";
    box.style.top = Math.round(p.top - f.top) + "px";
  }
  function over(ev) {
    const pt = ev.target.closest && ev.target.closest('[data-page-control="chart-hover"]');
    if (pt) tip(pt, ev.type === "mouseover" || ev.type === "focusin");
  }
  ["mouseover", "mouseout", "focusin", "focusout"].forEach(function (t) { document.addEventListener(t, over); });
  const chosen = {};
  function showView(group, k) {
    group.querySelectorAll(":scope > .kit-viewbar [data-view]").forEach(function (b) {
      b.setAttribute("aria-pressed", Number(b.dataset.view) === k ? "true" : "false");
    });
    group.querySelectorAll(":scope > [data-view-panel]").forEach(function (p) {
      p.hidden = Number(p.dataset.viewPanel) !== k;
    });
  }
  document.addEventListener("click", function (ev) {
    const entry = ev.target.closest('[data-page-control="legend"]');
    if (entry) {
      const on = entry.getAttribute("aria-pressed") !== "true";
      entry.setAttribute("aria-pressed", on ? "true" : "false");
      const g = entry.closest("[data-chart]").querySelector('[data-series-index="' + entry.dataset.legend + '"]');
      if (g) g.style.display = on ? "" : "none";
      return;
    }
    const view = ev.target.closest('[data-page-control="view"]');
    if (view) {
      const group = view.closest("[data-views]"), k = Number(view.dataset.view);
      chosen[group.dataset.views] = k;
      showView(group, k);
    }
  });
  function reapply() {
    document.querySelectorAll("[data-views]").forEach(function (g) {
      const k = chosen[g.dataset.views];
      if (k !== undefined) showView(g, k);
    });
  }
  function watch() {
    const app = document.getElementById("app");
    if (app) new MutationObserver(reapply).observe(app, { childList: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
