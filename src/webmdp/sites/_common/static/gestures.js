// Gesture widgets (views/kit.html): a range slider whose knobs are dragged, drag-and-drop,
// and a date-range calendar. What happens during a gesture stays in the page; its end result
// dispatches one semantic action through window.__webmdp.dispatch (static/webmdp.js).
//
// Rules the page keeps (DESIGN.md, GUI-MDP coupling):
// * a [data-gesture] element is bound (data-action / data-params) like any other, so the
//   conformance checker and level-2 validation see it, but a plain click on it never
//   re-sends its data-params: the gesture handles the click (a slider moves its nearest knob
//   there; a drag grip does nothing);
// * a drag that ends where it began is a click: it opens what the dragged element is bound to.
(function () {
  "use strict";
  const MOVE_PX = 5;
  let swallowClick = false;

  function send(action, params) { window.__webmdp.dispatch(action, params); }
  function num(v) { return v === "" || v === undefined ? null : Number(v); }
  function json(v) { try { return JSON.parse(v || "{}"); } catch (e) { return {}; } }

  // -- range slider ---------------------------------------------------------------------------
  function scale(el) {
    return { lo: Number(el.dataset.lo), hi: Number(el.dataset.hi), step: Number(el.dataset.step) };
  }
  function valueAt(el, clientX) {
    const s = scale(el), r = el.getBoundingClientRect();
    const frac = Math.min(1, Math.max(0, (clientX - r.left) / r.width));
    return s.lo + Math.round(frac * (s.hi - s.lo) / s.step) * s.step;
  }
  function knobValue(el, end) {
    const s = scale(el), v = num(el.dataset[end]);
    return v === null ? (end === "min" ? s.lo : s.hi) : v;
  }
  function paint(el, vals) {
    const s = scale(el), pct = function (v) { return (v - s.lo) / (s.hi - s.lo) * 100; };
    for (const k of el.querySelectorAll(".kit-knob")) k.style.left = pct(vals[k.dataset.end]) + "%";
    const fill = el.querySelector(".kit-slider-fill");
    if (fill) { fill.style.left = pct(vals.min) + "%"; fill.style.width = (pct(vals.max) - pct(vals.min)) + "%"; }
    const form = el.closest("form");
    for (const end of ["min", "max"]) {
      const input = form && form.querySelector('input[name="' + end + '"]');
      const open = end === "min" ? vals.min <= s.lo : vals.max >= s.hi;
      if (input) input.value = open ? "" : String(vals[end]);
    }
  }
  function startSlider(el, ev) {
    const s = scale(el);
    const vals = { min: knobValue(el, "min"), max: knobValue(el, "max") };
    const before = { min: vals.min, max: vals.max };
    let v = valueAt(el, ev.clientX), end = null;
    const dmin = Math.abs(v - vals.min), dmax = Math.abs(v - vals.max);
    if (dmin !== dmax) end = dmin < dmax ? "min" : "max";
    else if (v !== vals.min) end = v < vals.min ? "min" : "max";
    function moveTo(x) {
      v = valueAt(el, x);
      if (end === null) { if (v === vals.min) return; end = v < vals.min ? "min" : "max"; }
      vals[end] = end === "min" ? Math.min(v, vals.max) : Math.max(v, vals.min);
      paint(el, vals);
    }
    if (end !== null) moveTo(ev.clientX);
    el.classList.add("is-dragging");
    el.setPointerCapture(ev.pointerId);
    function move(e) { moveTo(e.clientX); }
    function up() {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      el.classList.remove("is-dragging");
      if (vals.min === before.min && vals.max === before.max) return;
      // the end not dragged keeps its exact current value (it may be typed, off the grid)
      const p = {};
      const cur = { min: num(el.dataset.min), max: num(el.dataset.max) };
      for (const k of ["min", "max"]) {
        const val = vals[k] === before[k] ? cur[k] : (k === "min" ? (vals.min <= s.lo ? null : vals.min)
                                                                  : (vals.max >= s.hi ? null : vals.max));
        if (val !== null) p[k] = val;
      }
      send(el.dataset.action, Object.assign(json(el.dataset.params), p));
    }
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  }

  // -- drag and drop ----------------------------------------------------------------------------
  // A [data-drag="Action"] element (params in data-drag-params) dropped on a [data-drop] target
  // (params in data-drop, for the action named in data-drop-for) dispatches Action with both.
  function dropTarget(action, x, y) {
    for (const el of document.elementsFromPoint(x, y)) {
      const t = el.closest("[data-drop]");
      if (t && (!t.dataset.dropFor || t.dataset.dropFor === action)) return t;
    }
    return null;
  }
  function startDrag(item, ev) {
    const x0 = ev.clientX, y0 = ev.clientY, action = item.dataset.drag;
    let ghost = null, over = null;
    function mark(t) {
      if (over === t) return;
      if (over) over.classList.remove("is-drop-over");
      over = t;
      if (over) over.classList.add("is-drop-over");
    }
    function move(e) {
      if (!ghost) {
        if (Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) < MOVE_PX) return;
        const r = item.getBoundingClientRect();
        ghost = item.cloneNode(true);
        ghost.removeAttribute("data-testid");
        for (const n of [ghost, ...ghost.querySelectorAll("[data-action],[data-testid]")]) {
          n.removeAttribute("data-action"); n.removeAttribute("data-testid");
        }
        ghost.className += " kit-drag-ghost";
        ghost.setAttribute("aria-hidden", "true");
        Object.assign(ghost.style, { position: "fixed", left: r.left + "px", top: r.top + "px",
                                     width: r.width + "px", height: r.height + "px", margin: 0 });
        ghost.dataset.dx = String(r.left - x0); ghost.dataset.dy = String(r.top - y0);
        document.body.appendChild(ghost);
        item.classList.add("is-dragging");
      }
      ghost.style.left = (e.clientX + Number(ghost.dataset.dx)) + "px";
      ghost.style.top = (e.clientY + Number(ghost.dataset.dy)) + "px";
      mark(dropTarget(action, e.clientX, e.clientY));
    }
    function up(e) {
      document.removeEventListener("pointermove", move, true);
      document.removeEventListener("pointerup", up, true);
      if (!ghost) return;  // no movement: the click that follows opens the element
      swallowClick = true;
      setTimeout(function () { swallowClick = false; }, 0);
      ghost.remove();
      item.classList.remove("is-dragging");
      mark(null);
      const t = dropTarget(action, e.clientX, e.clientY);
      if (t) send(action, Object.assign(json(item.dataset.dragParams), json(t.dataset.drop)));
    }
    document.addEventListener("pointermove", move, true);
    document.addEventListener("pointerup", up, true);
  }

  document.addEventListener("pointerdown", function (ev) {
    if (ev.button !== 0) return;
    const slider = ev.target.closest('[data-gesture="range"]');
    if (slider) { ev.preventDefault(); startSlider(slider, ev); return; }
    const item = ev.target.closest("[data-drag]");
    if (item) startDrag(item, ev);
  });
  // Links are natively draggable: the browser's own drag would swallow the pointer events.
  document.addEventListener("dragstart", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-drag], [data-gesture]")) ev.preventDefault();
  });
  // Before webmdp.js sees it: a click that ended a drag, or a click on a gesture element,
  // is the gesture's (already handled on pointerup), never a re-send of its data-params.
  window.addEventListener("click", function (ev) {
    if (swallowClick || (ev.target.closest && ev.target.closest("[data-gesture]"))) {
      swallowClick = false;
      ev.preventDefault();
      ev.stopPropagation();
    }
  }, true);

  // -- date range: two clicks on one calendar fill a pair of date inputs ------------------------
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
                  "September", "October", "November", "December"];
  function pad(n) { return String(n).padStart(2, "0"); }
  function drawRange(root, y, m) {
    const old = root.querySelector(".kit-rangepicker");
    if (old) old.remove();
    const [a, b] = root.querySelectorAll("input.kit-date-input");
    const box = document.createElement("div");
    box.className = "kit-datepicker kit-rangepicker";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Choose " + root.dataset.rangeLabel);
    box.dataset.y = y; box.dataset.m = m;
    let html = '<div class="kit-dp-head"><button type="button" class="kit-dp-nav" data-rp="-1" aria-label="Previous month">&lsaquo;</button><span>' +
      MONTHS[m] + " " + y + '</span><button type="button" class="kit-dp-nav" data-rp="1" aria-label="Next month">&rsaquo;</button></div><div class="kit-dp-grid">';
    for (const d of ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]) html += '<span class="kit-dp-dow">' + d + "</span>";
    const first = new Date(Date.UTC(y, m, 1)).getUTCDay(), days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    for (let i = 0; i < first; i++) html += "<span></span>";
    for (let d = 1; d <= days; d++) {
      const iso = y + "-" + pad(m + 1) + "-" + pad(d);
      const on = iso === a.value || iso === b.value, mid = a.value && b.value && iso > a.value && iso < b.value;
      html += '<button type="button" class="kit-rp-day' + (on ? " is-on" : "") + (mid ? " is-mid" : "") +
        '" data-rp-date="' + iso + '" aria-label="' + MONTHS[m] + " " + d + ", " + y + '">' + d + "</button>";
    }
    box.innerHTML = html + '</div><p class="kit-rp-hint">' + (a.value && !b.value ? "Select " + b.dataset.rangeEnd : "Select " + a.dataset.rangeEnd) + "</p>";
    root.appendChild(box);
  }
  function parseYM(v) { const m = /^(\d{4})-(\d{2})/.exec(v || ""); return m ? [+m[1], +m[2] - 1] : null; }
  document.addEventListener("click", function (ev) {
    const opener = ev.target.closest("[data-rangepicker-open]");
    const root = ev.target.closest("[data-rangepicker]");
    if (opener && root) {
      if (root.querySelector(".kit-rangepicker")) { root.querySelector(".kit-rangepicker").remove(); return; }
      const [a] = root.querySelectorAll("input.kit-date-input");
      const at = parseYM(a.value) || parseYM(a.dataset.min) || [new Date().getFullYear(), new Date().getMonth()];
      drawRange(root, at[0], at[1]);
      return;
    }
    const nav = ev.target.closest("[data-rp]");
    if (nav && root) {
      const box = nav.closest(".kit-rangepicker");
      let y = +box.dataset.y, m = +box.dataset.m + +nav.dataset.rp;
      if (m < 0) { m = 11; y -= 1; } else if (m > 11) { m = 0; y += 1; }
      drawRange(root, y, m);
      return;
    }
    const day = ev.target.closest("[data-rp-date]");
    if (day && root) {
      const [a, b] = root.querySelectorAll("input.kit-date-input"), iso = day.dataset.rpDate;
      const box = day.closest(".kit-rangepicker");
      if (!a.value || b.value || iso <= a.value) { a.value = iso; b.value = ""; drawRange(root, +box.dataset.y, +box.dataset.m); }
      else { b.value = iso; box.remove(); }
      return;
    }
    for (const open of document.querySelectorAll(".kit-rangepicker")) {
      if (!open.parentElement.contains(ev.target)) open.remove();
    }
  });
})();
