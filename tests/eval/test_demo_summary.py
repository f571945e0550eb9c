"""`webmdp demo` prints a compact summary (one row per agent, where the report is, how to open
it), not the whole report; the full report stays in files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from webmdp.eval.report import pct

WEBMDP = str(Path(sys.executable).parent / "webmdp")


def test_demo_prints_a_short_summary_and_where_the_report_is(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    res = subprocess.run([WEBMDP, "demo", "--sites", "mail", "--per-site", "2", "--mode",
                          "semantic", "--workers", "0", "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) <= 15, res.stdout
    rep = json.loads((out / "report" / "report.json").read_text())
    for agent in ("oracle", "greedy", "random"):
        label = f"{agent} (semantic)"
        agg = rep["by_agent_mode"][label]
        row = next(line for line in lines if line.startswith(label)).split()[2:]
        assert row[:4] == [pct(agg[k]) for k in ("terminal_sr", "exploration_sr",
                                                 "execution_sr", "coverage_at_commit")]
        assert row[4] == f"{agg['gui_steps']:.1f}" and row[-1] == str(agg["episodes"])
    header = lines[0].split()
    assert header[:5] == ["Agent", "SR", "Expl.", "SR", "Exec."]
    assert str(out / "report" / "report.html") in res.stdout
    assert f"webmdp view {out}" in lines[-1]
    for full in ("## Aggregate results", "## Definitions", "|---|", "Skill invocation"):
        assert full not in res.stdout, full
    assert (out / "report" / "report.md").read_text().startswith("# WebMDP evaluation")


@pytest.mark.browser
def test_the_browser_demo_opens_the_viewer_on_an_episode_with_screenshots(
        tmp_path: Path) -> None:
    """What the README shows: the viewer replaying screenshots. The demo keeps them for the
    greedy agent's first episode per site (a run beside the demo's), prints the command that
    opens both and the page of one such episode, and that page shows its screenshots."""
    from fastapi.testclient import TestClient

    from webmdp.viewer import RunIndex, create_app

    out = tmp_path / "demo"
    res = subprocess.run([WEBMDP, "demo", "--sites", "food", "--per-site", "2",
                          "--workers", "0", "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    replay = tmp_path / "demo-replay"
    assert f"webmdp view {replay} {out}" in res.stdout
    page = re.search(r"^Replay:  http://127\.0\.0\.1:8765(/episode\?\S+)", res.stdout, re.M)
    assert page, res.stdout
    traces = list((replay / "episodes" / "greedy" / "browser").glob("*.json"))
    assert [t.stem for t in traces] == ["food_0000"]
    steps = json.loads(traces[0].read_text())["steps"]
    assert steps and all(s["screenshot"] for s in steps if s["action"]["kind"] != "finish")
    assert not any(s["screenshot"] for t in (out / "episodes").rglob("*.json")
                   for s in json.loads(t.read_text())["steps"])  # the main run keeps none
    with TestClient(create_app(RunIndex.load([replay, out]))) as client:
        html = client.get(page.group(1)).text
        shots = re.findall(r'src="(/shot\?[^"]+)"', html)
        assert shots, html[:2000]
        image = client.get(shots[0].replace("&amp;", "&"))
        assert image.status_code == 200 and image.content[:8] == b"\x89PNG\r\n\x1a\n"
