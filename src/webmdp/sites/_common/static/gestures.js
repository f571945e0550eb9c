// Gesture widgets (views/kit.html): a range slider whose knobs are dragged, drag-and-drop
// (also of calendar chips onto hours), a date-range calendar, a multi-step form (wizard),
// a nested dropdown menu and a map of listings to pan and zoom. What happens during a gesture stays in the page; its end result
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
  // A [data-drop-grid] target is a time grid's day column: its params come from the drop's
  // position and the scale it states as numbers ({day: days since 1970-01-01, first: minute of
  // the top slot, step: minutes per slot, slots}), so no parameter string sits in the page.
  function dropTarget(action, x, y) {
    for (const el of document.elementsFromPoint(x, y)) {
      const t = el.closest("[data-drop], [data-drop-grid]");
      if (t && (!t.dataset.dropFor || t.dataset.dropFor === action)) return t;
    }
    return null;
  }
  function gridSlot(t, y) {
    const g = json(t.dataset.dropGrid), r = t.getBoundingClientRect();
    return Math.max(0, Math.min(g.slots - 1, Math.floor((y - r.top) * g.slots / r.height)));
  }
  function dropParams(t, y) {
    if (!t.dataset.dropGrid) return json(t.dataset.drop);
    const g = json(t.dataset.dropGrid), m = g.first + gridSlot(t, y) * g.step;
    const pad = function (n) { return String(n).padStart(2, "0"); };
    return { date: new Date(g.day * 86400000).toISOString().slice(0, 10),
             start: pad(Math.floor(m / 60)) + ":" + pad(m % 60) };
  }
  function dropMark(t, y) {  // the slot under the pointer, where the column marks its slots
    if (!t || !t.dataset.dropGrid) return t;
    return t.querySelectorAll("[data-drop-slot]")[gridSlot(t, y)] || t;
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
      mark(dropMark(dropTarget(action, e.clientX, e.clientY), e.clientY));
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
      if (t) send(action, Object.assign(json(item.dataset.dragParams), dropParams(t, e.clientY)));
    }
    document.addEventListener("pointermove", move, true);
    document.addEventListener("pointerup", up, true);
  }

  // -- map: drag pans, - / + and ctrl+wheel zoom; a pin's click is its action -----------------
  // The view is page state: the world point at the view's centre and a zoom. A pin is shown
  // only when its whole box is in view and clear of the pins shown before it; every other pin
  // is visibility:hidden, so neither a click nor the accessibility tree reaches it.
  function mapState(view) {
    if (!view.__map) {
      const [w, h] = view.dataset.world.split(" ").map(Number);
      view.__map = { w: w, h: h, zooms: view.dataset.zooms.split(" ").map(Number), z: 100,
                     cx: w / 2, cy: h / 2 };
      view.addEventListener("wheel", function (ev) {  // a plain wheel scrolls the page
        if (!ev.ctrlKey) return;
        ev.preventDefault();
        const r = view.getBoundingClientRect();
        mapZoom(view, ev.deltaY < 0 ? 1 : -1, ev.clientX - r.left, ev.clientY - r.top);
      }, { passive: false });
    }
    return view.__map;
  }
  function mapLayout(view) {
    const s = mapState(view), vw = view.clientWidth, vh = view.clientHeight, z = s.z / 100;
    s.cx = Math.min(s.w, Math.max(0, s.cx));
    s.cy = Math.min(s.h, Math.max(0, s.cy));
    const ox = vw / 2 - s.cx * z, oy = vh / 2 - s.cy * z;
    const world = view.querySelector(".kit-map-world");
    Object.assign(world.style, { width: s.w + "px", height: s.h + "px",
                                 transform: "translate(" + ox + "px, " + oy + "px) scale(" + z + ")" });
    const shown = [];
    for (const pin of view.querySelectorAll(".kit-map-pin")) {
      const x = ox + Number(pin.dataset.wx) * z, y = oy + Number(pin.dataset.wy) * z;
      const hw = pin.offsetWidth / 2, hh = pin.offsetHeight / 2;
      pin.style.left = x + "px";
      pin.style.top = y + "px";
      const box = [x - hw, y - hh, x + hw, y + hh];
      const free = box[0] >= 0 && box[1] >= 0 && box[2] <= vw && box[3] <= vh &&
        !shown.some(function (b) { return b[0] < box[2] + 2 && box[0] < b[2] + 2 && b[1] < box[3] + 2 && box[1] < b[3] + 2; });
      pin.style.visibility = free ? "visible" : "hidden";
      if (free) shown.push(box);
    }
    const label = view.parentElement.querySelector("[data-map-zoom-label]");
    if (label) label.textContent = "Zoom " + s.z + "% (" + s.zooms[0] + "% to " + s.zooms[s.zooms.length - 1] + "%)";
  }
  // One zoom level in (dir 1) or out (-1), keeping the world point at (px, py) in the view.
  function mapZoom(view, dir, px, py) {
    const s = mapState(view), i = s.zooms.indexOf(s.z) + dir;
    if (i < 0 || i >= s.zooms.length) return;
    const ax = px - view.clientWidth / 2, ay = py - view.clientHeight / 2;
    const wx = s.cx + ax / (s.z / 100), wy = s.cy + ay / (s.z / 100);
    s.z = s.zooms[i];
    s.cx = wx - ax / (s.z / 100);
    s.cy = wy - ay / (s.z / 100);
    mapLayout(view);
  }
  function startPan(view, ev) {
    const s = mapState(view), x0 = ev.clientX, y0 = ev.clientY, cx0 = s.cx, cy0 = s.cy;
    let panning = false;
    function move(e) {
      if (!panning && Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) < MOVE_PX) return;
      panning = true;
      view.classList.add("is-panning");
      s.cx = cx0 - (e.clientX - x0) / (s.z / 100);
      s.cy = cy0 - (e.clientY - y0) / (s.z / 100);
      mapLayout(view);
    }
    function up(e) {
      document.removeEventListener("pointermove", move, true);
      document.removeEventListener("pointerup", up, true);
      if (!panning) return;  // no movement: the click that follows is a pin's (or nothing)
      move(e);
      view.classList.remove("is-panning");
      swallowClick = true;
      setTimeout(function () { swallowClick = false; }, 0);
    }
    document.addEventListener("pointermove", move, true);
    document.addEventListener("pointerup", up, true);
  }
  function layoutMaps() { for (const view of document.querySelectorAll("[data-map]")) mapLayout(view); }
  document.addEventListener("click", function (ev) {
    const btn = ev.target.closest("[data-map-zoom]");
    if (!btn) return;
    const view = btn.closest(".kit-map").querySelector("[data-map]");
    mapZoom(view, Number(btn.dataset.mapZoom), view.clientWidth / 2, view.clientHeight / 2);
  });
  layoutMaps();  // now, after every render of #app (webmdp.js), and on resize
  const app = document.getElementById("app");
  if (app) new MutationObserver(layoutMaps).observe(app, { childList: true });
  window.addEventListener("resize", layoutMaps);

  document.addEventListener("pointerdown", function (ev) {
    if (ev.button !== 0) return;
    const view = ev.target.closest("[data-map]");
    if (view) { startPan(view, ev); return; }
    const slider = ev.target.closest('[data-gesture="range"]');
    if (slider) { ev.preventDefault(); startSlider(slider, ev); return; }
    const item = ev.target.closest("[data-drag]");
    if (item) startDrag(item, ev);
  });
  // Links are natively draggable: the browser's own drag would swallow the pointer events.
  document.addEventListener("dragstart", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-drag], [data-gesture], [data-map]")) ev.preventDefault();
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

  // -- wizard: a form's steps; only the last one's submit sends the form's action ------------
  function wizardGo(root, n) {
    for (const step of root.querySelectorAll("[data-wizard-step]")) step.hidden = +step.dataset.wizardStep !== n;
    for (const dot of root.querySelectorAll("[data-wizard-dot]")) dot.classList.toggle("is-on", +dot.dataset.wizardDot <= n);
    const first = root.querySelector('[data-wizard-step="' + n + '"] input, [data-wizard-step="' + n + '"] textarea');
    if (first) first.focus();
  }
  document.addEventListener("click", function (ev) {
    const go = ev.target.closest("[data-wizard-go]");
    if (!go) return;
    ev.preventDefault();
    wizardGo(go.closest("[data-wizard]"), +go.dataset.wizardGo);
  });
  // Enter before the last step means Next (capture, before webmdp.js sends the form).
  window.addEventListener("submit", function (ev) {
    const root = ev.target.querySelector && ev.target.querySelector("[data-wizard]");
    if (!root) return;
    const steps = root.querySelectorAll("[data-wizard-step]");
    const at = [...steps].findIndex(function (st) { return !st.hidden; }) + 1;
    if (at > 0 && at < steps.length) { ev.preventDefault(); ev.stopImmediatePropagation(); wizardGo(root, at + 1); }
  }, true);

  // -- nested menu: <details> levels opened by click or hover ------------------------------
  // A hover opens a level (never closes another); the click that follows it keeps it open
  // instead of toggling it shut. Escape or a click outside closes the whole menu.
  let hovered = null;
  document.addEventListener("pointerover", function (ev) {
    if (ev.pointerType !== "mouse") return;
    const sum = ev.target.closest && ev.target.closest("[data-menu-level] > summary");
    if (sum && !sum.parentElement.open) { sum.parentElement.open = true; hovered = sum; }
  });
  document.addEventListener("click", function (ev) {
    const sum = ev.target.closest("[data-menu-level] > summary");
    if (sum && sum === hovered) { ev.preventDefault(); }
    hovered = null;
    for (const menu of document.querySelectorAll("details[data-menu][open]")) {
      if (!menu.contains(ev.target)) menu.open = false;
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape") return;
    for (const menu of document.querySelectorAll("details[data-menu][open]")) menu.open = false;
  });
})();
