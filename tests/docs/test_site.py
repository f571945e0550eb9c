"""The documentation site: built with ``--strict`` as ``make docs`` builds it, then served over
HTTP on loopback and opened in a real Chromium, page by page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
import typer.main

from support import shared_dir
from webmdp.cli.main import app
from webmdp.env.chromium import BrowserHost

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


def _build(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stderr[-6000:]}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`make docs`'s build, once per test session however many xdist workers ask for it."""
    return shared_dir(tmp_path_factory, "docs-site", _build)


@pytest.fixture(scope="module")
def served(built: Path) -> Iterator[str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
            "--directory",
            str(built),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        port = re.search(r"port (\d+)", line)
        assert port, f"http.server said {line!r}"
        yield f"http://127.0.0.1:{port.group(1)}/"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def pages(built: Path) -> list[str]:
    """Every page's URL path under the site root ("" for the home page, "concepts/", ...)."""
    return sorted(
        p.parent.relative_to(built).as_posix() + "/"
        if p.parent != built
        else ""
        for p in built.rglob("index.html")
        if "search" not in p.parts and "assets" not in p.parts
    )


def test_build_expands_every_generated_part(built: Path) -> None:
    html = {p: p.read_text() for p in built.rglob("*.html")}
    left = [str(p) for p, text in html.items() if "<!-- webmdp:" in text]
    assert not left, f"markers left unexpanded: {left}"
    doubled = [str(p) for p, text in html.items() if re.search(r"&amp;(#x27|quot|lt|gt);", text)]
    assert not doubled, f"entities escaped twice (shown as '&#x27;' to the reader): {doubled}"
    mail = (built / "sites" / "mail" / "index.html").read_text()
    assert "ComposeModal" in mail and "find_email_extract" in mail
    for name in (
        "accommodation",
        "calendar",
        "chat",
        "food",
        "housing",
        "jobs",
        "qa",
        "repo",
        "shopping",
    ):
        text = (built / "sites" / name / "index.html").read_text()
        assert text.count("<table>") >= 6, name  # surfaces, actions, fields, templates, tasks
    # the grid suite's Tables 7 and 8 and its task-set hash, from docs/data/grid.json
    grid = json.loads((ROOT / "docs" / "data" / "grid.json").read_text())
    difficulty = (built / "difficulty" / "index.html").read_text()
    assert grid["task_set_hash"] in difficulty and "WebForge Table 8" in difficulty
    assert f"{grid['tasks']:,} tasks" in difficulty and "40/40 (100%)" in difficulty


def test_no_paragraph_holds_a_list_written_inline(built: Path) -> None:
    """A Markdown list needs a blank line before it; without one it renders as one paragraph
    with literal " - " items."""
    inline = []
    for page in sorted(built.rglob("*.html")):
        for para in re.findall(r"<p>(.*?)</p>", page.read_text(), re.S):
            if re.search(r"\n\s*(?:[-*+]|\d+\.) \S", para):
                inline.append(f"{page.relative_to(built)}: {para[:80]!r}")
    assert not inline, "\n".join(inline)


def test_the_python_api_page_shows_every_name_with_its_signature(built: Path) -> None:
    """Every name of ``webmdp.__all__`` on the Python API page, grouped by what a user does:
    a function with its signature; a class with its constructor's, or (a model, an enum, a
    base class) with its fields, each typed."""
    import html as escape

    import webmdp

    page = (built / "reference" / "api" / "index.html").read_text()

    def text(fragment: str) -> str:
        return " ".join(escape.unescape(re.sub(r"<[^>]+>", "", fragment)).split())

    groups = re.findall(r'<h2 id="[^"]+">(.*?)<a', page)
    assert len(groups) >= 6 and "Environments and tasks" in text(groups[0]), groups
    missing = []
    for name in webmdp.__all__:
        obj = getattr(webmdp, name)
        if getattr(obj, "__module__", None) is None or not hasattr(obj, "__qualname__"):
            if f"<code>{name}</code>" not in page:
                missing.append(name)
            continue
        at = page.find(f'id="{obj.__module__}.{obj.__qualname__}"')
        after = page[at:at + 30_000]
        signatures = [text(m) for m in re.findall(
            r'<div class="doc-signature[^"]*"[^>]*>(.*?)</div>', after, re.S)][:3]
        if at < 0 or not signatures:
            missing.append(name)
        elif not signatures[0].startswith(f"{name}(") and not (
                isinstance(obj, type) and re.match(r"\w+(: | = )", signatures[0])):
            missing.append(f"{name}: {signatures[0][:60]}")
    assert not missing, missing
    assert "make( env_id: str, *, mode: str" in text(page)


def test_the_site_toolkit_reference_documents_what_a_plugin_uses(built: Path) -> None:
    """A plugin author's reference: each template setting, each facet kind, ``act()`` and the
    widget macros, and where ``templates.py`` and ``views/`` are found; extending.md points
    to it."""
    from webmdp.sites._common.catalog import FACET_KINDS

    page = (built / "reference" / "toolkit" / "index.html").read_text()
    for setting in ("wants", "fixed", "marked", "opener", "by", "narrow", "order",
                    "commit_after", "commit_with", "stored", "keys", "best_by"):
        assert re.search(rf'id="webmdp\.sites\._common\.templates\.PinnedTemplate\.{setting}"',
                         page), setting
    for kind in FACET_KINDS:
        assert f"<td><code>{kind}</code></td>" in page, kind
    assert 'id="webmdp.sites._common.views.act"' in page
    for macro in ("search_box", "facet", "stars", "sort_th"):
        assert f"<td><code>{macro}</code></td>" in page, macro
    assert "templates.py" in page and "TEMPLATES" in page and "views/" in page
    extending = (built / "extending" / "index.html").read_text()
    assert 'href="../reference/toolkit/"' in extending


def test_the_reference_is_near_the_top_and_code_wraps(built: Path) -> None:
    """The nav reaches the Reference without scrolling the sidebar (it is among the first
    entries), and code blocks wrap long lines instead of cutting them off."""
    home = (built / "index.html").read_text()
    nav = home[home.index('class="md-nav md-nav--primary"'):]
    links = re.findall(r'class="md-nav__link[^"]*"[^>]*href="([^"]+)"', nav) or \
        re.findall(r'href="([^"]+)"[^>]*class="md-nav__link', nav)
    first = [h for h in links if not h.startswith("#")][:6]
    assert any("reference/cli" in h for h in first), first
    assert 'href="css/extra.css"' in home
    assert "pre-wrap" in (built / "css" / "extra.css").read_text()


def test_every_page_loads_without_errors(served: str, built: Path, host: BrowserHost) -> None:
    urls = pages(built)
    assert len(urls) >= 25, urls
    ctx = host.browser.new_context()
    outside: list[str] = []

    def route(r: object) -> None:
        req = r.request  # type: ignore[attr-defined]
        if urlparse(req.url).hostname not in ("127.0.0.1", None) and not req.url.startswith(
            ("data:", "blob:")
        ):
            outside.append(req.url)
            r.abort()  # type: ignore[attr-defined]
        else:
            r.continue_()  # type: ignore[attr-defined]

    ctx.route("**/*", route)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on(
            "console",
            lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
        checked_images = 0
        for rel in urls:
            resp = page.goto(served + rel, wait_until="load")
            assert resp is not None and resp.status == 200, rel
            broken = page.evaluate(
                "() => Array.from(document.images)"
                ".filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
            )
            assert not broken, f"{rel}: images that did not load: {broken}"
            checked_images += page.evaluate("() => document.images.length")
        assert not errors, errors
        assert not outside, f"requests that left the machine: {outside}"
        assert checked_images >= 12
    finally:
        ctx.close()


def test_the_formulas_on_concepts_render_as_math_offline(served: str, host: BrowserHost) -> None:
    """The metrics' formulas are typeset by the KaTeX vendored under docs/js/katex: every one
    rendered, its fonts served by the site itself, nothing failing to load."""
    ctx = host.browser.new_context()
    failed: list[str] = []
    try:
        page = ctx.new_page()
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        page.goto(served + "concepts/", wait_until="networkidle")
        counts = page.evaluate(
            "() => [document.querySelectorAll('.arithmatex').length,"
            " document.querySelectorAll('.arithmatex .katex').length,"
            " document.querySelectorAll('.arithmatex .katex-error').length,"
            " document.fonts.check('16px KaTeX_Main')]")
    finally:
        ctx.close()
    assert counts[0] >= 9 and counts[1] == counts[0] and counts[2] == 0, counts
    assert counts[3] is True and not failed, (counts, failed)


def test_search_finds_coverage_at_commit_on_concepts(served: str, host: BrowserHost) -> None:
    ctx = host.browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(served, wait_until="load")
        page.keyboard.press("/")  # Material's shortcut: focus the search box
        box = page.locator("input.md-search__input")
        box.wait_for(state="visible")
        # The index loads in a web worker; a query typed before it is ready is not run again,
        # so wait until Material stops saying "Initializing search" (slow on a loaded machine).
        meta = page.locator(".md-search-result__meta")
        page.wait_for_function(
            "() => { const m = document.querySelector('.md-search-result__meta');"
            " return m && !/Initializing/i.test(m.textContent); }",
            timeout=120_000,
        )
        box.press_sequentially("coverage@commit")  # Material searches on key events, as typed
        hit = page.locator(".md-search-result__item a[href*='concepts']")
        hit.first.wait_for(timeout=60_000)
        assert "matching" in meta.inner_text()
        assert hit.count() >= 1
    finally:
        ctx.close()


def test_cli_reference_lists_every_command(served: str, host: BrowserHost) -> None:
    commands = typer.main.get_command(app).list_commands(None)  # type: ignore[attr-defined]
    assert len(commands) >= 10
    ctx = host.browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(served + "reference/cli/", wait_until="load")
        headings = page.locator("h2").all_inner_texts()
        for name in commands:
            assert any(h.strip().startswith(f"webmdp {name}") for h in headings), (
                f"webmdp {name} is missing from the CLI reference: {headings}"
            )
    finally:
        ctx.close()
