"""Everything the viewer serves passes through the scrubber of :mod:`webmdp.redact`: a trace
holding a credential (written before the secret was known, or by another tool) is served
without it, in every view, the task list and the batch report."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from webmdp.runner.local import RunConfig, run_tasks
from webmdp.sites import get_site
from webmdp.tasks import make_task
from webmdp.viewer import RunIndex, create_app
from webmdp.viewer.app import episode_url

ENV_KEY = "sk-viewer-canary-0123456789"
TOKEN = "viewer-token-canary-42"
PASSWORD = "viewerPASSWORD77"


def test_every_page_the_viewer_serves_is_scrubbed(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    task = make_task(get_site("shopping"), 5, "find_product_extract", 0)
    (trace,) = run_tasks([task], tmp_path, RunConfig(agent="oracle"))
    path = next((tmp_path / "episodes").rglob("*.json"))
    data = json.loads(path.read_text())
    encoded = base64.b64encode(f"Bearer {ENV_KEY}".encode()).decode()
    data["final_answer"] = f"key {ENV_KEY} (upper: {ENV_KEY.upper()})"
    data["steps"][0]["notes"] = {"thought": f"GET https://api.example/v1?access_token={TOKEN} "
                                            f"via http://user:{PASSWORD}@proxy/ header {encoded}"}
    path.write_text(json.dumps(data))  # as a tool that does not scrub would write it
    monkeypatch.setenv("VIEWER_CANARY_API_KEY", ENV_KEY)
    index = RunIndex.load([tmp_path])
    ep = index.episode(trace.agent, trace.mode, trace.task_id)
    assert ep is not None
    pages = ["/", "/batch", "/batch/report.html"] + [
        episode_url(ep, view=v) for v in ("replay", "trajectory", "verification")]
    with TestClient(create_app(index)) as client:
        served = {p: client.get(p) for p in pages}
    for page, r in served.items():
        assert r.status_code == 200, page
        for secret in (ENV_KEY, ENV_KEY.upper(), TOKEN, PASSWORD, encoded[12:40]):
            assert secret not in r.text, (page, secret)
        assert r.headers["content-length"] == str(len(r.content))
    episode = served[episode_url(ep, view="trajectory")].text
    assert "access_token=***" in episode and "user:***@proxy" in episode
