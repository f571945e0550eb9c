// webmdp viewer: the few behaviours a server-rendered page cannot have. Every piece of trace
// content is already in the page, escaped by the server; this script only shows and hides
// elements and keeps the URL (the view's state) in step. It never builds HTML from data.
"use strict";

(function () {
  function setParams(changes) {
    const url = new URL(window.location.href);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "" || v === undefined) url.searchParams.delete(k);
      else url.searchParams.set(k, String(v));
    }
    window.history.replaceState(null, "", url.pathname + url.search);
  }

  // -- task list filters: apply on change, keep empty fields out of the URL ------------------
  const filters = document.getElementById("filters");
  if (filters) {
    filters.addEventListener("submit", function () {
      for (const el of filters.querySelectorAll("input, select")) {
        if (!el.value || el.value === el.dataset.default) el.disabled = true;
      }
    });
    for (const el of filters.querySelectorAll("[data-autosubmit]")) {
      el.addEventListener("change", function () { filters.requestSubmit(); });
    }
  }

  // -- episode tabs -----------------------------------------------------------------------
  const tabs = document.getElementById("tabs");
  if (tabs) {
    tabs.addEventListener("click", function (ev) {
      const link = ev.target.closest("a[data-view]");
      if (!link || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      ev.preventDefault();
      const view = link.dataset.view;
      for (const a of tabs.querySelectorAll("a[data-view]")) {
        a.classList.toggle("active", a === link);
      }
      for (const pane of document.querySelectorAll("[data-pane]")) {
        pane.hidden = pane.dataset.pane !== view;
      }
      setParams({ view: view === "replay" ? null : view });
    });
  }

  // -- replay -----------------------------------------------------------------------------
  const replay = document.getElementById("replay");
  if (!replay) return;
  const count = Number(replay.dataset.count);
  let current = Number(replay.dataset.step) || 0;
  let shot = replay.dataset.shot === "after" ? "after" : "before";
  let timer = null;
  const playButton = document.getElementById("play");

  function load(index) {
    const frame = replay.querySelector('.frame[data-step="' + index + '"]');
    if (!frame) return;
    for (const img of frame.querySelectorAll("img[data-src]")) {
      img.src = img.dataset.src;
      img.removeAttribute("data-src");
    }
  }

  function showShot() {
    for (const el of replay.querySelectorAll(".shot")) el.hidden = el.dataset.which !== shot;
    for (const el of replay.querySelectorAll(".cap-before")) el.hidden = shot !== "before";
    for (const el of replay.querySelectorAll(".cap-after")) el.hidden = shot !== "after";
    for (const b of replay.querySelectorAll("button[data-shot]")) {
      b.classList.toggle("on", b.dataset.shot === shot);
    }
  }

  function show(index) {
    current = Math.max(0, Math.min(count - 1, index));
    for (const el of replay.querySelectorAll(".frame[data-step], .step-detail[data-step]")) {
      el.hidden = Number(el.dataset.step) !== current;
    }
    for (const a of replay.querySelectorAll("#timeline a[data-step]")) {
      const on = Number(a.dataset.step) === current;
      a.classList.toggle("current", on);
      if (on) a.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    document.getElementById("step-no").textContent = String(current + 1);
    replay.dataset.step = String(current);
    load(current);
    load(current + 1);  // the next screenshot is ready before it is asked for
    setParams({ step: current || null });
  }

  function stop() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    playButton.textContent = "\u25B6 Play";
    playButton.classList.remove("on");
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (current >= count - 1) show(0);
    playButton.textContent = "\u275A\u275A Pause";
    playButton.classList.add("on");
    timer = window.setInterval(function () {
      if (current >= count - 1) stop(); else show(current + 1);
    }, 1200);
  }

  document.getElementById("prev").addEventListener("click", function () { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); show(current + 1); });
  playButton.addEventListener("click", play);
  for (const b of replay.querySelectorAll("button[data-shot]")) {
    b.addEventListener("click", function () {
      shot = b.dataset.shot;
      showShot();
      setParams({ shot: shot === "after" ? "after" : null });
    });
  }
  document.getElementById("timeline").addEventListener("click", function (ev) {
    const a = ev.target.closest("a[data-step]");
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    stop();
    show(Number(a.dataset.step));
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const pane = document.getElementById("pane-replay");
    if (pane && pane.hidden) return;
    if (ev.key === "ArrowRight" || ev.key === "j") { stop(); show(current + 1); }
    else if (ev.key === "ArrowLeft" || ev.key === "k") { stop(); show(current - 1); }
    else if (ev.key === "Home") { stop(); show(0); }
    else if (ev.key === "End") { stop(); show(count - 1); }
    else if (ev.key === "p") play();
    else return;
    ev.preventDefault();
  });
  // a screenshot file that is gone (a trimmed run) says so instead of a broken image
  function missing(img) { if (img.parentElement) img.parentElement.classList.add("missing"); }
  replay.addEventListener("error", function (ev) {
    if (ev.target && ev.target.tagName === "IMG") missing(ev.target);
  }, true);
  for (const img of replay.querySelectorAll("img[src]")) {
    if (img.complete && img.naturalWidth === 0) missing(img);  // failed before this ran
  }
  load(current + 1);
})();
