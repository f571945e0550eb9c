// Renders the formulas pymdownx.arithmatex marks (`\( ... \)` in a span.arithmatex) with the
// KaTeX vendored beside this file: offline, no CDN. Material's instant navigation swaps pages
// without a reload, so render on each page it shows.
(function () {
  function render() {
    document.querySelectorAll(".arithmatex").forEach(function (el) {
      if (el.dataset.rendered) return;
      var tex = el.textContent.trim();
      var display = tex.startsWith("\\[");
      tex = tex.replace(/^\\[\(\[]/, "").replace(/\\[\)\]]$/, "");
      katex.render(tex, el, { displayMode: display, throwOnError: false });
      el.dataset.rendered = "1";
    });
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(render);
  } else {
    document.addEventListener("DOMContentLoaded", render);
  }
})();
