// Toolkit widgets that change only what is typed in a form (never the MDP): date pickers,
// range sliders, steppers and choice buttons. The bound form's submit sends the values.
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
