"""The viewer in a real Chromium against the real uvicorn server on loopback: navigate, step
through turns with the keyboard, play, switch views, follow batch links, and check that
payloads in a trace never run. Screenshots of every view go to ``$WEBMDP_VIEWER_SHOTS`` (a
temporary folder when unset)."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer_runs import IMG, MODEL_AGENT, SCRIPT, Runs

from webmdp.env.chromium import BrowserHost
from webmdp.trace import EpisodeTrace
from webmdp.viewer import ViewerServer
from webmdp.viewer.replay import summary

pytestmark = pytest.mark.browser
SHOWN_IMG = ("() => { const i = document.querySelector("
             "'.frame:not([hidden]) .shot:not([hidden]) img');"
             " return !!i && i.complete && i.naturalWidth > 0; }")


@pytest.fixture
def page(host: BrowserHost, live: ViewerServer) -> Iterator[Any]:
    """A fresh 1440x900 page; any script error or CSP violation fails the test."""
    ctx = host.browser.new_context(viewport={"width": 1440, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.set_default_timeout(10_000)
    yield pg
    ctx.close()
    assert errors == []


def url(live: ViewerServer, path: str) -> str:
    return live.url.rstrip("/") + path


def _trace(runs: Runs, run: Path, agent: str, mode: str, task: str) -> EpisodeTrace:
    return EpisodeTrace.model_validate_json(
        (run / "episodes" / agent / mode / f"{task}.json").read_text())


def _detail(page: Any) -> Any:
    return page.locator(".step-detail:not([hidden])")


def test_task_list_to_episode_and_through_its_turns(page: Any, live: ViewerServer,
                                                    runs: Runs) -> None:
    trace = _trace(runs, runs.browser, "oracle", "browser", "shopping_0030")
    page.goto(url(live, "/?agent=oracle+%28browser%29"))
    assert page.locator("tr[data-task]").count() == 2
    page.click('tr[data-task="shopping_0030"] a.mark.success')
    page.wait_for_url("**/episode?**")
    counter = page.locator("#step-no")
    assert counter.inner_text() == "1"
    assert page.locator("#instruction").inner_text().startswith("Search for")
    page.wait_for_function(SHOWN_IMG)
    for key, n in (("ArrowRight", 2), ("j", 3), ("ArrowRight", 4), ("ArrowLeft", 3),
                   ("k", 2)):
        page.keyboard.press(key)
        assert counter.inner_text() == str(n)
        assert _detail(page).count() == 1
        assert _detail(page).locator(".action-summary").inner_text() == summary(
            trace.steps[n - 1].action)
        assert page.url.endswith(f"step={n - 1}")
        page.wait_for_function(SHOWN_IMG)  # each step's screenshot loads when shown
    # step 2 typed into the search box the previous step clicked: drawn there
    typed = page.locator(".frame:not([hidden]) .shot:not([hidden]) .mk-text")
    assert trace.steps[1].action["kind"] == "type"
    assert "cookware" in typed.text_content()
    page.keyboard.press("j")  # step 3: a click, drawn where the agent clicked
    a = trace.steps[2].action
    box = page.locator(".frame:not([hidden]) .shot:not([hidden]) img").bounding_box()
    ring = page.locator(".frame:not([hidden]) .shot:not([hidden]) .mk-point .ring")
    rb = ring.bounding_box()
    scale = box["width"] / 1440
    assert abs(rb["x"] + rb["width"] / 2 - (box["x"] + a["x"] * scale)) < 2
    assert abs(rb["y"] + rb["height"] / 2 - (box["y"] + a["y"] * scale)) < 2
    transition = trace.steps[2].transitions[0]
    assert f"{transition.surface_before} → {transition.surface_after}" in _detail(
        page).locator(".t-surfaces").inner_text()
    assert "%" in _detail(page).locator(".cov").inner_text()


def test_play_and_the_before_after_toggle(page: Any, live: ViewerServer) -> None:
    page.goto(url(live, "/episode?agent=oracle&mode=browser&task=shopping_0030&step=1"))
    img = page.locator(".frame:not([hidden]) .shot:not([hidden]) img")
    assert "step=0" in img.get_attribute("src")  # what the agent saw: step 1's screenshot
    page.click("button[data-shot=after]")
    assert "step=1" in img.get_attribute("src") and "shot=after" in page.url
    page.click("#play")
    page.wait_for_function("() => document.getElementById('step-no').textContent === '4'",
                           timeout=8_000)
    page.click("#play")  # pause
    stopped = page.locator("#step-no").inner_text()
    page.wait_for_timeout(1500)
    assert page.locator("#step-no").inner_text() == stopped
    assert "Play" in page.locator("#play").inner_text()


def test_tabs_show_the_bifurcation_and_the_verifier(page: Any, live: ViewerServer,
                                                    runs: Runs) -> None:
    task = runs.premature
    page.goto(url(live, f"/episode?agent={MODEL_AGENT}&mode=semantic&task={task.id}"))
    assert page.locator("#pane-trajectory").is_hidden()
    page.click("#tabs a[data-view=trajectory]")
    assert page.locator("#pane-trajectory").is_visible() and "view=trajectory" in page.url
    assert page.locator("#bif-kind").inner_text() == "premature commit"
    assert page.locator("tr.bif-marker").is_visible()
    at = page.locator("tr.at-bif")
    assert "AddToCart()" in at.first.inner_text() and "BackToResults()" in at.first.inner_text()
    assert page.locator("tr.row-match").count() == 2
    page.click("#tabs a[data-view=verification]")
    rows = page.locator("#conditions tbody tr")
    assert rows.count() == len(task.verifier) and page.locator("#conditions tr.fail").count() == 2
    assert page.locator("#recorded-verdict").inner_text() == "failure"
    page.reload()  # the URL holds the view
    assert page.locator("#pane-verification").is_visible()
    page.click("#tabs a[data-view=replay]")
    assert page.locator("#timeline a.bif").get_attribute("data-step") == "2"
    page.keyboard.press("End")
    assert page.locator("#step-no").inner_text() == "4"


def test_batch_cells_open_the_filtered_task_list(page: Any, live: ViewerServer,
                                                 runs: Runs) -> None:
    # the batch page renders the scope's report and plots on first load: seconds when busy
    page.goto(url(live, "/batch?scope=all"), timeout=60_000)
    assert page.locator("table.report").count() >= 6
    row = page.locator("table.report tr", has_text=f"{MODEL_AGENT} (semantic)").filter(
        has=page.locator('a[href*="bif=premature_commit"]'))
    row.locator('a[href*="bif=premature_commit"]').click()
    page.wait_for_url("**/?**bif=premature_commit**")
    assert page.locator("tr[data-task]").evaluate_all(
        "rows => rows.map(r => r.dataset.task)") == [runs.premature.id]
    assert page.locator('select[name=bif] option[selected]').inner_text() == "premature_commit"


def test_payloads_in_a_trace_never_run_and_show_literally(page: Any, live: ViewerServer
                                                          ) -> None:
    page.goto(url(live, "/episode?agent=xss&mode=browser&task=shopping_0030"))
    page.keyboard.press("ArrowRight")  # the typed step
    detail = _detail(page)
    thought = detail.locator(".thought").inner_text()
    raw = detail.locator("pre.raw").inner_text()
    assert SCRIPT in thought and IMG in thought
    assert SCRIPT in raw and IMG in raw
    assert SCRIPT in detail.locator(".action-summary").inner_text()
    overlay = page.locator(".frame:not([hidden]) .shot:not([hidden]) .mk-text")
    assert "<script>window.__xss=1" in overlay.text_content()
    for view in ("trajectory", "verification", "replay"):
        page.click(f"#tabs a[data-view={view}]")
    page.goto(url(live, "/?q=cookware"))
    assert page.evaluate("() => typeof window.__xss") == "undefined"
    assert page.locator('img[src="x"]').count() == 0


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", head[16:24])
    return int(w), int(h)


def test_screenshots_of_every_view(page: Any, live: ViewerServer, runs: Runs,
                                   tmp_path: Path) -> None:
    out = Path(os.environ.get("WEBMDP_VIEWER_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    views = {
        "tasks": "/?site=shopping",
        "replay": "/episode?agent=oracle&mode=browser&task=shopping_0030&step=2",
        "trajectory": f"/episode?agent={MODEL_AGENT}&mode=semantic&task={runs.premature.id}"
                      "&view=trajectory",
        "verification": "/episode?agent=claude_cua&mode=browser&task=gmail_0001"
                        "&view=verification",
        "batch": "/batch?scope=all",
    }
    for name, path in views.items():
        page.goto(url(live, path))
        page.wait_for_load_state("networkidle")
        page.screenshot(path=out / f"{name}.png", full_page=name == "batch")
        w, h = _png_size(out / f"{name}.png")
        assert w == 1440 and h >= 900
