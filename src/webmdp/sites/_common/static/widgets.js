// More toolkit widgets (views/widgets.html): page-state interactions whose end result, if any,
// dispatches one semantic action through window.__webmdp.dispatch (static/webmdp.js). The page
// is re-rendered in place after every dispatch, so every handler is delegated from document.
(function () {
  "use strict";

  // -- filter box of a select menu: hide the options that do not contain the text -------------
  document.addEventListener("input", function (ev) {
    const box = ev.target;
    if (box.matches(".w-filter-input")) {
      const menu = box.closest("ul, [role=menu], [role=listbox]");
      if (!menu) return;
      const q = box.value.trim().toLowerCase();
      let shown = 0;
      for (const li of menu.children) {
        if (li.matches(".w-filter, .w-filter-none") || !li.querySelector("[data-action]")) continue;
        const hit = li.textContent.toLowerCase().includes(q);
        li.hidden = !hit;
        shown += hit ? 1 : 0;
      }
      const none = menu.querySelector(".w-filter-none");
      if (none) none.hidden = shown > 0;
    } else if (box.matches(".w-cascader-search")) {
      cascaderSearch(box);
    }
  });

  // -- Markdown editor ---------------------------------------------------------------------------
  const FORMATS = {
    bold: ["**", "**", "bold text"],
    italic: ["_", "_", "italic text"],
    code: ["`", "`", "code"],
    link: ["[", "](url)", "link text"],
    heading: ["### ", "", "Heading"],
    quote: ["> ", "", "quote"],
    list: ["- ", "", "item"],
  };

  function insert(area, before, after, fallback) {
    const s = area.selectionStart, e = area.selectionEnd;
    const picked = area.value.slice(s, e) || fallback;
    area.value = area.value.slice(0, s) + before + picked + after + area.value.slice(e);
    area.focus();
    area.setSelectionRange(s + before.length, s + before.length + picked.length);
  }

  function format(area, kind) {
    const f = FORMATS[kind];
    if (f) insert(area, f[0], f[1], f[2]);
  }

  function editorOf(el) {
    const md = el.closest(".w-md");
    return md ? md.querySelector(".w-md-input") : null;
  }

  // The preview escapes by construction: text nodes only, strong / em / code / a wrappers.
  function inline(parent, text) {
    const rx = /\*\*([^*]+)\*\*|_([^_]+)_|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;
    let last = 0, m;
    while ((m = rx.exec(text))) {
      parent.append(text.slice(last, m.index));
      let node;
      if (m[1] !== undefined) { node = document.createElement("strong"); node.textContent = m[1]; }
      else if (m[2] !== undefined) { node = document.createElement("em"); node.textContent = m[2]; }
      else if (m[3] !== undefined) { node = document.createElement("code"); node.textContent = m[3]; }
      else { node = document.createElement("span"); node.className = "w-md-link"; node.textContent = m[4]; node.title = m[5]; }
      parent.append(node);
      last = rx.lastIndex;
    }
    parent.append(text.slice(last));
  }

  function preview(md) {
    const out = md.querySelector(".w-md-preview");
    const text = md.querySelector(".w-md-input").value;
    out.replaceChildren();
    if (!text.trim()) { out.textContent = "Nothing to preview"; return; }
    let list = null;
    for (const line of text.split("\n")) {
      let tag = "p", body = line;
      if (/^#{1,6} /.test(line)) { tag = "h4"; body = line.replace(/^#+ /, ""); }
      else if (line.startsWith("> ")) { tag = "blockquote"; body = line.slice(2); }
      else if (line.startsWith("- ")) { tag = "li"; body = line.slice(2); }
      if (tag === "li") {
        if (!list) { list = document.createElement("ul"); out.append(list); }
      } else list = null;
      const node = document.createElement(tag);
      inline(node, body);
      (tag === "li" ? list : out).append(node);
    }
  }

  function mode(tab) {
    const md = tab.closest(".w-md");
    const write = tab.dataset.mdMode === "write";
    for (const t of md.querySelectorAll(".w-md-tab")) {
      const on = t === tab;
      t.classList.toggle("is-on", on);
      t.setAttribute("aria-selected", on ? "true" : "false");
    }
    if (!write) preview(md);
    md.querySelector(".w-md-input").hidden = !write;
    md.querySelector(".w-md-preview").hidden = write;
    md.querySelector(".w-md-toolbar").classList.toggle("is-off", !write);
  }

  document.addEventListener("keydown", function (ev) {
    const area = ev.target;
    if (ev.key === "Escape") { closeAll(); return; }
    if (!area.matches || !area.matches(".w-md-input") || !(ev.ctrlKey || ev.metaKey)) return;
    const kind = { b: "bold", i: "italic", k: "link", e: "code" }[ev.key.toLowerCase()];
    if (kind) { ev.preventDefault(); format(area, kind); }
  });

  // -- upload: a chosen or dropped file's Markdown link goes into the draft ---------------------
  function attach(up, name) {
    const area = document.getElementById(up.dataset.uploadFor);
    if (!area || !name) return;
    const image = /\.(png|jpe?g|gif|svg)$/i.test(name);
    const link = (image ? "!" : "") + "[" + name + "](attachments/" + encodeURIComponent(name) + ")";
    const sep = area.value && !area.value.endsWith("\n") ? "\n" : "";
    area.value += sep + link;
    const li = document.createElement("li");
    li.className = "w-upload-item";
    li.textContent = name;
    up.querySelector(".w-upload-done").append(li);
    up.querySelector(".w-upload-drop").classList.add("is-done");
  }

  let dragging = null;  // a chooser file held by the pointer: {name, ghost, x0, y0, moved}

  document.addEventListener("pointerdown", function (ev) {
    const file = ev.target.closest && ev.target.closest(".w-upload-file");
    if (!file || ev.button !== 0) return;
    dragging = { name: file.dataset.uploadFile, up: file.closest(".w-upload"), x0: ev.clientX, y0: ev.clientY, moved: false, ghost: null };
  });

  document.addEventListener("pointermove", function (ev) {
    if (!dragging) return;
    if (!dragging.moved && Math.abs(ev.clientX - dragging.x0) + Math.abs(ev.clientY - dragging.y0) < 4) return;
    if (!dragging.ghost) {
      dragging.ghost = document.createElement("div");
      dragging.ghost.className = "w-upload-ghost";
      dragging.ghost.textContent = dragging.name;
      document.body.append(dragging.ghost);
    }
    dragging.moved = true;
    dragging.ghost.style.left = ev.clientX + 8 + "px";
    dragging.ghost.style.top = ev.clientY + 8 + "px";
    const drop = dragging.up.querySelector(".w-upload-drop");
    const r = drop.getBoundingClientRect();
    drop.classList.toggle("is-over", ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom);
  });

  document.addEventListener("pointerup", function (ev) {
    if (!dragging) return;
    const d = dragging;
    dragging = null;
    if (d.ghost) d.ghost.remove();
    if (!d.moved) { attach(d.up, d.name); return; }  // a click on a file attaches it
    const drop = d.up.querySelector(".w-upload-drop");
    drop.classList.remove("is-over");
    const r = drop.getBoundingClientRect();
    if (ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom) attach(d.up, d.name);
  });

  // Files dropped from the desktop: their names are attached the same way.
  document.addEventListener("dragover", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-upload-drop]")) ev.preventDefault();
  });
  document.addEventListener("drop", function (ev) {
    const drop = ev.target.closest && ev.target.closest("[data-upload-drop]");
    if (!drop) return;
    ev.preventDefault();
    for (const f of ev.dataTransfer.files) attach(drop.closest(".w-upload"), f.name);
  });

  // -- cascader --------------------------------------------------------------------------------
  function openColumn(opt) {
    const panel = opt.closest(".w-cascader-panel");
    const node = opt.dataset.node;
    const level = Number(opt.closest(".w-cascader-col").dataset.level);
    for (const col of panel.querySelectorAll(".w-cascader-col")) {
      const l = Number(col.dataset.level);
      if (l === level + 1) col.hidden = col.dataset.parent !== node;
      else if (l > level + 1) col.hidden = true;
    }
    for (const o of opt.closest(".w-cascader-col").querySelectorAll(".w-cascader-opt")) {
      o.setAttribute("aria-expanded", o === opt ? "true" : "false");
      o.classList.toggle("is-open", o === opt);
    }
  }

  function cascaderSearch(box) {
    const panel = box.closest(".w-cascader-panel");
    const q = box.value.trim().toLowerCase();
    const found = panel.querySelector(".w-cascader-found");
    found.hidden = !q;
    panel.querySelector(".w-cascader-cols").hidden = !!q;
    for (const a of found.querySelectorAll(".w-cascader-hit")) {
      a.parentElement.hidden = !a.dataset.path.toLowerCase().includes(q);
    }
  }

  // -- drawer, cascader and chooser toggles; collapsible tree sections ------------------------
  function setOpen(button, panel, open) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
    panel.hidden = !open;
  }

  function closeAll() {
    for (const b of document.querySelectorAll(".w-drawer-open[aria-expanded=true], .w-cascader-trigger[aria-expanded=true]")) {
      const panel = document.getElementById(b.getAttribute("aria-controls"));
      if (panel) setOpen(b, panel, false);
      const scrim = panel && panel.previousElementSibling;
      if (scrim && scrim.matches(".w-drawer-scrim")) scrim.hidden = true;
    }
  }

  document.addEventListener("click", function (ev) {
    const t = ev.target.closest ? ev.target : null;
    if (!t) return;
    const btn = t.closest(".w-md-btn");
    if (btn) { const area = editorOf(btn); if (area && !area.hidden) format(area, btn.dataset.md); return; }
    const tab = t.closest(".w-md-tab");
    if (tab) { mode(tab); return; }
    const choose = t.closest(".w-upload-choose");
    if (choose) {
      const box = document.getElementById(choose.getAttribute("aria-controls"));
      setOpen(choose, box, box.hidden);
      return;
    }
    const opener = t.closest(".w-drawer-open, .w-cascader-trigger");
    if (opener) {
      const panel = document.getElementById(opener.getAttribute("aria-controls"));
      const open = panel.hidden;
      if (open && opener.matches(".w-cascader-trigger")) {  // reopened: back to the columns
        const box = panel.querySelector(".w-cascader-search");
        box.value = "";
        cascaderSearch(box);
      }
      setOpen(opener, panel, open);
      const scrim = panel.previousElementSibling;
      if (scrim && scrim.matches(".w-drawer-scrim")) scrim.hidden = !open;
      return;
    }
    const closer = t.closest("[data-drawer-close]");
    if (closer) { closeAll(); return; }
    const opt = t.closest(".w-cascader-opt");
    if (opt) { openColumn(opt); return; }
    const section = t.closest(".w-tree-toggle");
    if (section) {
      const item = section.closest("[role=treeitem]");
      const open = item.getAttribute("aria-expanded") !== "true";
      item.setAttribute("aria-expanded", open ? "true" : "false");
      const group = item.querySelector("[role=group]");
      if (group) group.hidden = !open;
      return;
    }
    const cas = t.closest(".w-cascader");
    if (!cas) {  // a click elsewhere closes an open cascader
      for (const b of document.querySelectorAll(".w-cascader-trigger[aria-expanded=true]")) {
        setOpen(b, document.getElementById(b.getAttribute("aria-controls")), false);
      }
    }
  });

  // Hovering a cascader option opens its column too (as a pointer user expects).
  document.addEventListener("pointerover", function (ev) {
    const opt = ev.target.closest && ev.target.closest(".w-cascader-opt");
    if (opt && ev.pointerType === "mouse") openColumn(opt);
  });
})();
